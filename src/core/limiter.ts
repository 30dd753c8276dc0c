/**
 * Client-side pacing for batch work: at most `maxConcurrency` requests in flight, and a shared
 * pause after a 429 so that every caller backs off together instead of hammering the API.
 */
import { sleep } from './sleep.js';

/** Limits concurrent attempts and pauses them all after a rate limit. */
export class Limiter {
  readonly #max: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];
  #pausedUntil = 0;

  /** `maxConcurrency` of `Infinity` means no limit. */
  constructor(maxConcurrency = Number.POSITIVE_INFINITY) {
    this.#max = maxConcurrency;
  }

  async #pauseOver(signal?: AbortSignal | null): Promise<void> {
    for (let wait = this.#pausedUntil - Date.now(); wait > 0; wait = this.#pausedUntil - Date.now()) {
      await sleep(wait, signal);
    }
  }

  /** Holds every attempt back for `ms` from now (a later pause wins). */
  pauseFor(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + ms);
  }

  /** Runs `task` when a slot is free and no pause is in force. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal | null): Promise<T> {
    // An unlimited client outside a 429 pause has nothing to wait for: skip the bookkeeping.
    if (this.#max === Number.POSITIVE_INFINITY && this.#pausedUntil <= Date.now()) return task();
    return this.#paced(task, signal);
  }

  async #paced<T>(task: () => Promise<T>, signal?: AbortSignal | null): Promise<T> {
    await this.#pauseOver(signal);
    if (this.#active >= this.#max) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#active++;
    try {
      // A pause may have begun while this task queued for its slot.
      await this.#pauseOver(signal);
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active--;
    }
  }
}
