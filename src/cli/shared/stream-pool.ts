/**
 * Work over items that arrive one at a time (households read from a file as it streams), a few at
 * once: the next item is read only when a slot is free, so what is held is bounded by the
 * concurrency, not by the number of items.
 */

/** Options of {@link eachConcurrently}. */
export interface StreamPoolOptions {
  /** Items in flight at once. */
  concurrency: number;
  /** Once aborted, no further item is read or started; those in flight finish. */
  signal: AbortSignal;
}

/**
 * Runs `task` over the items of `items` as they come, at most `concurrency` at a time. `task`
 * handles its own failures (one that throws is ignored here). An error reading `items` stops the
 * reading and is thrown once the tasks already started have settled.
 */
export async function eachConcurrently<T>(
  items: AsyncIterable<T>,
  task: (item: T) => Promise<void>,
  options: StreamPoolOptions,
): Promise<void> {
  const iterator = items[Symbol.asyncIterator]();
  let failure: { error: unknown } | undefined;
  let exhausted = false;
  const worker = async (): Promise<void> => {
    while (!exhausted && failure === undefined && !options.signal.aborted) {
      let next: IteratorResult<T>;
      try {
        next = await iterator.next();
      } catch (error) {
        failure ??= { error };
        return;
      }
      if (next.done) {
        exhausted = true;
        return;
      }
      await task(next.value).catch(() => {});
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  } finally {
    // Stopped early: close the reading (its file).
    if (!exhausted && failure === undefined) await iterator.return?.(undefined);
  }
  if (failure !== undefined) throw failure.error;
}
