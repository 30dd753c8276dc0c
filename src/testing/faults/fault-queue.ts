/** The counted queue behind request faults and webhook faults: each entry affects its next `count` matches. */

/** One registration: its fault, what it applies to, and how many more it affects. */
export interface PendingEntry<F, M> {
  fault: F;
  match: M | undefined;
  remaining: number;
}

/** The queue's controls; `take` hands out the first pending fault whose entry `applies`. */
export interface FaultQueue<F, M> {
  next(count: number, fault: F, match?: M): void;
  clear(): void;
  pending(): PendingEntry<F, M>[];
  take(applies: (entry: PendingEntry<F, M>) => boolean): F | undefined;
}

/** An empty queue; `name` is the control named in a bad count's error (`faults`, `webhookFaults`). */
export function createFaultQueue<F, M>(name: string): FaultQueue<F, M> {
  const queue: PendingEntry<F, M>[] = [];
  return {
    next(count, fault, match) {
      if (!Number.isInteger(count) || count < 1)
        throw new RangeError(`${name}.next() needs a count >= 1, got ${count}`);
      queue.push({ fault, match, remaining: count });
    },
    clear() {
      queue.length = 0;
    },
    pending: () => queue.map((entry) => ({ ...entry })),
    take(applies) {
      const index = queue.findIndex(applies);
      const entry = queue[index];
      if (!entry) return undefined;
      entry.remaining -= 1;
      if (entry.remaining === 0) queue.splice(index, 1);
      return entry.fault;
    },
  };
}
