/** The promise every method returns: `await` it for the data, or ask for the response too. */

/** What the SDK tells about the HTTP response behind a result. */
export interface ResponseInfo {
  /** HTTP status code. */
  status: number;
  /** Response headers, lower-cased (credential headers removed). */
  headers: Record<string, string>;
  /** The `x-request-id` header, when the server sent one: quote it to support. */
  requestId: string | undefined;
}

/** A result with the response it came from. */
export interface WithResponse<T> {
  /** The parsed, validated response body. */
  data: T;
  /** Status, headers and request id of the response. */
  response: ResponseInfo;
}

/**
 * A promise of `T` that can also give the HTTP response: `await p` gives the data,
 * `await p.withResponse()` gives `{ data, response }`. The request starts at once.
 */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<WithResponse<T>>;

  /** Wraps a promise of `{ data, response }`. */
  constructor(result: Promise<WithResponse<T>>) {
    this.#result = result;
  }

  /** The data together with `{ status, headers, requestId }` of the response. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  /**
   * Promise interface: resolves to the data. Each call chains once onto the result (no data
   * promise kept between calls), so a caller who only uses withResponse() sees one rejection, and
   * an `await` costs one promise fewer.
   */
  // biome-ignore lint/suspicious/noThenProperty: this class is a thenable by design
  then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#result.then(
      onFulfilled ? (result) => onFulfilled(result.data) : (result) => result.data as unknown as R1,
      onRejected,
    );
  }

  /** Promise interface: handles a failure. */
  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onRejected);
  }

  /** Promise interface: runs after either outcome. */
  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }

  /** @internal */
  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}
