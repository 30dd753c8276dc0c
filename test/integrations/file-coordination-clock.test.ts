/**
 * FileCoordination's clock (docs/safe-creates.md, "Which clock"; docs/fault-model.md, "Clock
 * ahead"): the folder dates its leases and records on the machine's monotonic clock from an epoch
 * it keeps per boot, so an instance whose wall clock runs 11 minutes ahead or behind reads the
 * same ages and expiries as the others. Before, an `unresolved` create a second old read as 11
 * minutes old in a process whose clock ran ahead, and was sent again (`npm run test:chaos`, the
 * file gate's clock scenarios). Real files in temp folders; `Date.now` moved for the skewed
 * instance only while it runs, and restored. The folder's lock is aged on the monotonic clock too:
 * a process whose clock ran ahead broke every lock it met at once (its holder's round then failed).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireFileLock, holdsLock, releaseFileLock } from '../../src/core/coordination/file-locks.js';
import { CoordinationStateError, FileCoordination } from '../../src/index.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'av-clock-'));
  dirs.push(dir);
  return dir;
}

const MINUTES_11 = 11 * 60_000;

/** Runs `task` with this process's `Date.now` moved by `offsetMs`, as a machine whose clock is off. */
async function skewed<T>(offsetMs: number, task: () => Promise<T>): Promise<T> {
  const real = Date.now.bind(Date);
  const spy = vi.spyOn(Date, 'now').mockImplementation(() => real() + offsetMs);
  try {
    return await task();
  } finally {
    spy.mockRestore();
  }
}

// The boot id and the monotonic clock are Linux's; elsewhere the folder runs on the wall clock.
describe.runIf(process.platform === 'linux')('the file gate on a clock that is off', () => {
  it('an unresolved record a moment old reads a moment old in an instance 11 minutes ahead or behind', async () => {
    const dir = folder();
    const writer = new FileCoordination(dir);
    const lease = await writer.acquireCreateLease('client', 'household-1', 60_000);
    expect(lease).toBeDefined();
    if (!lease) return;
    expect(await writer.recordCreateOutcome(lease, { state: 'unresolved' })).toBe(true);

    for (const offset of [MINUTES_11, -MINUTES_11]) {
      const [read, held] = await skewed(offset, async () => {
        const reader = new FileCoordination(dir);
        return [
          await reader.readCreateOutcome('client', 'household-1'),
          await reader.acquireCreateLease('client', 'household-1', 60_000),
        ] as const;
      });
      expect(read?.state).toBe('unresolved');
      expect(read?.fence).toBe(lease.fence);
      // A moment old, not 11 minutes (nor less than nothing).
      expect(read?.ageMs).toBeGreaterThanOrEqual(0);
      expect(read?.ageMs).toBeLessThan(60_000);
      // The writer's lease has 60 s left on the folder's clock: still held, whatever this clock says.
      expect(held).toBeUndefined();
    }
  });

  it('a lease that lapsed is free to an instance 11 minutes behind', async () => {
    const dir = folder();
    const first = new FileCoordination(dir);
    const lease = await first.acquireCreateLease('client', 'household-2', 30);
    expect(lease).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const next = await skewed(-MINUTES_11, () =>
      new FileCoordination(dir).acquireCreateLease('client', 'household-2', 60_000),
    );
    expect(next?.fence).toBeGreaterThan(lease?.fence ?? Number.POSITIVE_INFINITY);
  });

  it('a lock taken a moment ago is not broken by a process whose clock runs 11 minutes ahead', async () => {
    const dir = folder();
    const path = join(dir, 'store.lock');
    const held = await acquireFileLock(path, 10_000);
    const second = skewed(MINUTES_11, async () => {
      const taken = acquireFileLock(path, 10_000);
      // Still waiting after a while: the lock is a moment old on the monotonic clock.
      const early = await Promise.race([taken.then(() => 'taken'), sleep(50).then(() => 'waiting')]);
      return { early, taken };
    });
    const { early, taken } = await second;
    expect(early).toBe('waiting');
    expect(holdsLock(held)).toBe(true);
    await releaseFileLock(held);
    const next = await taken;
    expect(holdsLock(next)).toBe(true);
    await releaseFileLock(next);
  });

  it('every instance of the boot reads one clock file; a garbled one refuses the folder, naming it', async () => {
    const dir = folder();
    await new FileCoordination(dir).readCreateOutcome('client', 'household-3');
    await skewed(MINUTES_11, () => new FileCoordination(dir).readCreateOutcome('client', 'household-3'));
    const clocks = readdirSync(dir).filter((name) => name.startsWith('clock-'));
    expect(clocks).toHaveLength(1);
    const path = join(dir, clocks[0] ?? '');
    // The epoch was set by the first instance (not moved by the second's clock).
    const { epochMs } = JSON.parse(readFileSync(path, 'utf8')) as { epochMs: number };
    const uptimeMs = Number(process.hrtime.bigint() / 1_000_000n);
    expect(Math.abs(epochMs + uptimeMs - Date.now())).toBeLessThan(60_000);

    writeFileSync(path, '{"clock":"x","epochMs":');
    const error = await new FileCoordination(dir)
      .acquireCreateLease('client', 'household-3', 60_000)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CoordinationStateError);
    expect((error as CoordinationStateError).path).toBe(path);
    expect((error as CoordinationStateError).message).toContain(`clock file ${path} cannot be read`);
  });
});
