/**
 * {@link Coordination} through a folder, for the processes of one machine (batch workers, a
 * cluster of Node processes, a cron job overlapping its last run). Node-only: the main entry
 * exports it, the runtime-neutral core never loads it.
 *
 * Each key (a hash of client id and correlation id) has a JSON state file holding the newest
 * lease's fence, expiry and holder (host, pid, start time), and its outcome record. Every
 * read-modify-write of a state file runs under a short mutex, a directory made with `mkdir`
 * (atomic on every local file system) holding a file that names its holder. Writes go to a
 * temporary file renamed over the old one, so a reader never sees half a record. The token
 * exchange lock is such a directory too, held for the exchange. A pause is a file every instance
 * polls (a quarter second, timer unref'd).
 *
 * A process killed with SIGKILL leaves its lease and locks behind. A waiter on the same host
 * checks whether their holder still runs, and takes over at once when it does not: a lease with
 * `takenOverFrom` naming the dead holder, whose outcome record stands. A holder that may run on
 * another host (or in another pid namespace, or before a reboot) is never judged: its lease lapses
 * at its expiry, a mutex after {@link STALE_MUTEX_MS}, the token lock after its ttl.
 */
import { join, resolve } from 'node:path';
import { INSPECT } from '../observability/inspect.js';
import { nodeBuiltin } from '../transport/node-builtins.js';
import type {
  Coordination,
  CreateLease,
  CreateOutcome,
  CreateOutcomeRecord,
  HeldCreateLease,
  LeaseHolder,
} from './coordination.js';
import { correctsOwn } from './in-process-coordination.js';

/**
 * A state-file mutex older than this (ms) is broken whoever holds it: its holder died where it
 * cannot be checked (another host), or hangs. A holder on this host that no longer runs is noticed
 * at once.
 */
export const STALE_MUTEX_MS = 10_000;
/** How often (ms) each instance reads the pause file of a client id it listens to. */
const PAUSE_POLL_MS = 250;
/** Wait between tries of a held mutex or lock (ms). */
const RETRY_MS = 5;
/** The file in a lock directory that names its holder: `holder-<token>.json`. */
const HOLDER_FILE = /^holder-[0-9a-f]{32}\.json$/;

/** The built-ins, loaded when a coordination first uses them, not at import (node-builtins.ts says why). */
const fs = () => nodeBuiltin('node:fs/promises');
const nodeCrypto = () => nodeBuiltin('node:crypto');
const os = () => nodeBuiltin('node:os');

/**
 * A holder as recorded: the public {@link LeaseHolder}, and on Linux what tells this host's
 * processes apart exactly. A pid is only compared within one boot and one pid namespace, and its
 * start in clock ticks since boot (field 22 of `/proc/<pid>/stat`, fixed for the process's life)
 * tells a reused pid from the holder without converting clocks: a wall-clock start time derived
 * from the boot time moves when the clock is stepped, and a live holder must never look dead.
 */
interface HolderRecord extends LeaseHolder {
  /** `/proc/sys/kernel/random/boot_id` when the holder recorded itself. */
  readonly boot?: string | undefined;
  /** The holder's pid namespace (`readlink /proc/self/ns/pid`). */
  readonly pidNs?: string | undefined;
  /** The holder's start, clock ticks since boot. */
  readonly startTicks?: number | undefined;
}

interface KeyState {
  fence: number;
  expiresAt: number;
  holder?: HolderRecord | undefined;
  outcome?: CreateOutcomeRecord | undefined;
}

function hashOf(...parts: string[]): string {
  return nodeCrypto().createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 40);
}

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

const pauseFor = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await fs().readFile(path, 'utf8'));
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

const LINUX = process.platform === 'linux';

/** A process's start in clock ticks since boot (Linux), or `undefined` when it cannot be read. */
async function startTicksOf(pid: number | 'self'): Promise<number | undefined> {
  if (!LINUX) return undefined;
  try {
    const text = await fs().readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command name, is in parentheses and may hold spaces or ')': count from the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (the state), so field 22 (starttime) is fields[19].
    const ticks = Number(fields[19]);
    return Number.isSafeInteger(ticks) && ticks >= 0 ? ticks : undefined;
  } catch {
    return undefined;
  }
}

