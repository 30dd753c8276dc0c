/**
 * The locks of `FileCoordination`: a symbolic link made at the lock's path (`symlink` fails when
 * the path exists, atomically, on every local file system) whose target is its holder's JSON with a
 * token of its own. Taking a lock is one call, giving it back two (`readlink` to check it is still
 * ours, `unlink`): a folder made and removed (`mkdir`, `rmdir`), as earlier versions did, costs ten
 * times more on ext4. A lock whose holder on this host no longer runs is broken at once, any other
 * after `staleMs`, its age read on the machine's monotonic clock when its taker ran in this boot and
 * pid namespace (the link records it), so a process whose wall clock runs ahead, or a clock stepped
 * while the lock is held, never breaks a lock taken a moment ago; else on its modification time
 * against the wall clock. A breaker moves the link to a name of its own before removing it and checks that
 * it moved the one it judged; one that moved a lock taken meanwhile puts it back. A holder checks
 * that its link is still there just before it writes ({@link holdsLock}).
 */
import { nodeBuiltin } from '../transport/node-builtins.js';
import { codeOf, type HolderRecord, holderIsGone, holderOf, thisProcess } from './file-holders.js';

/** Synchronous calls: metadata of a local folder, microseconds each, less than a thread-pool round trip. */
const fs = () => nodeBuiltin('node:fs');
const nodeCrypto = () => nodeBuiltin('node:crypto');

/** The entry in an earlier version's lock folder that names its holder. */
export const HOLDER_ENTRY = /^holder-[0-9a-f]{32}(?:\.json)?$/;
/** Wait between tries of a held lock (ms). */
export const RETRY_MS = 5;

const pauseFor = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** The machine's monotonic clock in ms (Linux: the same in every process of a boot). */
function monotonicMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}

