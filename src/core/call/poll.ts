/**
 * Polling until a state settles: read, report each change, stop when settled, else wait on the
 * client's clock (so tests move the mock clock instead of sleeping).
 */
import type { Clock } from '../clock.js';

/** The shortest wait between two polls, in ms: a poll loop never hammers the API faster. */
export const MIN_POLL_INTERVAL_MS = 1_000;

/** Wait between two polls when the caller names none, in ms. */
const DEFAULT_POLL_INTERVAL_MS = 30_000;

/** What {@link pollUntilSettled} reads, compares and waits with. */
export interface PollPlan<T> {
  /** Reads the current state; a throw ends the poll with that error. */
  read(): Promise<T>;
  /** A label of the state: `onChange` is called whenever it differs from the previous poll's. */
  stateOf(value: T): string;
  /** Whether the state will change no more. */
  settled(value: T): boolean;
  /** Called with the value each time its state changes (the first read included). */
  onChange?: ((value: T) => void) | undefined;
  /** Milliseconds between polls; raised to {@link MIN_POLL_INTERVAL_MS}. Default 30 000. */
  intervalMs?: number | undefined;
  clock: Clock;
  /** Ends the wait between polls (and so the poll) when aborted. */
  signal?: AbortSignal | undefined;
}

/** Polls `plan.read` until `plan.settled` holds, and returns the settled value. */
export async function pollUntilSettled<T>(plan: PollPlan<T>): Promise<T> {
  const interval = Math.max(MIN_POLL_INTERVAL_MS, plan.intervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  let last: string | undefined;
  for (;;) {
    const current = await plan.read();
    const state = plan.stateOf(current);
    if (state !== last) plan.onChange?.(current);
    last = state;
    if (plan.settled(current)) return current;
    await plan.clock.sleep(interval, plan.signal);
  }
}
