/**
 * The SDK takes every wait it chooses (retry backoff, Retry-After, the client-wide 429 pause,
 * grace-window polls) through the client's `clock` option. A test hands it a recording clock and
 * asserts the waits the SDK asked for, instead of waiting them out and measuring wall time.
 */
import { expect } from 'vitest';
import { exponentialBackoffMs } from '../../src/core/call/retry.js';
import { type Clock, realSleep } from '../../src/core/clock.js';

/** A {@link Clock} that keeps every wait it is asked for. */
export interface RecordingClock extends Clock {
  /** Each wait the SDK asked for, in ms, in the order asked. */
  readonly waits: number[];
}

/**
 * A clock that records every wait and sleeps only a millisecond of it (enough for sockets to move).
 * Its time is real time plus what was skipped: after a wait, `now()` is at least where the wait
 * was to end, so deadlines, pauses and grace windows see the waits as taken. Waits that overlap
 * (concurrent calls backing off at once) overlap here too, as they would in real time.
 */
export function recordingClock(): RecordingClock {
  const waits: number[] = [];
  let ahead = 0;
  const now = () => Date.now() + ahead;
  return {
    waits,
    now,
    async sleep(ms, signal) {
      waits.push(ms);
      const end = now() + Math.max(0, ms);
      await realSleep(1, signal);
      ahead = Math.max(ahead, end - Date.now());
    },
  };
}

/**
 * How far a sum of a recording clock's waits may land past the window they fill. Its times are
 * epoch milliseconds (about 1.8e12), where a double resolves 2^-12 ms (0.00024); a wait cut to a
 * window's end is a difference of such times, each rounded, a few roundings per poll. Ten
 * microseconds bounds a dozen polls' worth, while a wait the SDK added on its own (a millisecond
 * or more) still fails.
 */
export const CLOCK_RESOLUTION_SLACK_MS = 0.01;

/**
 * Matches the wait the SDK chooses on its own (no Retry-After) before retry number `retry`
 * (0-based; also the n-th grace-window poll): the exponential backoff anywhere in its jitter.
 */
export function backoffBefore(retry: number): unknown {
  const least = exponentialBackoffMs(retry, () => 0);
  const most = exponentialBackoffMs(retry, () => 1);
  return expect.toSatisfy(
    (ms: unknown) => typeof ms === 'number' && ms >= least && ms <= most,
    `the backoff before retry ${retry + 1} (${least}-${most} ms)`,
  );
}
