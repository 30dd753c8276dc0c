/**
 * Client-side pacing for batch work: at most `maxConcurrency` requests in flight, and a shared
 * pause after a 429 so that every caller backs off together instead of hammering the API. A wait
 * here happens before anything is sent, so it is bounded by the attempt's time and reported as
 * {@link QueueTimeoutError}: the request provably never left.
 */
import { type Clock, realClock } from '../clock.js';

/** The attempt's time ran out while it waited for a slot or for a 429 pause to end. */
export class QueueTimeoutError extends Error {
  override name = 'QueueTimeoutError';
  /** Milliseconds it waited. */
  readonly waitedMs: number;

  /** @param waitedMs How long it waited before giving up. */
  constructor(waitedMs: number) {
    super(`Waited ${Math.round(waitedMs)} ms for a free slot or the end of a rate-limit pause.`);
    this.waitedMs = waitedMs;
  }
}

/** How long a task may wait to start, and what cancels the wait. */
export interface WaitLimits {
  signal?: AbortSignal | null | undefined;
  /** Milliseconds the task may wait before it starts; past them the run rejects with {@link QueueTimeoutError}. */
  maxWaitMs?: number | undefined;
}

/** Limits concurrent attempts and pauses them all after a rate limit. */
export class Limiter {
  readonly #max: number;
  readonly #clock: Clock;
  #active = 0;
  readonly #waiting: Array<() => void> = [];
  #pausedUntil = 0;

  /** `maxConcurrency` of `Infinity` means no limit. */
  constructor(maxConcurrency = Number.POSITIVE_INFINITY, clock: Clock = realClock) {
    this.#max = maxConcurrency;
    this.#clock = clock;
  }

  async #pauseOver(limits: WaitLimits, waitUntil: number, started: number): Promise<void> {
    // Time is counted as slept rather than re-read after each sleep, so a clock whose sleeps are
    // shortened (tests) does not turn one long pause into many short ones.
    let covered = this.#clock.now();
    for (let wait = this.#pausedUntil - covered; wait > 0; wait = this.#pausedUntil - covered) {
      const left = waitUntil - covered;
      if (wait > left) {
        // The pause outlasts this attempt's time: wait what is left, then give up unsent.
        await this.#clock.sleep(Math.max(0, left), limits.signal);
        throw new QueueTimeoutError(left + covered - started);
      }
      await this.#clock.sleep(wait, limits.signal);
      covered += wait;
    }
  }

  /** Holds every attempt back for `ms` from now (a later pause wins); callers cap `ms`. */
  pauseFor(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + ms);
  }

  /** Runs `task` when a slot is free and no pause is in force. */
  run<T>(task: () => Promise<T>, limits: WaitLimits = {}): Promise<T> {
    // An unlimited client outside a 429 pause has nothing to wait for: skip the bookkeeping.
    if (this.#max === Number.POSITIVE_INFINITY && this.#pausedUntil <= this.#clock.now()) return task();
    return this.#paced(task, limits);
  }

  #slot(limits: WaitLimits, waitUntil: number, started: number): Promise<void> {
    if (this.#active < this.#max) {
      this.#active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => give(limits.signal?.reason ?? new QueueTimeoutError(0));
      const grant = () => {
        clearTimeout(timer);
        limits.signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const give = (error: unknown) => {
        const index = this.#waiting.indexOf(grant);
        if (index !== -1) this.#waiting.splice(index, 1);
        clearTimeout(timer);
        limits.signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      this.#waiting.push(grant);
      const left = waitUntil - this.#clock.now();
      // Beyond a timer's range (2^31 ms) the wait is as good as unbounded.
      if (left < 2 ** 31 - 1) {
        timer = setTimeout(() => give(new QueueTimeoutError(this.#clock.now() - started)), Math.max(0, left));
      }
      limits.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async #paced<T>(task: () => Promise<T>, limits: WaitLimits): Promise<T> {
    const started = this.#clock.now();
    const waitUntil = started + (limits.maxWaitMs ?? Number.POSITIVE_INFINITY);
    await this.#pauseOver(limits, waitUntil, started);
    await this.#slot(limits, waitUntil, started);
    try {
      // A pause may have begun while this task queued for its slot.
      await this.#pauseOver(limits, waitUntil, started);
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active--;
    }
  }
}
