/**
 * Moving bytes: one function per way of sending a request. The undici transport calls
 * `dispatcher.request()` directly (measured ~40% faster than `undici.request(url)`); the fetch
 * transport exists for msw in-process tests and runtimes without undici.
 */
import type { Dispatcher } from 'undici';
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
  /** Aborts the attempt (caller's signal and the per-attempt timeout combined). */
  signal: AbortSignal;
  /** Body bytes beyond which the response is refused. */
  maxResponseBytes: number;
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

/** Wraps a low-level network failure, recording whether the request provably never left. */
export function toConnectionError(error: unknown): APIConnectionError {
  if (error instanceof APIConnectionError) return error;
  const code = errorCode(error);
  const reason = error instanceof Error ? error.message : String(error);
  return new APIConnectionError(`Connection error${code ? ` (${code})` : ''}: ${reason}`, {
    cause: error,
    requestNotSent: code !== undefined && NOT_SENT_CODES.has(code),
  });
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
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

/** A transport over an undici dispatcher chosen per origin. */
export function undiciTransport(dispatcherFor: (origin: string) => Dispatcher): Transport {
  return async (request) => {
    const response = await dispatcherFor(request.origin).request({
      origin: request.origin,
      path: request.path,
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      signal: request.signal,
    });
    const headers = flattenHeaders(response.headers);
    try {
      refuseDeclaredOversize(headers, request.maxResponseBytes);
    } catch (error) {
      response.body.destroy();
      throw error;
    }
    const body = await readCapped(response.body, request.maxResponseBytes, () => response.body.destroy());
    return { status: response.statusCode, headers, body };
  };
}

/** A transport over a fetch implementation, looked up at call time so msw installed later still intercepts. */
export function fetchTransport(getFetch: () => typeof fetch): Transport {
  return async (request) => {
    const response = await getFetch()(`${request.origin}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      signal: request.signal,
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
  };
}