let self: Promise<HolderRecord> | undefined;

/** This process as a holder, computed once. */
function thisProcess(): Promise<HolderRecord> {
  self ??= (async () => {
    const startedAt = Math.round(Date.now() - process.uptime() * 1000);
    if (!LINUX) return { host: os().hostname(), pid: process.pid, startedAt };
    const [boot, pidNs, startTicks] = await Promise.all([
      fs()
        .readFile('/proc/sys/kernel/random/boot_id', 'utf8')
        .then(
          (text) => text.trim() || undefined,
          () => undefined,
        ),
      fs()
        .readlink('/proc/self/ns/pid')
        .catch(() => undefined),
      startTicksOf('self'),
    ]);
    return { host: os().hostname(), pid: process.pid, startedAt, boot, pidNs, startTicks };
  })();
  return self;
}

function holderOf(value: unknown): HolderRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const { host, pid, startedAt, boot, pidNs, startTicks } = record;
  // A pid of 0 or below would name a process group to process.kill: never a holder.
  if (typeof host !== 'string' || !Number.isSafeInteger(pid) || (pid as number) <= 0) return undefined;
  if (typeof startedAt !== 'number' || !Number.isFinite(startedAt)) return undefined;
  return {
    host,
    pid: pid as number,
    startedAt,
    boot: typeof boot === 'string' ? boot : undefined,
    pidNs: typeof pidNs === 'string' ? pidNs : undefined,
    startTicks: Number.isSafeInteger(startTicks) ? (startTicks as number) : undefined,
  };
}

/** The holder as the {@link Coordination} interface tells it. */
function publicHolder({ host, pid, startedAt }: HolderRecord): LeaseHolder {
  return { host, pid, startedAt };
}

/**
 * `true` only when `holder` surely no longer runs: it ran on this host, in this boot and pid
 * namespace, and its pid is gone (ESRCH) or, on Linux, now belongs to a process started at
 * another time. Anything uncertain (another host, a pid of another user: EPERM, an unreadable
 * `/proc`) counts as running.
 */
async function holderIsGone(holder: HolderRecord): Promise<boolean> {
  const own = await thisProcess();
  if (holder.host !== own.host || holder.boot !== own.boot || holder.pidNs !== own.pidNs) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return codeOf(error) === 'ESRCH';
  }
  if (holder.startTicks === undefined) return false;
  const ticks = await startTicksOf(holder.pid);
  return ticks !== undefined && ticks !== holder.startTicks;
}

/**
 * The fence of a new lease: above the stored one, and never below this machine's clock in
 * microseconds, so a lease file lost or garbled (read as fence 0) cannot hand out a fence an
 * earlier holder of the key still has: its late write is refused (docs/fault-model.md).
 */
function nextFence(stored: number): number {
  return Math.max(stored + 1, Date.now() * 1000);
}

function isOutcome(value: unknown): value is CreateOutcomeRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.fence === 'number' &&
    typeof record.recordedAt === 'number' &&
    ((record.state === 'created' && typeof record.id === 'string') ||
      record.state === 'unresolved' ||
      record.state === 'refused')
  );
}

function stateOf(value: unknown): KeyState {
  if (typeof value !== 'object' || value === null) return { fence: 0, expiresAt: 0 };
  const record = value as Record<string, unknown>;
  return {
    fence: typeof record.fence === 'number' ? record.fence : 0,
    expiresAt: typeof record.expiresAt === 'number' ? record.expiresAt : 0,
    holder: holderOf(record.holder),
    outcome: isOutcome(record.outcome) ? record.outcome : undefined,
  };
}

/**
 * Breaks the lock directory `path` when its holder no longer runs or it is older than `staleMs`;
 * `true` when the caller should try to take it at once. Only the process that removes the
 * holder's file removes the directory, which is then empty: a lock taken meanwhile (a new
 * directory, with another holder's file) is never removed.
 */
