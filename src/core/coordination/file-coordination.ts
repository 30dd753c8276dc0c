/**
 * {@link Coordination} through a folder, for the processes of one machine (batch workers, a
 * cluster of Node processes, a cron job overlapping its last run). Node-only: the main entry
 * exports it, the runtime-neutral core never loads it.
 *
 * Keys (a hash of client id and correlation id) are spread over {@link SHARDS} shard files, each an
 * append-only file of one-line records with their own checksums, read incrementally and rewritten
 * when dead records dominate (file-shard.ts). Each key's record holds the newest lease's fence,
 * expiry and holder (host, pid, start time), and its outcome record. Writes run under the folder's
 * lock (file-locks.ts; kept between rounds while this process holds leases, file-store.ts); only
 * an `unresolved` outcome, recorded just before a create leaves, is synced to disk
 * (docs/reliability.md, "The coordination folder"). Leases and records are dated on the folder's
 * clock (file-clock.ts: the machine's monotonic clock from an epoch kept per boot), the same in
 * every process whatever its wall clock says. The folder's `format.json`
 * names its format; an earlier version's folder is migrated (file-format.ts). The token exchange
 * lock is a lock folder too, held for the exchange. A pause is a file every instance polls (a
 * quarter second, timer unref'd).
 *
 * A process killed with SIGKILL leaves its lease and locks behind. A waiter on the same host
 * checks whether their holder still runs, and takes over at once when it does not: a lease with
 * `takenOverFrom` naming the dead holder, whose outcome record stands. A holder that may run on
 * another host (or in another pid namespace, or before a reboot) is never judged: its lease lapses
 * at its expiry, a shard's lock after {@link STALE_MUTEX_MS}, the token lock after its ttl.
 */
import { join, resolve } from 'node:path';
import { INSPECT } from '../observability/inspect.js';
import { createLogger, type Logger } from '../observability/log.js';
import { nodeBuiltin } from '../transport/node-builtins.js';
import type { FileCoordinationOptions } from './command-line-state-types.js';
import type {
  Coordination,
  CreateLease,
  CreateOutcome,
  CreateOutcomeRecord,
  HeldCreateLease,
  LeaseHolder,
} from './coordination.js';
import { type FolderClock, folderClock } from './file-clock.js';
import { prepareFolder, SHARDS } from './file-format.js';
import { codeOf, holderIsGone, publicHolder, thisProcess } from './file-holders.js';
import { readHolderEntry, withFileLock } from './file-locks.js';
import { type KeyState, Shard, STALE_MUTEX_MS } from './file-shard.js';
import { type KeyChange, ShardStore } from './file-store.js';
import { correctsOwn } from './in-process-coordination.js';

/** How often (ms) each instance reads the pause file of a client id it listens to. */
const PAUSE_POLL_MS = 250;
/**
 * How long (ms) an operation waits on the folder before it says so: a round takes milliseconds,
 * so this is the folder's lock held by a process that is stopped or hangs (broken once
 * {@link STALE_MUTEX_MS} old), or a disk that does not answer.
 */
const SLOW_MS = 2_000;

/** The built-ins, loaded when a coordination first uses them, not at import (node-builtins.ts says why). */
const fs = () => nodeBuiltin('node:fs/promises');
const nodeCrypto = () => nodeBuiltin('node:crypto');
const os = () => nodeBuiltin('node:os');

/**
 * The key of (client id, correlation id), or of a client id: 40 hex digits of SHA-256. Made as a
 * string of its own (not a slice of the 64-digit digest, which would keep the digest alive as long
 * as a shard's index keeps the key).
 */
export function keyOf(...parts: string[]): string {
  return nodeCrypto().createHash('sha256').update(JSON.stringify(parts)).digest().toString('hex', 0, 20);
}

/** How many keys {@link FileCoordination} remembers (a create's next operations ask for its key again). */
const KEYS_REMEMBERED = 1_024;

/**
 * A key's state with every field, in the order a shard's reader builds it (file-shard.ts), so that
 * every state shares one shape: on Node 20 an object spread given keys its source lacks costs a
 * microsecond and a hidden class of its own (docs/benchmarks.md, "CPU per call, round 4").
 */
function keyState(
  fence: number,
  expiresAt: number,
  at: number,
  holder: KeyState['holder'],
  outcome: KeyState['outcome'],
): KeyState {
  return { fence, expiresAt, at, holder, outcome };
}

