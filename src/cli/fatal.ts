/**
 * Stopping a batch at the first error that no later item could escape: wrong credentials or a
 * missing permission fail every row the same way, and 300 token requests with a bad secret key
 * look like an attack to the service. Items not started then settle with that error.
 */
import { AuthenticationError, PermissionDeniedError } from '../core/errors.js';

/** Whether `error` dooms every other item of the batch too. */
export function isFatal(error: unknown): boolean {
  return error instanceof AuthenticationError || error instanceof PermissionDeniedError;
}

/** The stop signal of one batch: the run's own (SIGINT/SIGTERM) or the first fatal error. */
export class BatchStop {
  readonly #fatal = new AbortController();
  /** Aborted by the run's signal or by the first fatal error; pass it to `mapSettled`. */
  readonly signal: AbortSignal;

  constructor(runSignal: AbortSignal) {
    this.signal = AbortSignal.any([runSignal, this.#fatal.signal]);
  }

  /** The fatal error that stopped the batch, if one did. */
  get fatalError(): unknown {
    return this.#fatal.signal.aborted ? this.#fatal.signal.reason : undefined;
  }

  /** Runs `task`; a fatal failure stops the batch before it is rethrown. */
  async guard<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      if (isFatal(error) && !this.#fatal.signal.aborted) this.#fatal.abort(error);
      throw error;
    }
  }
}
