/**
 * {@link Coordination} through a folder, for the processes of one machine (batch workers, a
 * cluster of Node processes, a cron job overlapping its last run). Node-only: the main entry
 * exports it, the runtime-neutral core never loads it.
 *
 * Each key (a hash of client id and correlation id) has a JSON state file holding the newest
 * lease's fence and expiry, and its outcome record. Every read-modify-write of a state file runs
 * under a short mutex, a directory made with `mkdir` (atomic on every local file system); a
 * mutex older than {@link STALE_MUTEX_MS} was left by a dead process and is broken. Writes go to a
 * temporary file renamed over the old one, so a reader never sees half a record. The token
 * exchange lock is a directory too, held for the exchange and broken after its ttl. A pause is a
 * file every instance polls (a quarter second, timer unref'd).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inspect } from 'node:util';
import type { Coordination, CreateLease, CreateOutcome, CreateOutcomeRecord } from './coordination.js';

/** A state-file mutex older than this (ms) was left by a process that died holding it. */
export const STALE_MUTEX_MS = 10_000;
/** How often (ms) each instance reads the pause file of a client id it listens to. */
const PAUSE_POLL_MS = 250;
/** Wait between tries of a held mutex or lock (ms). */
const RETRY_MS = 5;

interface KeyState {
  fence: number;
  expiresAt: number;
  outcome?: CreateOutcomeRecord | undefined;
}

function hashOf(...parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 40);
}

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

const pauseFor = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || error instanceof SyntaxError) return undefined;
    throw error;
  }
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
    outcome: isOutcome(record.outcome) ? record.outcome : undefined,
  };
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
  constructor(dir: string = join(tmpdir(), 'applicant-verification-coordination')) {
    if (typeof dir !== 'string' || dir.trim() === '')
      throw new TypeError('FileCoordination needs the path of a folder.');
    this.dir = resolve(dir);
    this.#ready = mkdir(this.dir, { recursive: true, mode: 0o700 });
    // Each method awaits it and fails with its error; unawaited until then, it must not crash Node.
    this.#ready.catch(() => {});
  }

  async #write(path: string, value: unknown): Promise<void> {
    const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify(value), { mode: 0o600, flag: 'wx' });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => {});
      throw error;
    }
  }

  /** Holds the directory lock `path` while `task` runs; a lock older than `staleMs` is broken. */
  async #locked<T>(path: string, staleMs: number, task: () => Promise<T>): Promise<T> {
    await this.#ready;
    for (;;) {
      try {
        await mkdir(path);
        break;
      } catch (error) {
        if (codeOf(error) !== 'EEXIST') throw error;
        const since = await stat(path).then(
          (info) => Date.now() - info.mtimeMs,
          () => 0,
        );
        if (since > staleMs) await rmdir(path).catch(() => {});
        else await pauseFor(RETRY_MS);
      }
    }
    try {
      return await task();
    } finally {
      await rmdir(path).catch(() => {});
    }
  }

  async #update<T>(
    clientId: string,
    correlationId: string,
    change: (state: KeyState) => { next?: KeyState; result: T },
  ): Promise<T> {
    const base = join(this.dir, `create-${hashOf(clientId, correlationId)}`);
    return this.#locked(`${base}.lock`, STALE_MUTEX_MS, async () => {
      const { next, result } = change(stateOf(await readJson(`${base}.json`)));
      if (next) await this.#write(`${base}.json`, next);
      return result;
    });
  }

  /** Takes the lease unless another holder has it and it has not expired. */
  acquireCreateLease(
    clientId: string,
    correlationId: string,
    ttlMs: number,
  ): Promise<CreateLease | undefined> {
    return this.#update(clientId, correlationId, (state) => {
      const now = Date.now();
      if (state.expiresAt > now) return { result: undefined };
      const lease = { clientId, correlationId, fence: state.fence + 1, expiresAt: now + ttlMs };
      return { next: { ...state, fence: lease.fence, expiresAt: lease.expiresAt }, result: lease };
    });
  }

  /** Gives the lease back when it is still the newest. */
  releaseCreateLease(lease: CreateLease): Promise<void> {
    return this.#update(lease.clientId, lease.correlationId, (state) =>
      state.fence === lease.fence
        ? { next: { ...state, expiresAt: 0 }, result: undefined }
        : { result: undefined },
    );
  }

  /** Records the outcome unless a newer lease exists. */
  recordCreateOutcome(lease: CreateLease, outcome: CreateOutcome): Promise<boolean> {
    return this.#update(lease.clientId, lease.correlationId, (state) => {
      if (state.fence !== lease.fence) return { result: false };
      const record: CreateOutcomeRecord = { ...outcome, fence: lease.fence, recordedAt: Date.now() };
      return { next: { ...state, outcome: record }, result: true };
    });
  }

  /** The outcome last recorded. */
  async readCreateOutcome(clientId: string, correlationId: string): Promise<CreateOutcomeRecord | undefined> {
    await this.#ready;
    const base = join(this.dir, `create-${hashOf(clientId, correlationId)}`);
    return stateOf(await readJson(`${base}.json`)).outcome;
  }

  /** Runs `exchange` while holding this client id's exchange lock (broken after `ttlMs`). */
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
  [inspect.custom](): string {
    return `FileCoordination { dir: '${this.dir}' }`;
  }

  /** @internal */
  toJSON(): Record<string, string> {
    return { dir: this.dir };
  }
}