/** A key never written. */
const NO_STATE = (): KeyState => keyState(0, 0, 0, undefined, undefined);

/** The shard a key lives in: its first two hex digits, modulo {@link SHARDS}. */
export function shardNameOf(key: string): string {
  return `shard-${(Number.parseInt(key.slice(0, 2), 16) % SHARDS).toString(16).padStart(2, '0')}.log`;
}

/**
 * A small JSON file (a pause), read with synchronous calls: an open, a read and a close of a local
 * file take microseconds, less than three round trips through the thread pool (each poll of
 * {@link FileCoordination.onPause} made them).
 */
async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(nodeBuiltin('node:fs').readFileSync(path, 'utf8'));
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * The fence of a new lease: above the stored one, and never below the store's clock in
 * microseconds, so a record lost, garbled or pruned (read as fence 0) cannot hand out a fence an
 * earlier holder of the key still has: its late write is refused (docs/fault-model.md).
 */
function nextFence(stored: number, micros: number): number {
  return Math.max(stored + 1, micros);
}

/** The wall clock in microseconds (two leases taken in one millisecond get two fences). */
function wallMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/**
 * Coordination of the processes on one machine through files in one folder (default: a folder
 * in the OS temp directory). Give every process the same folder.
 *
 * ```ts
 * const client = new VerificationClient({ coordination: new FileCoordination('/var/run/myjob/coordination') });
 * ```
 */
export class FileCoordination implements Coordination {
  /** Absolute path of the folder holding the state files. */
  readonly dir: string;
  readonly #ready: Promise<unknown>;
  readonly #now: () => number;
  readonly #micros: () => number;
  /** The folder's clock for this boot (file-clock.ts), once ready; the wall clock where there is none. */
  #clock: FolderClock | undefined;
  readonly #shards = new Map<string, Shard>();
  readonly #store: ShardStore;
  readonly #logger: Logger;
  /** The keys of the correlation ids used last, by client id and correlation id (a hash each saved). */
  #keys = new Map<string, string>();

  /**
   * @param dir The shared folder (created with mode 0700 if missing).
   * @param options The store's clock.
   */
  constructor(
    dir: string = join(os().tmpdir(), 'applicant-verification-coordination'),
    options: FileCoordinationOptions = {},
  ) {
    if (typeof dir !== 'string' || dir.trim() === '')
      throw new TypeError('FileCoordination needs the path of a folder.');
    this.dir = resolve(dir);
    const now = options.now;
    this.#now = now ?? (() => (this.#clock ? this.#clock.now() : Date.now()));
    this.#micros = now ? () => now() * 1000 : () => (this.#clock ? this.#clock.micros() : wallMicros());
    this.#store = new ShardStore(this.dir);
    this.#logger = createLogger('warn', options.logger);
    this.#ready = prepareFolder(this.dir, (key, change) =>
      this.#store.update(this.#shard(key), key, change),
    ).then(async () => {
      // The store's clock, shared by the machine's processes, unless the caller gave one.
      if (!now) this.#clock = await folderClock(this.dir);
    });
    // Each method awaits it and fails with its error; unawaited until then, it must not crash Node.
    this.#ready.catch(() => {});
    closeWhenCollected.register(this, this.#shards);
  }

  #shard(key: string): Shard {
    const name = shardNameOf(key);
    let shard = this.#shards.get(name);
    if (!shard) {
      shard = new Shard(join(this.dir, name), this.#now);
      this.#shards.set(name, shard);
    }
    return shard;
  }

  /** {@link keyOf}`(clientId, correlationId)`, remembered for the last {@link KEYS_REMEMBERED} ids. */
  #keyOf(clientId: string, correlationId: string): string {
    const id = `${clientId}\n${correlationId}`;
    let key = this.#keys.get(id);
    if (key === undefined) {
      key = keyOf(clientId, correlationId);
      if (this.#keys.size >= KEYS_REMEMBERED) this.#keys = new Map();
      this.#keys.set(id, key);
    }
    return key;
  }

