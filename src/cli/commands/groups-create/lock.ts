/**
 * One run per batch at a time. Two runs of the same file would both find a household missing and
 * both create it: everyone invited twice. The lock is a file created exclusively (`wx`: the
 * operating system lets exactly one creator win) holding the owner's pid; a lock whose process is
 * gone (a run killed with SIGKILL) is taken over with a warning.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { LockedError } from '../../errors.js';

interface LockContent {
  pid: number;
  host: string;
  started_at: string;
  token: string;
}

function parseLock(text: string): LockContent | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (
      typeof value === 'object' &&
      value !== null &&
      'pid' in value &&
      typeof value.pid === 'number' &&
      'host' in value &&
      typeof value.host === 'string' &&
      'started_at' in value &&
      typeof value.started_at === 'string' &&
      'token' in value &&
      typeof value.token === 'string'
    ) {
      return { pid: value.pid, host: value.host, started_at: value.started_at, token: value.token };
    }
  } catch {
    // Unreadable: handled by the caller as a lock of unknown owner.
  }
  return undefined;
}

// ESRCH: no such process. EPERM means it exists under another user: alive.
function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'ESRCH';
  }
}

/** A held lock; {@link BatchLock.release} removes it. */
export class BatchLock {
  readonly path: string;
  readonly #token: string;

  private constructor(path: string, token: string) {
    this.path = path;
    this.#token = token;
  }

  /**
   * Takes the lock at `path`. A lock of a process that no longer exists on this machine is taken
   * over (`warn` is told); any other existing lock throws {@link LockedError}.
   */
  static async acquire(path: string, warn: (message: string) => void): Promise<BatchLock> {
    const token = randomBytes(8).toString('hex');
    const content: LockContent = {
      pid: process.pid,
      host: hostname(),
      started_at: new Date().toISOString(),
      token,
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await writeFile(path, `${JSON.stringify(content)}\n`, { flag: 'wx', mode: 0o600 });
        return new BatchLock(path, token);
      } catch (error) {
        if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
      }
      const holder = parseLock(await readFile(path, 'utf8').catch(() => ''));
      const stale = holder !== undefined && holder.host === hostname() && processIsGone(holder.pid);
      if (!stale || attempt > 0) {
        const who = holder
          ? `process ${holder.pid} on ${holder.host}, since ${holder.started_at}`
          : 'an unknown process';
        throw new LockedError(
          `another run is working on this batch (${who}): wait for it to finish. If no such process is running, delete ${path}.`,
        );
      }
      // Another run may have taken the stale lock over since it was read: remove only that one.
      const again = parseLock(await readFile(path, 'utf8').catch(() => ''));
      if (again?.token !== holder.token) continue;
      warn(
        `warning: taking over the lock ${path} of process ${holder.pid} (started ${holder.started_at}), which no longer runs`,
      );
      await rm(path, { force: true });
    }
    throw new LockedError(`could not take the lock ${path}`);
  }

  /** Removes the lock, if it is still ours. */
  async release(): Promise<void> {
    const holder = parseLock(await readFile(this.path, 'utf8').catch(() => ''));
    if (holder?.token === this.#token) await rm(this.path, { force: true });
  }
}
