/**
 * The shards of a `FileCoordination` folder and the rounds its operations run in. Writes take the
 * folder's one lock (`store.lock`, file-locks.ts) once per round: every operation this process
 * queued meanwhile, whatever its shard, is applied in order against what the shards hold, their
 * records appended (one write per shard touched), and the lock given back; then the shards that
 * got a record that must survive a power loss (an `unresolved` outcome) are synced, once each,
 * before any caller of the round hears back (group commit). A process under load therefore pays
 * the lock and the sync once for many operations. The next round is applied while one round's
 * syncs are under way, under the lock kept for it (briefly), so operations do not queue behind a
 * sync nor pay a lock each (docs/benchmarks.md, "Scale, round 3"). Reads take no lock: they read
 * what was appended since their last read.
 */
import { join } from 'node:path';
import { acquireFileLock, type HeldLock, holdsLock, releaseFileLock } from './file-locks.js';
import { type KeyState, type Shard, STALE_MUTEX_MS } from './file-shard.js';

/**
 * How long (ms) a process keeps the folder's lock over consecutive rounds before giving it back
 * for others to take: taking and giving it back costs a link made and removed per round.
 */
const HOLD_MS = 50;

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
  /** The lock being given back (off the event loop, beside the round's syncs). */
  #releasing: Promise<void> = Promise.resolve();
  /** The last round's callers told (never rejects: a failed round rejects its own callers). */
  #settled: Promise<void> = Promise.resolve();
  /** The round before the last's callers told. */
  #settledBefore: Promise<void> = Promise.resolve();

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

  /**
   * Runs rounds while operations are queued. A round's syncs overlap the next round, never the one
   * after: at most two rounds are unsettled at once. Callers hear back in round order, each once
   * its own round's records and every earlier round's are on disk, so a caller never acts on a
   * record a power loss could take back. The lock is kept from round to round while operations
   * keep coming, for at most {@link HOLD_MS} (far below {@link STALE_MUTEX_MS}); each round checks
   * it still holds it before writing. It is given back after a round when nothing is queued.
   */
  async #drain(): Promise<void> {
    let held: { lock: HeldLock; since: number } | undefined;
    const release = () => {
      if (held === undefined) return;
      this.#releasing = releaseFileLock(held.lock);
      held = undefined;
    };
    while (this.#queue.length > 0) {
      // The round before the last must be settled: one round syncing while the next is applied.
      await this.#settledBefore;
      const operations = this.#queue.splice(0);
      let settle: Array<() => void> = [];
      let durable: Shard[] = [];
      let failed: { error: unknown } | undefined;
      try {
        if (operations.some((operation) => operation.write)) {
          if (held !== undefined && performance.now() - held.since >= HOLD_MS) release();
          if (held === undefined) {
            await this.#releasing;
            held = { lock: await acquireFileLock(this.#lockPath, STALE_MUTEX_MS), since: performance.now() };
          }
          const { lock } = held;
          try {
            [settle, durable] = await this.#round(operations, lock);
          } catch (error) {
            release();
            throw error;
          }
        } else {
          for (const shard of new Set(operations.map((operation) => operation.shard)))
            await shard.refresh(false);
          [settle] = await this.#round(operations, undefined);
        }
      } catch (error) {
        failed = { error };
      }
      // Outside the round: others may read a record before it is on disk, never a caller act on it.
      const synced = failed
        ? Promise.reject(failed.error)
        : Promise.all(durable.map((shard) => shard.sync()));
      synced.catch(() => {});
      // The lock is kept for what callers of earlier rounds queue while this round syncs; given
      // back when nothing is, and then this round's callers hear back once it is: a call that
      // returned holds nothing unless this process is still busy with other operations.
      if (held !== undefined && this.#queue.length === 0) {
        await synced.catch(() => {});
        if (this.#queue.length === 0) release();
      }
      const onDisk = Promise.all([held === undefined ? this.#releasing : undefined, synced]);
      this.#settledBefore = this.#settled;
      this.#settled = Promise.all([this.#settled, onDisk]).then(
        () => {
          for (const done of settle) done();
        },
        (error: unknown) => {
          for (const operation of operations) operation.reject(error);
        },
      );
    }
    this.#running = false;
  }

  /**
   * Applies the operations in order; under the lock (`lock` given), appends their records.
   * Returns what tells each caller, and the shards to sync before.
   */
  async #round(operations: Operation[], lock: HeldLock | undefined): Promise<[Array<() => void>, Shard[]]> {
    const locked = lock !== undefined;
    const touched = new Map<
      Shard,
      { torn: number | undefined; changed: Map<string, KeyState>; durable: boolean }
    >();
    if (locked) {
      for (const { shard } of operations) {
        if (!touched.has(shard)) {
          // Skipped while this process has held `lock` without a gap since its last round there.
          const { tornAt } = await shard.refreshUnder(lock);
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
    if (!holdsLock(lock)) {
      // Held past STALE_MUTEX_MS and broken: another process may be writing; write nothing.
      throw new Error(
        `The lock ${this.#lockPath} was broken while this process held it (held longer than ${STALE_MUTEX_MS} ms); nothing was written.`,
      );
    }
    const durable: Shard[] = [];
    for (const [shard, { torn, changed, durable: sync }] of touched) {
      await shard.commit(changed, torn, lock);
      if (sync) durable.push(shard);
      await shard.compactIfDue();
    }
    return [settle, durable];
  }
}
