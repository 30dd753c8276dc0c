/**
 * Moving bytes: one function per way of sending a request. The undici transport dispatches on
 * the dispatcher directly with a handler that collects the body (see {@link CollectHandler}),
 * which costs less CPU than `undici.request(url)` and its per-request stream (docs/benchmarks.md). The fetch transport exists for msw
 * in-process tests and runtimes without undici.
 */
import { type Dispatcher, errors } from 'undici';
import { APIConnectionError, ResponseTooLargeError } from './errors.js';

/** One HTTP request, fully prepared. */
export interface TransportRequest {
  method: 'GET' | 'POST';
  /** `https://host:port`, no trailing slash. */
  origin: string;
  /** Path with query string, starting with `/`. */
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** Aborts the attempt: the caller's cancellation (and, if `timeout` is not given, any deadline). */
  signal?: AbortSignal | undefined;
  /**
   * Milliseconds the attempt may take, response body included; past them it is aborted and the
   * promise rejects with {@link TransportTimeoutError}. Enforced by the transport, so a caller
   * without a signal of its own needs no AbortController per attempt. `0` or less: already over.
   */
  timeout?: number | undefined;
  /** Body bytes beyond which the response is refused. */
  maxResponseBytes: number;
}

/** The attempt outlived {@link TransportRequest.timeout}; the request was aborted. */
export class TransportTimeoutError extends Error {
  override name = 'TransportTimeoutError';
  /** The timeout in milliseconds. */
  readonly timeout: number;
  /** Whether the request had been handed to a connection (it may have been written). */
  readonly requestSent: boolean;

  constructor(timeout: number, requestSent = true) {
    super(
      `The attempt did not complete within ${Math.max(0, Math.round(timeout))} ms${requestSent ? '' : ' (still queued for a connection: nothing was sent)'}.`,
    );
    this.timeout = timeout;
    this.requestSent = requestSent;
  }
}

/** A response whose body was read whole. */
export interface TransportResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends one request and reads its whole response. */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

// Failures that happen before a byte of the request is written: the server never saw it.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What a low-level network failure says, and whether the request provably never left. */
export function describeNetworkError(error: unknown): { reason: string; requestNotSent: boolean } {
  if (error instanceof APIConnectionError)
    return { reason: error.message, requestNotSent: error.requestNotSent };
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const reason = code && !message.includes(code) ? `${message} (${code})` : message;
  return {
    reason: reason || 'connection error',
    requestNotSent: code !== undefined && NOT_SENT_CODES.has(code),
  };
}

function refuseDeclaredOversize(headers: Record<string, string>, limit: number): void {
  const declared = Number(headers['content-length']);
  if (declared > limit) throw new ResponseTooLargeError(limit);
}

async function readCapped(
  chunks: AsyncIterable<Uint8Array>,
  limit: number,
  stop: () => void,
): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > limit) {
      stop();
      throw new ResponseTooLargeError(limit);
    }
    parts.push(chunk);
  }
  return parts.length === 1 && Buffer.isBuffer(parts[0]) ? parts[0] : Buffer.concat(parts, total);
}

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

  constructor(signal: AbortSignal | undefined, limit: number, timeout: number | undefined) {
    this.#signal = signal;
    this.#limit = limit;
    this.promise = new Promise<TransportResponse>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    signal?.addEventListener('abort', this.#onAbort);
    this.#timer = timeout === undefined ? undefined : setTimeout(this.#onTimeout, timeout, timeout);
  }

  readonly #onAbort = (): void => {
    this.#stop(abortReason(this.#signal));
  };

  readonly #onTimeout = (timeout: number): void => {
    // Before onConnect the request still waits in the pool's queue: no byte of it was written.
    this.#stop(new TransportTimeoutError(timeout, this.#abort !== undefined));
  };

  #settle(): void {
    this.#settled = true;
    this.#signal?.removeEventListener('abort', this.#onAbort);
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
      abort(this.#signal?.aborted ? abortReason(this.#signal) : undefined);
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

function abortReason(signal: AbortSignal | undefined): Error {
  return signal?.reason instanceof Error ? signal.reason : new errors.RequestAbortedError();
}

/**
 * A transport over an undici dispatcher chosen per origin. It dispatches directly with a handler
 * that collects the body (see {@link CollectHandler}); errors are undici's own, as with `request()`.
 */
export function undiciTransport(dispatcherFor: (origin: string) => Dispatcher): Transport {
  return (request) => {
    const { signal, timeout } = request;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (timeout !== undefined && timeout <= 0)
      return Promise.reject(new TransportTimeoutError(timeout, false));
    const handler = new CollectHandler(signal, request.maxResponseBytes, timeout);
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

/** A transport over a fetch implementation, looked up at call time so msw installed later still intercepts. */
export function fetchTransport(getFetch: () => typeof fetch): Transport {
  return async (request) => {
    const { timeout } = request;
    if (timeout !== undefined && timeout <= 0) throw new TransportTimeoutError(timeout, false);
    const timer = timeout === undefined ? undefined : new AbortController();
    const clock = timer && setTimeout(() => timer.abort(new TransportTimeoutError(timeout ?? 0)), timeout);
    const signals = [request.signal, timer?.signal].filter((signal) => signal !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    try {
      const response = await getFetch()(`${request.origin}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        signal: signal ?? null,
        // A redirect is answered as is, like on the undici path: never followed to another host.
        redirect: 'manual',
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      refuseDeclaredOversize(headers, request.maxResponseBytes);
      if (!response.body) return { status: response.status, headers, body: Buffer.alloc(0) };
      const reader = response.body;
      const body = await readCapped(
        reader,
        request.maxResponseBytes,
        () => void reader.cancel().catch(() => {}),
      );
      return { status: response.status, headers, body };
    } catch (error) {
      // The deadline passed unless the caller cancelled first: say so, whatever fetch threw.
      if (timer?.signal.aborted && !request.signal?.aborted) throw timer.signal.reason;
      throw error;
    } finally {
      clearTimeout(clock);
    }
  };
}
