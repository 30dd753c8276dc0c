/**
 * The shards of a `FileCoordination` folder and the rounds its operations run in. Writes take the
 * folder's one lock (`store.lock`, file-locks.ts) once per round: every operation this process
 * queued meanwhile, whatever its shard, is applied in order against what the shards hold, their
 * records appended (one write per shard touched), and the lock given back; then the shards that
 * got a record that must survive a power loss (an `unresolved` outcome) are synced, once each,
 * before any caller of the round hears back (group commit). A process under load therefore pays
 * the lock and the sync once for many operations. Reads take no lock: they read what was appended
 * since their last read.
 */
import { join } from 'node:path';
import { acquireFileLock, holdsLock, releaseFileLock } from './file-locks.js';
import { type KeyState, type Shard, STALE_MUTEX_MS } from './file-shard.js';

/** What a change of a key returns: its next state (nothing written without one) and the caller's result. */
export interface KeyChange<T> {
  next?: KeyState | undefined;
  /** Synced before the caller hears back: this record must survive a power loss. */
  durable?: boolean | undefined;
  result: T;
}

interface Operation {
  shard: Shard;
  key: string;
  write: boolean;
  change: (state: KeyState | undefined) => Promise<KeyChange<unknown>>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The shards of one folder, as one process uses them. */
export class ShardStore {
  readonly #lockPath: string;
  readonly #queue: Operation[] = [];
  #running = false;
  /** The last round's lock being given back (off the event loop, beside the round's syncs). */
  #releasing: Promise<void> = Promise.resolve();

  /** @param dir The folder (its lock is `store.lock` in it). */
  constructor(dir: string) {
    this.#lockPath = join(dir, 'store.lock');
  }

  /** Reads `key`'s state in `shard` (no lock: what its last complete record says). */
  read<T>(shard: Shard, key: string, answer: (state: KeyState | undefined) => Promise<T>): Promise<T> {
    return this.#enqueue(shard, key, false, async (state) => ({ result: await answer(state) }));
  }

  /** Changes `key`'s state in `shard` under the folder's lock, in this process's next round. */
  update<T>(
    shard: Shard,
    key: string,
    change: (state: KeyState | undefined) => Promise<KeyChange<T>>,
  ): Promise<T> {
    return this.#enqueue(shard, key, true, change);
  }

  #enqueue<T>(
    shard: Shard,
    key: string,
    write: boolean,
    change: (state: KeyState | undefined) => Promise<KeyChange<T>>,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ shard, key, write, change, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#running) {
        this.#running = true;
        void this.#drain();
      }
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const operations = this.#queue.splice(0);
      try {
        let settle: Array<() => void>;
        let durable: Shard[] = [];
        if (operations.some((operation) => operation.write)) {
          await this.#releasing;
          const lock = await acquireFileLock(this.#lockPath, STALE_MUTEX_MS);
          try {
            [settle, durable] = await this.#round(operations, () => holdsLock(lock));
          } finally {
            this.#releasing = releaseFileLock(lock);
          }
        } else {
          for (const shard of new Set(operations.map((operation) => operation.shard)))
            await shard.refresh(false);
          [settle] = await this.#round(operations, undefined);
        }
        // Outside the lock: others may read a record before it is on disk, never a caller act on it.
        // A caller hears back once the lock is given back too: a call that returned holds nothing.
        await Promise.all([this.#releasing, ...durable.map((shard) => shard.sync())]);
        for (const done of settle) done();
      } catch (error) {
        for (const operation of operations) operation.reject(error);
      }
    }
    this.#running = false;
  }

  /**
   * Applies the operations in order; under the lock (`stillHeld` given), appends their records.
   * Returns what tells each caller, and the shards to sync before.
   */
  async #round(
    operations: Operation[],
    stillHeld: (() => boolean) | undefined,
  ): Promise<[Array<() => void>, Shard[]]> {
    const locked = stillHeld !== undefined;
    const touched = new Map<
      Shard,
      { torn: number | undefined; changed: Map<string, KeyState>; durable: boolean }
    >();
    if (locked) {
      for (const { shard } of operations) {
        if (!touched.has(shard)) {
          const { tornAt } = await shard.refresh(true);
          touched.set(shard, { torn: tornAt, changed: new Map(), durable: false });
        }
      }
    }
    const settle: Array<() => void> = [];
    for (const operation of operations) {
      const { shard, key } = operation;
      const refused = shard.refusal(key);
      if (refused) {
        settle.push(() => operation.reject(refused));
        continue;
      }
      const pending = touched.get(shard);
      try {
        const { next, durable, result } = await operation.change(
          pending?.changed.get(key) ?? shard.stateOf(key),
        );
        if (next && pending) {
          // Re-inserted: a key changed twice in a round is written once, after the keys before it.
          pending.changed.delete(key);
          pending.changed.set(key, next);
          pending.durable ||= durable === true;
        }
        settle.push(() => operation.resolve(result));
      } catch (error) {
        settle.push(() => operation.reject(error));
      }
    }
    if (!locked) return [settle, []];
    if (!(stillHeld as () => boolean)()) {
      // Held past STALE_MUTEX_MS and broken: another process may be writing; write nothing.
      throw new Error(
        `The lock ${this.#lockPath} was broken while this process held it (held longer than ${STALE_MUTEX_MS} ms); nothing was written.`,
      );
    }
    const durable: Shard[] = [];
    for (const [shard, { torn, changed, durable: sync }] of touched) {
      await shard.commit(changed, torn);
      if (sync) durable.push(shard);
      await shard.compactIfDue();
    }
    return [settle, durable];
  }
}
