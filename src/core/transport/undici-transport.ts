/**
 * The Node entry's transport: undici's dispatchers, driven directly with a handler that collects
 * the body (see {@link CollectHandler}), which costs less CPU than `undici.request(url)` and its
 * per-request stream (docs/benchmarks.md). Only the Node entry imports this file.
 */
import type { Dispatcher } from 'undici';
import { ResponseTooLargeError } from '../errors.js';
import { type Transport, type TransportResponse, TransportTimeoutError } from './transport.js';
import type { UndiciParts } from './undici-modules.js';

function text(value: Buffer | string): string {
  return typeof value === 'string' ? value : value.toString('latin1');
}

/** Raw `[name, value, ...]` pairs as one record: lower-cased names, repeats joined with `, `. */
function headerRecord(raw: ReadonlyArray<Buffer | string | Array<Buffer | string>>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i];
    const rawValue = raw[i + 1];
    if (name === undefined || rawValue === undefined || Array.isArray(name)) continue;
    const key = text(name).toLowerCase();
    const value = Array.isArray(rawValue) ? rawValue.map(text).join(', ') : text(rawValue);
    if (key === '__proto__') continue; // never a real header; keep the record's prototype intact
    headers[key] = Object.hasOwn(headers, key) ? `${headers[key]}, ${value}` : value;
  }
  return headers;
}

type Abort = (reason?: Error) => void;
type AbortedErrorClass = UndiciParts['errors']['RequestAbortedError'];

/**
 * Collects one response for `dispatcher.dispatch()`: status, headers and the whole body, with the
 * size cap applied as bytes arrive. Going under `dispatcher.request()` skips its per-request
 * Readable stream, AsyncResource and header object, which the SDK would only drain into a Buffer.
 * It speaks the handler interface every undici Dispatcher accepts (the one `request()` uses).
 */
class CollectHandler {
  readonly promise: Promise<TransportResponse>;
  #resolve!: (response: TransportResponse) => void;
  #reject!: (error: unknown) => void;
  readonly #signal: AbortSignal | undefined;
  readonly #limit: number;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  #abort: Abort | undefined;
  #settled = false;
  #status = 0;
  #headers: Record<string, string> = {};
  #parts: Buffer[] = [];
  #total = 0;

  /** undici's `RequestAbortedError`: the reason of an abort whose own reason is not an Error. */
  readonly #aborted: AbortedErrorClass;

  constructor(
    signal: AbortSignal | undefined,
    limit: number,
    timeout: number | undefined,
    aborted: AbortedErrorClass,
  ) {
    this.#signal = signal;
    this.#aborted = aborted;
    this.#limit = limit;
    this.promise = new Promise<TransportResponse>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    if (signal) {
      this.#onAbort = () => this.#stop(abortReason(signal, aborted));
      signal.addEventListener('abort', this.#onAbort);
    }
    // A module-level callback with the handler as its argument: no closure per request.
    this.#timer = timeout === undefined ? undefined : setTimeout(timedOut, timeout, this, timeout);
  }

  /** The abort listener, made only when the call has a signal. */
  readonly #onAbort: (() => void) | undefined;

  /** The attempt's time ran out. */
  timeOut(timeout: number): void {
    // Before onConnect the request still waits in the pool's queue: no byte of it was written.
    this.#stop(new TransportTimeoutError(timeout, this.#abort !== undefined));
  }

  #settle(): void {
    this.#settled = true;
    if (this.#onAbort) this.#signal?.removeEventListener('abort', this.#onAbort);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settle();
    this.#parts = [];
    this.#reject(error);
  }

  /** Ends the attempt with `error`. Connected: aborting reports back through onError. Still queued: settle now; onConnect aborts. */
  #stop(error: Error): false {
    this.#parts = [];
    if (this.#abort) this.#abort(error);
    else this.#fail(error);
    return false;
  }

  onConnect(abort: Abort): void {
    if (this.#settled || this.#signal?.aborted) {
      abort(this.#signal?.aborted ? abortReason(this.#signal, this.#aborted) : undefined);
      return;
    }
    this.#abort = abort;
  }

  onHeaders(status: number, raw: Buffer[] | string[] | null, _resume: () => void, _text: string): boolean {
    if (status < 200) return true; // 1xx: the real response follows
    this.#status = status;
    this.#headers = raw ? headerRecord(raw) : {};
    if (Number(this.#headers['content-length']) > this.#limit) {
      return this.#stop(new ResponseTooLargeError(this.#limit));
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.#total += chunk.length;
    if (this.#total > this.#limit) return this.#stop(new ResponseTooLargeError(this.#limit));
    this.#parts.push(chunk);
    return true;
  }

  onComplete(_trailers: string[] | null): void {
    if (this.#settled) return;
    this.#settle();
    const parts = this.#parts;
    const body =
      parts.length === 1 && parts[0] !== undefined
        ? parts[0]
        : parts.length === 0
          ? Buffer.alloc(0)
          : Buffer.concat(parts, this.#total);
    this.#parts = [];
    this.#resolve({ status: this.#status, headers: this.#headers, body });
  }

  onError(error: Error): void {
    this.#fail(error);
  }
}

function timedOut(handler: CollectHandler, timeout: number): void {
  handler.timeOut(timeout);
}

function abortReason(signal: AbortSignal | undefined, aborted: AbortedErrorClass): Error {
  return signal?.reason instanceof Error ? signal.reason : new aborted();
}

/**
 * A transport over an undici dispatcher chosen per origin. It dispatches directly with a handler
 * that collects the body (see {@link CollectHandler}); errors are undici's own, as with `request()`.
 */
export function undiciTransport(
  dispatcherFor: (origin: string) => Dispatcher,
  aborted: AbortedErrorClass,
): Transport {
  return (request) => {
    const { signal, timeout } = request;
    if (signal?.aborted) return Promise.reject(abortReason(signal, aborted));
    if (timeout !== undefined && timeout <= 0)
      return Promise.reject(new TransportTimeoutError(timeout, false));
    const handler = new CollectHandler(signal, request.maxResponseBytes, timeout, aborted);
    dispatcherFor(request.origin).dispatch(
      {
        origin: request.origin,
        path: request.path,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
      },
      handler,
    );
    return handler.promise;
  };
}
