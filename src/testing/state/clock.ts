/**
 * The mock's clock. Everything time-related (token expiry, created_at, the 14-day request
 * expiry, PDF link expiry) reads this clock, never `Date.now()`, so tests move time with
 * `advance()` instead of sleeping. Two kinds: a frozen clock ({@link createClock}), which moves
 * only when told (in-process mocks and `createMockServer`), and a ticking one
 * ({@link createTickingClock}), which runs with real time from its start (the bin), so a mock
 * that has run for minutes still stamps groups with the time its clients read.
 */
import type { Clock } from 'applicant-verification';

/** A settable clock in epoch milliseconds. */
export interface MockClock {
  /** Current mock time, epoch milliseconds. */
  now(): number;
  /** Current mock time as a `Date`. */
  date(): Date;
  /** Moves time forward by `ms` (must be >= 0) and returns the new time. A ticking clock keeps ticking from there. */
  advance(ms: number): number;
  /** Sets the time (epoch ms or a `Date`). Going backwards is allowed, for odd test cases. A ticking clock keeps ticking from there. */
  set(time: number | Date): void;
}

/** A mock clock with its way back to its start, which `mock.reset()` takes. */
export interface ResettableClock extends MockClock {
  /** Frozen: back to the start. Ticking: back to the start plus the real time elapsed since, as if never moved. */
  reset(): void;
}

/** A fixed instant to pin the mock clock to (`createMockServer({ now: DEFAULT_START_TIME })`), for output that is the same on every run. */
export const DEFAULT_START_TIME = Date.UTC(2026, 0, 15, 12, 0, 0);

function toMs(time: number | Date): number {
  const ms = typeof time === 'number' ? time : time.getTime();
  if (!Number.isFinite(ms)) throw new TypeError(`Invalid mock clock time: ${String(time)}`);
  return ms;
}

function checkAdvance(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0)
    throw new RangeError(`advance() needs a non-negative number, got ${ms}`);
}

/** Creates a frozen clock starting at `start` (default: the real current time): it moves only when told. */
export function createClock(start: number | Date = Date.now()): ResettableClock {
  const origin = toMs(start);
  let current = origin;
  return {
    now: () => current,
    date: () => new Date(current),
    advance(ms) {
      checkAdvance(ms);
      current += ms;
      return current;
    },
    set(time) {
      current = toMs(time);
    },
    reset() {
      current = origin;
    },
  };
}

/**
 * Monotonic milliseconds since some fixed moment. `performance.now()`, not `Date.now()`: the
 * wall clock can be stepped (NTP, a user changing the date, a VM resumed), and a ticking mock
 * clock that followed it could run backwards, while tokens, links and created_at must only move on.
 */
const monotonicMs = (): number => performance.now();

/**
 * Creates a clock that ticks with real time from `start` (default: the real current time):
 * `now()` is `start` plus the whole milliseconds `elapsedMs` has moved on since. `advance` and
 * `set` shift it; it keeps ticking from where they leave it.
 *
 * @param elapsedMs Monotonic milliseconds (default `performance.now()`); a test passes its own to
 *   age the clock by minutes without waiting them.
 */
export function createTickingClock(
  start: number | Date = Date.now(),
  elapsedMs: () => number = monotonicMs,
): ResettableClock {
  const origin = toMs(start);
  const originMark = elapsedMs();
  let base = origin;
  let mark = originMark;
  // Whole milliseconds: every time the mock mints (links, created_at) is then whole too.
  const now = () => base + Math.floor(elapsedMs() - mark);
  return {
    now,
    date: () => new Date(now()),
    advance(ms) {
      checkAdvance(ms);
      base += ms;
      return now();
    },
    set(time) {
      base = toMs(time);
      mark = elapsedMs();
    },
    reset() {
      base = origin;
      mark = originMark;
    },
  };
}

/**
 * The mock clock as the mock reads it to mint times (PDF link expiry, created_at, tokens): the
 * same time cut to whole milliseconds. A clock a test moved by a fraction (a jittered backoff
 * under {@link createTestClock} does) would otherwise put fractions into what the mock signs.
 */
export function wholeMilliseconds(clock: MockClock): MockClock {
  const now = () => Math.floor(clock.now());
  return {
    now,
    date: () => new Date(now()),
    advance: (ms) => Math.floor(clock.advance(ms)),
    set: (time) => clock.set(time),
  };
}

/**
 * A clock for the SDK's `clock` option that shares the mock's time and takes no real time: each
 * wait the SDK chooses (retry backoff, a 429 pause, a create's grace window, polling) moves
 * `mockClock` forward to where the wait ends, after letting pending I/O run. Waits that overlap
 * (concurrent calls) overlap here too. Pass the mock's clock so both sides see one time;
 * `mock.client()` does this for you.
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

/**
 * A clock for the SDK's `clock` option over a ticking mock clock: it reads the mock's time (so
 * a test that shifts the mock shifts its clients too) and waits in real time, as the mock ticks.
 */
export function createTickingClientClock(mockClock: MockClock): Clock {
  return {
    now: () => mockClock.now(),
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal?.reason);
        };
        const timer = setTimeout(
          () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          Math.max(0, ms),
        );
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
