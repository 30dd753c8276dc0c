/**
 * Moving bytes: what a transport is, and the one over fetch. Each entry hands the client its
 * transport: the Node entry undici's (undici-transport.ts), the edge entry this one, which also
 * serves msw in-process tests and runtimes whose undici cannot dispatch. Nothing here needs Node:
 * bodies are `Uint8Array`s (a Buffer is one).
 */

import { APIConnectionError, ResponseTooLargeError } from '../errors.js';
import { concatBytes } from './bytes.js';

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
  /** The body's bytes (a `Buffer` on the undici transport). */
  body: Uint8Array;
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

/** Refuses a response whose declared `content-length` is over `limit` before reading it. */
function refuseDeclaredOversize(headers: Record<string, string>, limit: number): void {
  const declared = Number(headers['content-length']);
  if (declared > limit) throw new ResponseTooLargeError(limit);
}

async function readCapped(
  chunks: AsyncIterable<Uint8Array>,
  limit: number,
  stop: () => void,
): Promise<Uint8Array> {
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
  return concatBytes(parts, total);
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
      if (!response.body) return { status: response.status, headers, body: new Uint8Array(0) };
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
