/**
 * Time as the core sees it: `now()` for deadlines and `sleep()` for every wait it chooses (retry
 * backoff, the client-wide 429 pause, the create grace window, polling). One seam, so a test can
 * shorten the waits without touching the policy.
 */
import { abortError } from './call/abort.js';

/** A source of time and waits. */
export interface Clock {
  /** Milliseconds since the epoch, like `Date.now()`. */
  now(): number;
  /** Resolves after `ms`; rejects with the abort error as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal | null): Promise<void>;
}

/** Node's timers take at most 2^31 - 1 ms; longer waits are chained. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function sleepOnce(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves after `ms` real milliseconds, or rejects as soon as `signal` aborts. */
export async function realSleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  if (signal?.aborted) throw abortError(signal);
  for (let left = ms; left > 0; left -= MAX_TIMER_MS) await sleepOnce(Math.min(left, MAX_TIMER_MS), signal);
}

/** The wall clock and real timers. */
export const realClock: Clock = { now: () => Date.now(), sleep: realSleep };
