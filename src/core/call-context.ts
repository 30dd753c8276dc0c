/**
 * One call as a person reads about it: method, path (ids shown, query masked), host, attempt
 * count and elapsed time, and the deadline that bounds the whole call, waits included.
 */
import type { Clock } from './clock.js';

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

/** Tracks one call's attempts and time. */
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

  /** Whether another attempt is allowed by the retry budget. */
  hasAttemptsLeft(): boolean {
    return this.attempts < this.maxAttempts;
  }

  /** `attempt 2 of 3, 1.2 s elapsed`: how far the call got, for messages that already name the host. */
  progress(): string {
    return `attempt ${this.attempts} of ${this.maxAttempts}, ${formatDuration(this.elapsed())} elapsed`;
  }
}