async function breakAbandoned(path: string, staleMs: number): Promise<boolean> {
  // The age first: a holder's file written after this reading makes the directory non-empty.
  const age = await fs()
    .stat(path)
    .then(
      (info) => Date.now() - info.mtimeMs,
      () => undefined,
    );
  const names = await fs()
    .readdir(path)
    .catch(() => undefined);
  if (age === undefined || names === undefined) return true; // released meanwhile
  const name = names.find((entry) => HOLDER_FILE.test(entry));
  if (name === undefined) {
    // Just made, its holder still writing its file; or left by a process killed in between.
    if (age <= staleMs) return false;
    await fs()
      .rmdir(path)
      .catch(() => {});
    return true;
  }
  if (age <= staleMs) {
    const holder = holderOf(await readJson(join(path, name)).catch(() => undefined));
    if (holder === undefined || !(await holderIsGone(holder))) return false;
  }
  try {
    await fs().unlink(join(path, name));
  } catch {
    return true; // another waiter broke it first
  }
  await fs()
    .rmdir(path)
    .catch(() => {});
  return true;
}

/** Gives the lock back, unless it was broken meanwhile (then it may be another's by now). */
async function releaseLock(path: string, holderFile: string): Promise<void> {
  try {
    await fs().unlink(holderFile);
  } catch {
    return;
  }
  await fs()
    .rmdir(path)
    .catch(() => {});
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

  /** @param dir The shared folder (created with mode 0700 if missing). */
  constructor(dir: string = join(os().tmpdir(), 'applicant-verification-coordination')) {
    if (typeof dir !== 'string' || dir.trim() === '')
      throw new TypeError('FileCoordination needs the path of a folder.');
    this.dir = resolve(dir);
    this.#ready = fs().mkdir(this.dir, { recursive: true, mode: 0o700 });
    // Each method awaits it and fails with its error; unawaited until then, it must not crash Node.
    this.#ready.catch(() => {});
  }

  /** The key's files without their extension: `.json` the state, `.lock` its mutex. */
  #keyPath(clientId: string, correlationId: string): string {
    return join(this.dir, `create-${hashOf(clientId, correlationId)}`);
  }

  async #write(path: string, value: unknown): Promise<void> {
    const temporary = `${path}.${process.pid}.${nodeCrypto().randomUUID()}.tmp`;
    try {
      // Synced before the rename: after a power loss the file holds this record or the one before,
      // never an empty one that would read as no lease (docs/fault-model.md).
      await fs().writeFile(temporary, JSON.stringify(value), { mode: 0o600, flag: 'wx', flush: true });
      await fs().rename(temporary, path);
    } catch (error) {
      await fs()
        .rm(temporary, { force: true })
        .catch(() => {});
      throw error;
    }
  }

  /**
   * Holds the directory lock `path` while `task` runs. The directory holds `holder-<token>.json`,
   * naming this process, written just after `mkdir`; a lock whose holder no longer runs, or older
   * than `staleMs`, is broken.
   */
  async #locked<T>(path: string, staleMs: number, task: () => Promise<T>): Promise<T> {
    await this.#ready;
    const holder = await thisProcess();
    const holderFile = join(path, `holder-${nodeCrypto().randomUUID().replaceAll('-', '')}.json`);
    for (;;) {
      try {
        await fs().mkdir(path);
      } catch (error) {
        if (codeOf(error) !== 'EEXIST') throw error;
        if (!(await breakAbandoned(path, staleMs))) await pauseFor(RETRY_MS);
        continue;
      }
      try {
        await fs().writeFile(holderFile, JSON.stringify(holder), { mode: 0o600, flag: 'wx' });
        break;
      } catch (error) {
        // ENOENT: the fresh, still empty directory was broken as an old one (by age); try again.
        if (codeOf(error) !== 'ENOENT') {
          await releaseLock(path, holderFile);
          throw error;
        }
      }
    }
    try {
      return await task();
    } finally {
      await releaseLock(path, holderFile);
    }
  }

  async #update<T>(
    clientId: string,
    correlationId: string,
    change: (state: KeyState) => Promise<{ next?: KeyState; result: T }>,
  ): Promise<T> {
    const base = this.#keyPath(clientId, correlationId);
    return this.#locked(`${base}.lock`, STALE_MUTEX_MS, async () => {
      const { next, result } = await change(stateOf(await readJson(`${base}.json`)));
      if (next) await this.#write(`${base}.json`, next);
      return result;
    });
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
    return this.#update(clientId, correlationId, async (state) => {
      let takenOverFrom: LeaseHolder | undefined;
      if (state.expiresAt > Date.now()) {
        if (state.holder === undefined || !(await holderIsGone(state.holder))) return { result: undefined };
        takenOverFrom = publicHolder(state.holder);
      }
      const holder = await thisProcess();
      const fence = nextFence(state.fence);
      const expiresAt = Date.now() + ttlMs;
      const lease: CreateLease = {
        clientId,
        correlationId,
        fence,
        expiresAt,
        ...(takenOverFrom && { takenOverFrom }),
      };
      return { next: { ...state, fence, expiresAt, holder }, result: lease };
    });
  }

  /**
   * The unexpired lease on (clientId, correlationId) with its holder, or `undefined` when the key
   * is free: never taken, released, lapsed, or held by a process on this host that no longer runs
   * (the next {@link acquireCreateLease} takes it over).
   */
  async describeCreateLease(clientId: string, correlationId: string): Promise<HeldCreateLease | undefined> {
    await this.#ready;
    const state = stateOf(await readJson(`${this.#keyPath(clientId, correlationId)}.json`));
    if (state.expiresAt <= Date.now()) return undefined;
    if (state.holder === undefined) return { expiresAt: state.expiresAt };
    if (await holderIsGone(state.holder)) return undefined;
    return { expiresAt: state.expiresAt, holder: publicHolder(state.holder) };
  }

  /** Gives the lease back when it is still the newest. */
  releaseCreateLease(lease: CreateLease): Promise<void> {
    return this.#update(lease.clientId, lease.correlationId, async (state) =>
      state.fence === lease.fence
        ? { next: { ...state, expiresAt: 0, holder: undefined }, result: undefined }
        : { result: undefined },
    );
  }

  /** Extends the lease to `ttlMs` from now if it is still the newest on its key. */
  renewCreateLease(lease: CreateLease, ttlMs: number): Promise<CreateLease | undefined> {
    return this.#update(lease.clientId, lease.correlationId, async (state) => {
      if (state.fence !== lease.fence) return { result: undefined };
      const expiresAt = Date.now() + ttlMs;
      const holder = await thisProcess();
      return { next: { ...state, expiresAt, holder }, result: { ...lease, expiresAt } };
    });
  }

  /** Records the outcome unless a newer lease exists. */
  recordCreateOutcome(lease: CreateLease, outcome: CreateOutcome): Promise<boolean> {
    return this.#update(lease.clientId, lease.correlationId, async (state) => {
      if (state.fence !== lease.fence && !correctsOwn(state.outcome, lease, outcome))
        return { result: false };
      const record: CreateOutcomeRecord = { ...outcome, fence: lease.fence, recordedAt: Date.now() };
      return { next: { ...state, outcome: record }, result: true };
    });
  }

  /** The outcome last recorded, with its age on this machine's clock (the one that dated it). */
  async readCreateOutcome(clientId: string, correlationId: string): Promise<CreateOutcomeRecord | undefined> {
    await this.#ready;
    const outcome = stateOf(await readJson(`${this.#keyPath(clientId, correlationId)}.json`)).outcome;
    return outcome && { ...outcome, ageMs: Date.now() - outcome.recordedAt };
  }

  /**
   * Runs `exchange` while holding this client id's exchange lock (broken after `ttlMs`, or at once
   * when its holder on this host no longer runs).
   */
  withTokenExchange<T>(clientId: string, ttlMs: number, exchange: () => Promise<T>): Promise<T> {
    return this.#locked(join(this.dir, `token-${hashOf(clientId)}.lock`), ttlMs, exchange);
  }

  /** Writes the pause for every process of the client id; a later pause wins. */
  async publishPause(clientId: string, untilEpochMs: number): Promise<void> {
    const path = join(this.dir, `pause-${hashOf(clientId)}.json`);
    await this.#locked(`${path}.lock`, STALE_MUTEX_MS, async () => {
      const current = await readJson(path);
      const until = typeof current === 'number' ? current : 0;
      if (untilEpochMs > until) await this.#write(path, untilEpochMs);
    });
  }

  /** Polls the pause file of the client id; calls `listener` with each new pause. */
  onPause(clientId: string, listener: (untilEpochMs: number) => void): () => void {
    const path = join(this.dir, `pause-${hashOf(clientId)}.json`);
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
