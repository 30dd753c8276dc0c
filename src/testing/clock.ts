/**
 * The mock's clock. Everything time-related (token expiry, created_at, the 14-day request
 * expiry, PDF link expiry) reads this clock, never `Date.now()`, so tests move time with
 * `advance()` instead of sleeping, and output is the same on every run.
 */

/** A settable clock in epoch milliseconds. */
export interface MockClock {
  /** Current mock time, epoch milliseconds. */
  now(): number;
  /** Current mock time as a `Date`. */
  date(): Date;
  /** Moves time forward by `ms` (must be >= 0) and returns the new time. */
  advance(ms: number): number;
  /** Sets the time (epoch ms or a `Date`). Going backwards is allowed, for odd test cases. */
  set(time: number | Date): void;
}

/** Default start of the mock clock: a fixed instant, so output is deterministic. */
export const DEFAULT_START_TIME = Date.UTC(2026, 0, 15, 12, 0, 0);

function toMs(time: number | Date): number {
  const ms = typeof time === 'number' ? time : time.getTime();
  if (!Number.isFinite(ms)) throw new TypeError(`Invalid mock clock time: ${String(time)}`);
  return ms;
}

/** Creates a clock starting at `start` (default {@link DEFAULT_START_TIME}). */
export function createClock(start: number | Date = DEFAULT_START_TIME): MockClock {
  let current = toMs(start);
  return {
    now: () => current,
    date: () => new Date(current),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0)
        throw new RangeError(`advance() needs a non-negative number, got ${ms}`);
      current += ms;
      return current;
    },
    set(time) {
      current = toMs(time);
    },
  };
}