  async #update<T>(
    clientId: string,
    correlationId: string,
    change: (state: KeyState, key: string) => Promise<KeyChange<T>>,
  ): Promise<T> {
    await this.#ready;
    const key = this.#keyOf(clientId, correlationId);
    return this.#told(
      correlationId,
      this.#store.update(this.#shard(key), key, (state) => change(state ?? NO_STATE(), key)),
    );
  }

  async #read<T>(
    clientId: string,
    correlationId: string,
    answer: (state: KeyState) => Promise<T>,
  ): Promise<T> {
    await this.#ready;
    const key = this.#keyOf(clientId, correlationId);
    return this.#told(
      correlationId,
      this.#store.read(this.#shard(key), key, (state) => answer(state ?? NO_STATE())),
    );
  }

  /**
   * `operation`, saying once that it waits when it has not settled within {@link SLOW_MS}: what it
   * waits for (the folder's lock and its holder, or the disk) and until when.
   */
  async #told<T>(correlationId: string, operation: Promise<T>): Promise<T> {
    const timer = setTimeout(() => this.#tellWait(correlationId), SLOW_MS);
    timer.unref?.();
    try {
      return await operation;
    } finally {
      clearTimeout(timer);
    }
  }

  #tellWait(correlationId: string): void {
    const lock = join(this.dir, 'store.lock');
    const holder = readHolderEntry(lock);
    let taken: number | undefined;
    try {
      taken = nodeBuiltin('node:fs').lstatSync(lock).mtimeMs;
    } catch {
      taken = undefined;
    }
    const who =
      holder?.pid === process.pid && holder.host === os().hostname()
        ? 'this process (its own round under way: it was stopped, or the disk is slow)'
        : `process ${holder?.pid} on ${holder?.host} (stopped or busy)`;
    const what =
      holder && taken !== undefined
        ? `for its lock (${lock}), held by ${who}; it is broken at ${new Date(taken + STALE_MUTEX_MS).toISOString()} at the latest if not given back`
        : 'for the disk (the lock is not held: a write or a sync is slow)';
    this.#logger.warn(
      `FileCoordination (correlation_id "${correlationId}"): waiting ${SLOW_MS / 1000} s so far on the coordination folder ${this.dir}, ${what}; the create it serves waits meanwhile.`,
    );
  }

  /**
   * Takes the lease unless another holder has it and it has not expired. An unexpired lease whose
   * holder ran on this host and no longer runs is taken over at once: the new lease names it in
   * `takenOverFrom`, and the outcome it recorded stays.
   */
  acquireCreateLease(
    clientId: string,
    correlationId: string,
    ttlMs: number,
  ): Promise<CreateLease | undefined> {
    return this.#update(clientId, correlationId, async (state, key) => {
      const now = this.#now();
      let takenOverFrom: LeaseHolder | undefined;
      if (state.expiresAt > now) {
        if (state.holder === undefined || !(await holderIsGone(state.holder))) return { result: undefined };
        takenOverFrom = publicHolder(state.holder);
      }
      const holder = await thisProcess();
      const fence = nextFence(state.fence, this.#micros());
      const expiresAt = now + ttlMs;
      const lease: CreateLease = {
        clientId,
        correlationId,
        fence,
        expiresAt,
        ...(takenOverFrom && { takenOverFrom }),
      };
      // Its next operations come soon: the store keeps its lock for them (file-store.ts).
      this.#store.leaseTaken(key, fence);
      return { next: keyState(fence, expiresAt, now, holder, state.outcome), result: lease };
    });
  }

  /**
   * The unexpired lease on (clientId, correlationId) with its holder, or `undefined` when the key
   * is free: never taken, released, lapsed, or held by a process on this host that no longer runs
   * (the next {@link acquireCreateLease} takes it over).
   */
  describeCreateLease(clientId: string, correlationId: string): Promise<HeldCreateLease | undefined> {
    return this.#read(clientId, correlationId, async (state) => {
      if (state.expiresAt <= this.#now()) return undefined;
      if (state.holder === undefined) return { expiresAt: state.expiresAt };
      if (await holderIsGone(state.holder)) return undefined;
      return { expiresAt: state.expiresAt, holder: publicHolder(state.holder) };
    });
  }

  /** Gives the lease back when it is still the newest. */
  releaseCreateLease(lease: CreateLease): Promise<void> {
    return this.#update(lease.clientId, lease.correlationId, async (state, key) => {
      this.#store.leaseGiven(key, lease.fence);
      return state.fence === lease.fence && state.expiresAt !== 0
        ? { next: keyState(state.fence, 0, this.#now(), undefined, state.outcome), result: undefined }
        : { result: undefined };
    });
  }

  /** Extends the lease to `ttlMs` from now if it is still the newest on its key. */
  renewCreateLease(lease: CreateLease, ttlMs: number): Promise<CreateLease | undefined> {
    return this.#update(lease.clientId, lease.correlationId, async (state) => {
      if (state.fence !== lease.fence) return { result: undefined };
      const now = this.#now();
      const expiresAt = now + ttlMs;
      const holder = await thisProcess();
      return {
        next: keyState(state.fence, expiresAt, now, holder, state.outcome),
        result: { ...lease, expiresAt },
      };
    });
  }

  /**
   * Records the outcome unless a newer lease exists. An `unresolved` outcome is on disk (synced)
   * before this resolves: it is recorded just before a create leaves, and must survive a power loss.
   */
  recordCreateOutcome(lease: CreateLease, outcome: CreateOutcome): Promise<boolean> {
    return this.#update(lease.clientId, lease.correlationId, async (state) => {
      if (state.fence !== lease.fence && !correctsOwn(state.outcome, lease, outcome))
        return { result: false };
      const now = this.#now();
      // Object.assign, not a spread with new keys (Node 20's cliff: keyState above).
      const record: CreateOutcomeRecord = Object.assign({}, outcome, { fence: lease.fence, recordedAt: now });
      return {
        next: keyState(state.fence, state.expiresAt, now, state.holder, record),
        durable: outcome.state === 'unresolved',
        result: true,
      };
    });
  }

  /** The outcome last recorded, with its age on the store's clock (the one that dated it). */
  readCreateOutcome(clientId: string, correlationId: string): Promise<CreateOutcomeRecord | undefined> {
    return this.#read(clientId, correlationId, async ({ outcome }) =>
      outcome ? Object.assign({}, outcome, { ageMs: this.#now() - outcome.recordedAt }) : undefined,
    );
  }

  /**
   * Runs `exchange` while holding this client id's exchange lock (broken after `ttlMs`, or at once
   * when its holder on this host no longer runs).
   */
  async withTokenExchange<T>(clientId: string, ttlMs: number, exchange: () => Promise<T>): Promise<T> {
    await this.#ready;
    return withFileLock(join(this.dir, `token-${keyOf(clientId)}.lock`), ttlMs, exchange);
  }

  /** Writes the pause for every process of the client id; a later pause wins. */
  async publishPause(clientId: string, untilEpochMs: number): Promise<void> {
    await this.#ready;
    const path = join(this.dir, `pause-${keyOf(clientId)}.json`);
    await withFileLock(`${path}.lock`, STALE_MUTEX_MS, async () => {
      const current = await readJson(path);
      const until = typeof current === 'number' ? current : 0;
      if (untilEpochMs <= until) return;
      const temporary = `${path}.${process.pid}.${nodeCrypto().randomUUID()}.tmp`;
      try {
        await fs().writeFile(temporary, JSON.stringify(untilEpochMs), { mode: 0o600, flag: 'wx' });
        await fs().rename(temporary, path);
      } finally {
        await fs()
          .rm(temporary, { force: true })
          .catch(() => {});
      }
    });
  }

  /** Polls the pause file of the client id; calls `listener` with each new pause. */
  onPause(clientId: string, listener: (untilEpochMs: number) => void): () => void {
    const path = join(this.dir, `pause-${keyOf(clientId)}.json`);
    let seen = 0;
    let reading = false;
    const timer = setInterval(() => {
      if (reading) return;
      reading = true;
      readJson(path)
        .then((until) => {
          if (typeof until === 'number' && until > seen && until > Date.now()) {
            seen = until;
            listener(until);
          }
        })
        .catch(() => {})
        .finally(() => {
          reading = false;
        });
    }, PAUSE_POLL_MS);
    timer.unref?.();
    return () => clearInterval(timer);
  }

  /** @internal Shows the folder only. */
  [INSPECT](): string {
    return `FileCoordination { dir: '${this.dir}' }`;
  }

  /** @internal */
  toJSON(): Record<string, string> {
    return { dir: this.dir };
  }
}

/** The shard files an instance keeps open are closed once the instance is collected. */
const closeWhenCollected = new FinalizationRegistry<Map<string, Shard>>((shards) => {
  for (const shard of shards.values()) {
    if (shard.fd !== undefined) nodeBuiltin('node:fs').close(shard.fd, () => {});
  }
});
