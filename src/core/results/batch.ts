/**
 * Running many calls with bounded concurrency, keeping every outcome: one failure never
 * discards a sibling's result, and results come back in input order.
 */

/** The outcome of one item of a batch. */
export type Settled<T> =
  | {
      /** The item succeeded. */
      ok: true;
      /** Position of the item in the input. */
      index: number;
      /** What the task returned. */
      value: T;
    }
  | {
      /** The item failed. */
      ok: false;
      /** Position of the item in the input. */
      index: number;
      /** What the task threw (or the abort reason, for an item never started). */
      error: unknown;
    };

/** Progress of a batch, after each item. */
export interface BatchProgress {
  /** Items settled so far, failed ones included. */
  done: number;
  /** Items in the batch. */
  total: number;
  /** Items settled with an error so far. */
  failed: number;
}

/** Options of a batch (a resource's `createMany(bodies, options)`). */
export interface BatchOptions {
  /** Items in flight at once. Default 8. */
  concurrency?: number;
  /** Called after each item settles. */
  onProgress?: (progress: BatchProgress) => void;
  /** Stops starting new items once aborted; items not started settle with the abort reason. */
  signal?: AbortSignal;
}

/** Runs `task` over `items`, at most `concurrency` at a time, and settles every one. */
export async function mapSettled<I, T>(
  items: readonly I[],
  task: (item: I, index: number) => Promise<T>,
  options: BatchOptions = {},
): Promise<Settled<T>[]> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 8));
  const results: Settled<T>[] = new Array(items.length);
  const progress: BatchProgress = { done: 0, total: items.length, failed: 0 };
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      if (options.signal?.aborted) {
        results[index] = { ok: false, index, error: options.signal.reason };
      } else {
        try {
          results[index] = { ok: true, index, value: await task(items[index] as I, index) };
        } catch (error) {
          results[index] = { ok: false, index, error };
        }
      }
      progress.done++;
      if (!results[index]?.ok) progress.failed++;
      options.onProgress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
