/**
 * The shards of a `FileCoordination` folder and the rounds its operations run in. Writes take the
 * folder's one lock (`store.lock`, file-locks.ts): every operation this process queued meanwhile,
 * whatever its shard, is applied in order against what the shards hold, their records appended
 * (one write per shard touched); then the shards that got a record that must survive a power loss
 * (an `unresolved` outcome) are synced, once each, before any caller of that shard hears back
 * (group commit). A process under load therefore pays the lock and the sync once for many
 * operations. Rounds are applied while earlier rounds' syncs are under way, and a caller waits only
 * for the syncs of its own shard, so operations do not queue behind other shards' syncs
 * (docs/benchmarks.md, "Scale, round 3" and "Scale, round 4"). The lock is kept from round to round
 * (a taking lasts at most {@link HOLD_MS}), and between rounds too while this process holds create
 * leases (their next operations come within milliseconds); a process waiting for it leaves a
 * marker, and the holder gives the lock up for a moment when it finds one, looking every
 * {@link CHECK_MS} while busy and every {@link RETRY_MS} while idle. Reads take no lock: they read
 * what was appended since their last read, or, while this process holds the lock, what it last
 * read and wrote.
 */
import { join } from 'node:path';
import {
  acquireFileLock,
  type HeldLock,
  holdsLock,
  RETRY_MS,
  releaseFileLock,
  takeWaiterMark,
} from './file-locks.js';
import { type KeyState, type Shard, STALE_MUTEX_MS } from './file-shard.js';

/**
 * How long (ms) one taking of the folder's lock lasts at most, over consecutive rounds: then it
 * is given back and taken anew, so its link's age stays far below {@link STALE_MUTEX_MS} (when
 * other processes break it).
 */
const HOLD_MS = 1_000;
/**
 * How often (ms) a holder looks for a waiter's marker (one `unlink` that finds nothing when nobody
 * waits), and gives the lock up for a moment when it finds one: about the longest another process
 * waits for it while this one is busy.
 */
const CHECK_MS = 50;
/**
 * How long (ms) a holder that found a waiter's marker waits before taking the lock again: a few
 * polls of the waiter, so that it takes it first.
 */
