/**
 * When to try again and how long to wait: a pure policy, no I/O and no clock of its own. A create
 * sends emails and texts to real people, so requests are classed by what a resend could do:
 * `read` requests retry freely, `create` requests are resent only when the first attempt provably
 * never left the process or the server refused it before processing (429; a 401 is handled by the
 * token refresh). Everything else a create suffers is `ambiguous`: the caller's recovery decides.
 */
import { APIConnectionError, APIError, ResponseValidationError } from '../errors.js';

/** How a request may be repeated. */
export type RetrySafety = 'read' | 'create';

/** The outcome of one attempt, as far as the retry policy cares. */
export type AttemptFailure =
  | { kind: 'status'; status: number; headers: Record<string, string> }
  | { kind: 'connection'; requestNotSent: boolean };

/** What to do after a failed attempt. */
export type RetryVerdict =
  /** Send again (after the backoff). */
  | 'retry'
  /** Don't: the failure is final. */
  | 'fail'
  /** A create failed in a way that leaves unknown whether the server acted on it. */
  | 'ambiguous';

const RETRYABLE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

/** Backoff bounds, in milliseconds. */
export const BACKOFF = {
  /** First backoff, doubled after each retry. */
  initialMs: 500,
  /** Longest computed backoff. */
  maxMs: 8_000,
  /** No wait is shorter than this, `Retry-After: 0` included. */
  floorMs: 250,
  /** The longest `Retry-After` honoured; beyond it the call fails instead of waiting. */
  maxRetryAfterMs: 60_000,
} as const;

/** Classifies an attempt's failure for a request of the given safety. */
export function retryVerdict(failure: AttemptFailure, safety: RetrySafety): RetryVerdict {
  if (failure.kind === 'connection') {
    if (safety === 'read' || failure.requestNotSent) return 'retry';
    return 'ambiguous';
  }
  if (!RETRYABLE_STATUSES.has(failure.status)) return 'fail';
  if (safety === 'read') return 'retry';
  // 429 is the server refusing before processing. Every other retryable status (5xx included,
  // whatever Retry-After says) may come after the group was committed.
  return failure.status === 429 ? 'retry' : 'ambiguous';
}

/** Whether the attempt may have reached the server's processing (so a resend could duplicate). */
export function mayHaveReachedServer(failure: AttemptFailure): boolean {
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, a status failure has no requestNotSent (!undefined is true)
  return failure.kind === 'status' || !failure.requestNotSent;
}

/** The wait the server asked for (`retry-after-ms`, or `Retry-After` in seconds or as an HTTP date). */
export function retryAfterMs(headers: Record<string, string>, now: number): number | undefined {
  const ms = headers['retry-after-ms'];
  if (ms !== undefined) {
    const value = Number(ms);
    if (ms.trim() !== '' && Number.isFinite(value) && value >= 0) return value;
  }
  const header = headers['retry-after'];
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (header.trim() !== '' && Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The backoff before retry number `retry` (0-based): 0.5 s × 2^n capped at 8 s, jitter in [0.75, 1]. */
export function exponentialBackoffMs(retry: number, random = Math.random): number {
  const base = Math.min(BACKOFF.initialMs * 2 ** retry, BACKOFF.maxMs);
  return Math.max(BACKOFF.floorMs, base * (0.75 + 0.25 * random()));
}

/**
 * Milliseconds to wait before retry number `retry` (0-based): the server's word when it gave one
 * (never below the floor), else {@link exponentialBackoffMs}. `undefined` when the server asked
 * for longer than {@link BACKOFF.maxRetryAfterMs}: the call should fail rather than wait.
 */
export function backoffMs(
  retry: number,
  headers: Record<string, string> = {},
  random: () => number,
  now: number,
): number | undefined {
  const asked = retryAfterMs(headers, now);
  if (asked === undefined) return exponentialBackoffMs(retry, random);
  if (asked > BACKOFF.maxRetryAfterMs) return undefined;
  return Math.max(BACKOFF.floorMs, asked);
}

/**
 * A call's deadline when the caller set none: every attempt's full timeout plus the longest
 * backoff before each retry, so a short timeout still leaves room for the retries it allows.
 */
export function defaultDeadlineMs(timeout: number, maxRetries: number): number {
  if (!Number.isFinite(maxRetries)) return Number.POSITIVE_INFINITY;
  let waits = 0;
  for (let retry = 0; retry < maxRetries; retry++)
    waits += Math.min(BACKOFF.initialMs * 2 ** retry, BACKOFF.maxMs);
  return timeout * (maxRetries + 1) + waits;
}

/**
 * The client-wide pause a 429 starts: what the server asked, never below the floor; `undefined`
 * (no pause) when it asked for more than the cap, since that call fails at once instead of
 * waiting and the client's other calls should not hang on it.
 */
export function rateLimitPauseMs(headers: Record<string, string>, now: number): number | undefined {
  const asked = retryAfterMs(headers, now) ?? BACKOFF.initialMs;
  if (asked > BACKOFF.maxRetryAfterMs) return undefined;
  return Math.max(BACKOFF.floorMs, asked);
}

/** The failure an error stands for, or `undefined` for errors no retry can fix. */
export function failureOf(error: unknown): AttemptFailure | undefined {
  if (error instanceof APIError) return { kind: 'status', status: error.status, headers: error.headers };
  if (error instanceof APIConnectionError) {
    return { kind: 'connection', requestNotSent: error.requestNotSent };
  }
  // A success status whose body is not JSON: the server acted, but the answer was lost in transit.
  if (error instanceof ResponseValidationError && error.issues[0]?.code === 'invalid_json') {
    return { kind: 'connection', requestNotSent: false };
  }
  return undefined;
}