/** When the lock whose link reads `text` was taken, on its taker's monotonic clock, if it says. */
function takenAtOf(text: string): number | undefined {
  try {
    const { mono } = JSON.parse(text) as { mono?: unknown };
    return typeof mono === 'number' && Number.isFinite(mono) ? mono : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A lock's age (ms): on the monotonic clock when its taker ran in this boot and pid namespace (its
 * monotonic clock is this process's), else its modification time against the wall clock.
 */
async function ageOf(text: string, modifiedAtMs: number): Promise<number> {
  const takenAt = takenAtOf(text);
  const holder = holderOfText(text);
  if (takenAt !== undefined && holder?.boot !== undefined) {
    const own = await thisProcess();
    if (holder.boot === own.boot && holder.pidNs === own.pidNs) return monotonicMs() - takenAt;
  }
  return Date.now() - modifiedAtMs;
}

/** The holder a lock's link (or an earlier version's holder file) names, if it names one. */
export function holderOfText(text: string): HolderRecord | undefined {
  try {
    return holderOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The holder an earlier version's holder file (or a link) names. */
export function readHolderEntry(path: string): HolderRecord | undefined {
  let text: string;
  try {
    text = fs().readlinkSync(path);
  } catch (error) {
    if (codeOf(error) !== 'EINVAL') return undefined;
    try {
      text = fs().readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  }
  return holderOfText(text);
}

/** A lock's target: its link's, or the text of the file made where links cannot be. */
function readLink(path: string): string | undefined {
  try {
    return fs().readlinkSync(path);
  } catch (error) {
    if (codeOf(error) !== 'EINVAL') return undefined;
    try {
      return fs().readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  }
}

/** Makes the lock at `path`, or throws EEXIST: a link, or a file made exclusively where links cannot be made. */
function makeLock(target: string, path: string): void {
  try {
    fs().symlinkSync(target, path);
  } catch (error) {
    const code = codeOf(error);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    fs().writeFileSync(path, target, { mode: 0o600, flag: 'wx' });
  }
}

/**
 * Breaks the lock at `path` when its holder no longer runs or it is older than `staleMs`; `true`
 * when the caller should try to take it at once.
 */
async function breakAbandoned(path: string, staleMs: number): Promise<boolean> {
  let info: import('node:fs').Stats;
  try {
    info = fs().lstatSync(path);
  } catch {
    return true; // released meanwhile
  }
  if (info.isDirectory()) {
    // An earlier version's lock folder: broken by its age only.
    if (Date.now() - info.mtimeMs <= staleMs) return false;
    fs().rmSync(path, { recursive: true, force: true });
    return true;
  }
  const judged = readLink(path);
  if (judged === undefined) return true;
  if ((await ageOf(judged, info.mtimeMs)) <= staleMs) {
    const holder = holderOfText(judged);
    if (holder === undefined || !(await holderIsGone(holder))) return false;
  }
  const moved = `${path}.broken-${nodeCrypto().randomUUID()}`;
  try {
    fs().renameSync(path, moved);
  } catch {
    return true; // another waiter broke it first
  }
  const target = readLink(moved);
  if (target !== undefined && target !== judged) {
    // A lock taken since it was judged: back where it was, unless a third took the path meanwhile
    // (its holder then finds its link gone before it writes).
    try {
      makeLock(target, path);
    } catch {
      // Taken: the moved holder's next check fails.
    }
  }
  try {
    fs().unlinkSync(moved);
  } catch {
    // Gone already.
  }
  return true;
}

/** The marker a process waiting for the lock at `path` leaves beside it (a link, or an empty file). */
function wantedPath(path: string): string {
  return `${path}.wanted`;
}

/** Leaves the marker saying a process waits for the lock at `path` (best effort: one call). */
function announceWaiter(path: string): void {
  try {
    makeLock('wanted', wantedPath(path));
  } catch {
    // There already (another waiter's), or it cannot be made: the holder gives the lock back on its own.
  }
}

/**
 * Whether a process announced it waits for the lock at `path` since the marker was last taken:
 * takes the marker away (one call: an `unlink` that finds nothing when nobody waits).
 */
export function takeWaiterMark(path: string): boolean {
  try {
    fs().unlinkSync(wantedPath(path));
    return true;
  } catch {
    return false;
  }
}

/** A lock held: its path and the link's target, for {@link holdsLock}. */
export interface HeldLock {
  readonly path: string;
  readonly target: string;
}

/** Whether `lock` is still held by its taker (nobody broke it): checked just before a write. */
export function holdsLock(lock: HeldLock): boolean {
  return readLink(lock.path) === lock.target;
}

/**
 * Takes the lock at `path`, breaking it when its holder no longer runs or it is older than
 * `staleMs`. Give it back with {@link releaseFileLock}. `announce`: while it waits, a marker beside
 * the lock (`<path>.wanted`) tells a holder that keeps the lock over many rounds to give it up
 * for a moment ({@link takeWaiterMark}); taken away once the lock is taken.
 */
export async function acquireFileLock(
  path: string,
  staleMs: number,
  { announce = false }: { announce?: boolean } = {},
): Promise<HeldLock> {
  const holder = await thisProcess();
  const target = JSON.stringify({ ...holder, token: nodeCrypto().randomUUID(), mono: monotonicMs() });
  let announced = false;
  for (;;) {
    try {
      makeLock(target, path);
      // Waited for, and got: the marker is no longer needed (another waiter leaves it again).
      if (announced) takeWaiterMark(path);
      return { path, target };
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw error;
      if (!(await breakAbandoned(path, staleMs))) {
        if (announce) {
          announceWaiter(path);
          announced = true;
        }
        await pauseFor(RETRY_MS);
      }
    }
  }
}

/**
 * Gives `lock` back unless it was broken meanwhile (then it may be another's by now). The removal
 * runs off the event loop: on ext4 an `unlink` can wait a millisecond and more for the journal
 * while another process syncs.
 */
export async function releaseFileLock(lock: HeldLock): Promise<void> {
  if (!holdsLock(lock)) return;
  await nodeBuiltin('node:fs/promises')
    .unlink(lock.path)
    .catch(() => {});
}

/**
 * Holds the lock at `path` while `task` runs; a lock whose holder no longer runs, or older than
 * `staleMs`, is broken. `announce`: see {@link acquireFileLock}.
 */
export async function withFileLock<T>(
  path: string,
  staleMs: number,
  task: (lock: HeldLock) => Promise<T>,
  options: { announce?: boolean } = {},
): Promise<T> {
  const lock = await acquireFileLock(path, staleMs, options);
  try {
    return await task(lock);
  } finally {
    await releaseFileLock(lock);
  }
}
