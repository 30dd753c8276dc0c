/**
 * Graceful stop on SIGINT/SIGTERM: no new item starts, items in flight get a bounded time to
 * settle (so their outcome lands in the log), then their requests are aborted. Aborting a create
 * in flight is safe here: every create carries a correlation id, and the next run looks it up
 * before creating anything.
 */
import { setMaxListeners } from 'node:events';
import type { CliIO } from './io.js';
import type { Reporter } from './progress.js';

/** How long requests in flight may take to settle after a stop was asked for. */
export const GRACE_MS = 5_000;

/** The signal of requests in flight, and its release. */
export interface InFlight {
  /** Aborted {@link GRACE_MS} after the run's stop signal. */
  signal: AbortSignal;
  /** Removes the listener and the timer (call when the run ends). */
  dispose(): void;
}

/** Wires the grace period of one run. */
export function inFlight(io: CliIO, reporter: Reporter, graceMs = GRACE_MS): InFlight {
  const controller = new AbortController();
  // Every request of the batch (and each of its backoff waits) listens on this one signal: with
  // concurrency 16 that is past the default warning threshold of 10, and not a leak.
  setMaxListeners(0, controller.signal);
  let timer: NodeJS.Timeout | undefined;
  const onStop = () => {
    reporter.error(
      `Stopping: no new items start; waiting up to ${Math.round(graceMs / 1000)} s for requests in flight (signal again to quit at once).`,
    );
    timer = setTimeout(() => controller.abort(io.signal.reason), graceMs);
    timer.unref();
  };
  if (io.signal.aborted) onStop();
  else io.signal.addEventListener('abort', onStop, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      io.signal.removeEventListener('abort', onStop);
      if (timer) clearTimeout(timer);
    },
  };
}
