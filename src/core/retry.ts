/**
 * When to try again and how long to wait. A create sends emails and texts to real people, so
 * requests are classed by what a resend could do: `read` requests retry freely, `create`
 * requests only when the first attempt provably never reached the server.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  ResponseValidationError,
} from './errors.js';

/** How a request may be repeated. */
export type RetrySafety = 'read' | 'create';

/** The outcome of one attempt, as far as the retry policy cares. */
export type AttemptFailure =
  | { kind: 'status'; status: number; headers: Record<string, string> }
  | { kind: 'connection'; requestNotSent: boolean; timedOut: boolean };

/** What to do after a failed attempt. */
export type RetryVerdict =
  /** Send again (after the backoff). */
  | 'retry'
  /** Don't: the failure is final. */
  | 'fail'
  /** A create failed in a way that leaves unknown whether the server acted on it. */
  | 'ambiguous';

const RETRYABLE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);
const AMBIGUOUS_STATUSES = new Set([408, 425, 500, 502, 504]);

/** Backoff bounds, in milliseconds. */
export const BACKOFF = { initialMs: 500, maxMs: 8_000, maxRetryAfterMs: 60_000 } as const;

/** Classifies an attempt's failure for a request of the given safety. */
export function retryVerdict(failure: AttemptFailure, safety: RetrySafety): RetryVerdict {
  if (failure.kind === 'connection') {
    if (safety === 'read' || failure.requestNotSent) return 'retry';
    return 'ambiguous';
  }
  if (!RETRYABLE_STATUSES.has(failure.status)) return 'fail';
  if (safety === 'read') return 'retry';
  // 429 and a 503 that names a Retry-After are the server saying it did not take the request.
  if (failure.status === 429) return 'retry';
  if (failure.status === 503) return retryAfterMs(failure.headers) === undefined ? 'ambiguous' : 'retry';
  return AMBIGUOUS_STATUSES.has(failure.status) ? 'ambiguous' : 'fail';
}

/** The wait the server asked for (`retry-after-ms`, or `Retry-After` in seconds or as an HTTP date). */
export function retryAfterMs(headers: Record<string, string>, now = Date.now()): number | undefined {
  const ms = headers['retry-after-ms'];
  if (ms !== undefined) {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const header = headers['retry-after'];
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (header.trim() !== '' && Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Milliseconds to wait before retry number `retry` (0-based): the server's word when it gave one
 * (up to 60 s), else 0.5 s × 2^n capped at 8 s, with jitter in [0.75, 1] so a fleet of batch
 * jobs does not retry in lockstep.
 */
export function backoffMs(retry: number, headers: Record<string, string> = {}, random = Math.random): number {
  const asked = retryAfterMs(headers);
  if (asked !== undefined && asked <= BACKOFF.maxRetryAfterMs) return asked;
  const base = Math.min(BACKOFF.initialMs * 2 ** retry, BACKOFF.maxMs);
  return base * (0.75 + 0.25 * random());
}

/** The failure an error stands for, or `undefined` for errors no retry can fix. */
export function failureOf(error: unknown): AttemptFailure | undefined {
  if (error instanceof APIError) return { kind: 'status', status: error.status, headers: error.headers };
  if (error instanceof APIConnectionError) {
    return {
      kind: 'connection',
      requestNotSent: error.requestNotSent,
      timedOut: error instanceof APIConnectionTimeoutError,
    };
  }
  // A success status whose body is not JSON: the server acted, but the answer was lost in transit.
  if (error instanceof ResponseValidationError && error.issues[0]?.code === 'invalid_json') {
    return { kind: 'connection', requestNotSent: false, timedOut: false };
  }
  return undefined;
}
