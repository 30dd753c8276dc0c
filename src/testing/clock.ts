/**
 * The mock's clock. Everything time-related (token expiry, created_at, the 14-day request
 * expiry, PDF link expiry) reads this clock, never `Date.now()`, so tests move time with
 * `advance()` instead of sleeping. It starts at the real current time unless pinned (`now`).
 */
import type { Clock } from 'applicant-verification';

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

/** A fixed instant to pin the mock clock to (`createMockServer({ now: DEFAULT_START_TIME })`), for output that is the same on every run. */
export const DEFAULT_START_TIME = Date.UTC(2026, 0, 15, 12, 0, 0);

function toMs(time: number | Date): number {
  const ms = typeof time === 'number' ? time : time.getTime();
  if (!Number.isFinite(ms)) throw new TypeError(`Invalid mock clock time: ${String(time)}`);
  return ms;
}

/** Creates a clock starting at `start` (default: the real current time). */
export function createClock(start: number | Date = Date.now()): MockClock {
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

/**
 * A clock for the SDK's `clock` option that shares the mock's time and takes no real time: each
 * wait the SDK chooses (retry backoff, a 429 pause, a create's grace window, polling) moves
 * `mockClock` forward to where the wait ends, after letting pending I/O run. Waits that overlap
 * (concurrent calls) overlap here too. Pass the mock's clock so both sides see one time.
 *
 * ```ts
 * const mock = await createMockServer();
 * const client = new VerificationClient({ baseURL: mock.url, clientId: mock.clientId, secretKey: mock.secretKey, clock: createTestClock(mock.clock) });
 * ```
 */
export function createTestClock(mockClock: MockClock = createClock()): Clock {
  return {
    now: () => mockClock.now(),
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      const end = mockClock.now() + Math.max(0, ms);
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw signal.reason;
      if (mockClock.now() < end) mockClock.set(end);
    },
  };
}
