/**
 * One call as a person reads about it: method, path (ids shown, query masked), host, attempt
 * count and elapsed time, and the deadline that bounds the whole call, waits included; and the
 * budget of a call (its timeout, retries and deadline), derived once from the client's options
 * and the call's.
 */

import type { Clock } from '../clock.js';
import type { ResolvedOptions } from '../options.js';
import type { RequestOptions } from './call.js';
import { defaultDeadlineMs } from './retry.js';

/** Node timers take at most this many ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How long one call may take, from the client's options and the call's own. */
export interface CallBudget {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Milliseconds per attempt (capped at what a timer takes). */
  timeout: number;
  /** The deadline the caller set (call or client), if any: it cuts attempts short. */
  explicitDeadline: number | undefined;
  /** The whole call's budget: the explicit deadline, or timeout × attempts plus backoff. */
  totalMs: number;
}

/** The one derivation of a call's timeout, retries and deadline (the core's loop and the create lease both read it). */
export function callBudget(
  client: Pick<ResolvedOptions, 'timeout' | 'maxRetries' | 'deadline'>,
  options: RequestOptions,
): CallBudget {
  const maxRetries = options.maxRetries ?? client.maxRetries;
  const timeout = Math.min(options.timeout ?? client.timeout, MAX_TIMER_MS);
  const explicitDeadline = options.deadline ?? client.deadline;
  return {
    maxRetries,
    timeout,
    explicitDeadline,
    totalMs: explicitDeadline ?? defaultDeadlineMs(timeout, maxRetries),
  };
}

/** Rounds a duration for a message: `300 ms`, `1.2 s`, `45 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 10_000) return `${Math.round(ms / 100) / 10} s`;
  return `${Math.round(ms / 1_000)} s`;
}

/** What a call's progress is measured against. */
export interface CallLimits {
  /** Attempts allowed: retries + 1. */
  maxAttempts: number;
  /** Milliseconds the whole call may take, waits included. */
  totalMs: number;
}

/**
 * Tracks one call's attempts and time, and what its retry loop must remember from one attempt to
 * the next. A create's loop continues in the creates layer with the same context (the core hands
 * it back on a {@link MayHaveReachedServerError}), so the budget is one.
 */
export class CallContext {
  /** HTTP method. */
  readonly method: string;
  /** Attempts allowed. */
  readonly maxAttempts: number;
  /** When the call started (clock time). */
  readonly startedAt: number;
  /** When the call must be over (clock time). */
  readonly deadline: number;
  /** Attempts started so far (the token exchange of an attempt included). */
  attempts = 0;
  /** Whether the one refresh-and-replay after a 401 has been spent. */
  replayedAfter401 = false;
  /** The next attempt replays one a 401 refused after a token refresh: it does not count. */
  freeReplay = false;
  /** Whether an earlier attempt may have reached the server: a create then is looked up before any resend. */
  reachedServer = false;
  readonly #clock: Clock;

  // Built on first read: most calls succeed at once and never show their path (masking it runs
  // regular expressions over it).
  #path: string | (() => string);
  #host: string | (() => string);

  /** `path` and `host` may be functions, called once, on first read. */
  constructor(
    method: string,
    path: string | (() => string),
    host: string | (() => string),
    limits: CallLimits,
    clock: Clock,
  ) {
    this.method = method;
    this.#path = path;
    this.#host = host;
    this.maxAttempts = limits.maxAttempts;
    this.#clock = clock;
    this.startedAt = clock.now();
    this.deadline = this.startedAt + limits.totalMs;
  }

  /** The path as shown: base path included, secrets and personal data masked. */
  get path(): string {
    if (typeof this.#path === 'function') this.#path = this.#path();
    return this.#path;
  }

  /** `host[:port]` the call goes to. */
  get host(): string {
    if (typeof this.#host === 'function') this.#host = this.#host();
    return this.#host;
  }

  /** `POST /things on api.example.com`. */
  get label(): string {
    return `${this.method} ${this.path} on ${this.host}`;
  }

  /** Milliseconds since the call started. */
  elapsed(): number {
    return this.#clock.now() - this.startedAt;
  }

  /** Milliseconds left before the deadline (0 when past it). */
  remaining(): number {
    return Math.max(0, this.deadline - this.#clock.now());
  }

  /** Counts the attempt about to start, unless it is the free replay after a 401. */
  startAttempt(): void {
    if (this.freeReplay) this.freeReplay = false;
    else this.attempts++;
  }

  /** Whether another attempt is allowed by the retry budget. */
  hasAttemptsLeft(): boolean {
    return this.attempts < this.maxAttempts;
  }

  /** Names the call and how it went: "POST /path on host (2 attempts, 1.2 s)". */
  summary(): string {
    return `${this.label} (${this.attempts} attempt${this.attempts === 1 ? '' : 's'}, ${formatDuration(this.elapsed())})`;
  }

  /** The warning before a retry: "retrying in 1.2 s (attempt 2 of 3): <why>". */
  retryLine(delayMs: number, error: unknown): string {
    return `retrying in ${formatDuration(delayMs)} (attempt ${this.attempts + 1} of ${this.maxAttempts}): ${error instanceof Error ? error.message : String(error)}`;
  }

  /** `attempt 2 of 3, 1.2 s elapsed`: how far the call got, for messages that already name the host. */
  progress(): string {
    return `attempt ${this.attempts} of ${this.maxAttempts}, ${formatDuration(this.elapsed())} elapsed`;
  }
}