const YIELD_MS = 4 * RETRY_MS;

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
  /**
   * The lock while this process holds it; since when, when it last looked for a waiter, and when
   * it last found the link its own (ms).
   */
  #held: { lock: HeldLock; since: number; checked: number; verified: number } | undefined;
  /** While the lock is kept with nothing queued: the next look for a waiter ({@link #holdIdle}). */
  #idle: ReturnType<typeof setTimeout> | undefined;
  /** The create leases this process holds (fence by key): while any, the lock is kept between rounds. */
  readonly #leases = new Map<string, number>();
  /** The lock being given back (off the event loop, beside the round's syncs). */
  #releasing: Promise<void> = Promise.resolve();
  /**
   * By shard: its last caller told (never rejects: a failed round or sync rejects its own callers).
   * Callers of one shard hear back in order, each after those of earlier rounds.
   */
  readonly #told = new Map<Shard, Promise<void>>();

  /** @param dir The folder (its lock is `store.lock` in it). */
  constructor(dir: string) {
    this.#lockPath = join(dir, 'store.lock');
  }

  /**
   * Notes a create lease this process took on `key` (call from within the round that grants it):
   * the lock is then kept between rounds, for the lease's next operations.
   */
  leaseTaken(key: string, fence: number): void {
    this.#leases.set(key, fence);
  }

  /**
   * Notes the lease on `key` given back (call from within the round that releases it, whatever it
   * writes): once this process holds no lease, the lock is given back as soon as nothing is queued.
   */
  leaseGiven(key: string, fence: number): void {
    if (this.#leases.get(key) === fence) this.#leases.delete(key);
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
        clearTimeout(this.#idle);
        this.#idle = undefined;
        void this.#drain();
      }
    });
  }

  /** Gives the lock back (off the event loop: {@link #releasing}), if this process holds it. */
  #release(): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    this.#releasing = releaseFileLock(held.lock);
  }

  /** Whether the lock is kept with nothing queued: leases held, and the taking's {@link HOLD_MS} not up. */
  #keeps(): boolean {
    const held = this.#held;
    return held !== undefined && this.#leases.size > 0 && performance.now() - held.since < HOLD_MS;
  }

  /**
   * Runs rounds while operations are queued; a round's syncs overlap the next rounds. The callers
   * of a shard hear back in round order, each once its round's sync of that shard (when the round
   * synced it) and every earlier round's are done, so a caller never acts on a record of its shard
   * that a power loss could take back; a caller of a shard that nothing synced meanwhile does not
   * wait for other shards' syncs (docs/benchmarks.md, "Scale, round 4"). The lock is kept from
   * round to round, a taking lasting at most {@link HOLD_MS} (far below {@link STALE_MUTEX_MS}); a
   * round that writes has found the link its own within {@link CHECK_MS}, checking again when the
   * last check is older. Every {@link CHECK_MS} the holder looks for a waiter's marker: when there
   * is one it gives the lock back and waits {@link YIELD_MS} before taking it again. With nothing
   * queued it is given back at once, before the last callers hear back, unless this process holds
   * create leases: then it is kept for their next operations, until a waiter leaves its marker
   * (looked for every {@link RETRY_MS}) or the taking's time is up ({@link #holdIdle}).
   */
  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      // What this turn of the event loop queues goes in the same round.
      await new Promise<void>((done) => setImmediate(done));
      const operations = this.#queue.splice(0);
      let settle: Array<() => void> = [];
      let durable: Shard[] = [];
      let failed: { error: unknown } | undefined;
      try {
        const now = performance.now();
        if (this.#held !== undefined && now - this.#held.checked >= CHECK_MS) {
          this.#held.checked = now;
          if (takeWaiterMark(this.#lockPath)) {
            // Another process waits: let it take the lock before this one takes it again.
            this.#release();
            await this.#releasing;
            await new Promise<void>((done) => setTimeout(done, YIELD_MS));
          } else if (now - this.#held.since >= HOLD_MS) this.#release();
        }
        if (this.#held === undefined && operations.some((operation) => operation.write)) {
          await this.#releasing;
          const lock = await acquireFileLock(this.#lockPath, STALE_MUTEX_MS, { announce: true });
          const since = performance.now();
          // Just made: its link is its own.
          this.#held = { lock, since, checked: since, verified: since };
        }
        const held = this.#held;
        if (held !== undefined) {
          try {
            [settle, durable] = await this.#round(operations, held.lock);
          } catch (error) {
            this.#release();
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
      const syncs = new Map<Shard, Promise<void>>();
      for (const shard of durable) {
        const sync = shard.sync();
        sync.catch(() => {});
        syncs.set(shard, sync);
      }
      // The lock is kept for what callers of earlier rounds queue while this round syncs; given
      // back when nothing is (and no lease of this process needs it next), and then this round's
      // callers hear back once it is: a call that returned holds nothing unless this process is
      // still busy with other operations or holds create leases.
      let released: Promise<void> | undefined;
      if (this.#held !== undefined && this.#queue.length === 0 && !this.#keeps()) {
        await Promise.all(syncs.values()).catch(() => {});
        if (this.#queue.length === 0 && !this.#keeps()) {
          this.#release();
          released = this.#releasing;
        }
      }
      operations.forEach((operation, index) => {
        const { shard } = operation;
        if (!failed && !syncs.has(shard) && released === undefined && !this.#told.has(shard)) {
          // Nothing of its shard is being synced, nobody of its shard waits: it hears back now.
          settle[index]?.();
          return;
        }
        const onDisk: Promise<unknown> = failed
          ? Promise.reject(failed.error)
          : Promise.all([syncs.get(shard), released]);
        const told = Promise.all([this.#told.get(shard), onDisk]).then(
          () => settle[index]?.(),
          (error: unknown) => operation.reject(error),
        );
        this.#told.set(shard, told);
        // Forgotten once told, unless a later round's caller of the shard is waiting behind it.
        void told.then(() => {
          if (this.#told.get(shard) === told) this.#told.delete(shard);
        });
      });
    }
    this.#running = false;
    if (this.#held !== undefined) this.#holdIdle();
  }

  /**
   * Keeps the lock with nothing queued, for the next operations of this process's leases (a
   * lookup or a request away): every {@link RETRY_MS} (a waiter's poll) it looks for a waiter's
   * marker, and gives the lock back when it finds one, when the taking's {@link HOLD_MS} are up, or
   * when this process no longer holds a lease. The next round stops it.
   */
  #holdIdle(): void {
    const poll = () => {
      this.#idle = undefined;
      const held = this.#held;
      if (this.#running || held === undefined) return;
      if (
        this.#leases.size === 0 ||
        performance.now() - held.since >= HOLD_MS ||
        takeWaiterMark(this.#lockPath)
      ) {
        this.#release();
        return;
      }
      this.#idle = setTimeout(poll, RETRY_MS);
    };
    this.#idle = setTimeout(poll, RETRY_MS);
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
    // A round of reads under a lock kept from an earlier round writes nothing and checks nothing.
    let writes = false;
    for (const { torn, changed } of touched.values()) writes ||= changed.size > 0 || torn !== undefined;
    // Checked at most every CHECK_MS: only a link older than STALE_MUTEX_MS (a taking lasts at most
    // HOLD_MS) is broken by others, so a check this recent stands but for a hand or a clock's jump.
    const held = this.#held;
    const now = performance.now();
    const verified = held !== undefined && held.lock === lock && now - held.verified < CHECK_MS;
    if (writes && !verified && !holdsLock(lock)) {
      // Held past STALE_MUTEX_MS and broken: another process may be writing; write nothing.
      throw new Error(
        `The lock ${this.#lockPath} was broken while this process held it (held longer than ${STALE_MUTEX_MS} ms); nothing was written.`,
      );
    }
    if (writes && held !== undefined && !verified) held.verified = now;
    const durable: Shard[] = [];
    for (const [shard, { torn, changed, durable: sync }] of touched) {
      await shard.commit(changed, torn, lock);
      if (sync) durable.push(shard);
      if (writes) await shard.compactIfDue();
    }
    return [settle, durable];
  }
}
