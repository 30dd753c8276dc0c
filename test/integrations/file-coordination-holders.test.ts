/**
 * FileCoordination's leases and locks name their holder, so that a process killed holding them
 * (SIGKILL) does not stop its rerun until they lapse: a waiter on the same host whose holder no
 * longer runs takes over at once. A dead holder is faked in process by rewriting the recorded pid
 * to that of a process that has exited; a live one is this process. The same with real processes
 * killed mid-create: test/seams/killed-holder.test.ts.
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  utimesSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyOf } from '../../src/core/coordination/file-coordination.js';
import { type KeyState, parseLine, recordLine } from '../../src/core/coordination/file-shard.js';
import { FileCoordination } from '../../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'av-holders-'));
  dirs.push(dir);
  return dir;
}

/** A pid no process has any more: that of a `node` that has exited. */
let deadPid: number;
beforeAll(() => {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('a child process expected');
  deadPid = child.pid;
});

const TEN_MINUTES = 10 * 60_000;

type Json = Record<string, unknown>;

/** The one shard file in `dir` (each test uses one key). */
function stateFile(dir: string): string {
  const names = readdirSync(dir).filter((name) => /^shard-[0-9a-f]{2}\.log$/.test(name));
  if (names.length !== 1) throw new Error(`one shard file expected in ${dir}, found ${names.join(', ')}`);
  return join(dir, names[0] ?? '');
}

/** The last record of the shard: its key and state. */
function lastRecord(dir: string): { key: string; state: KeyState } {
  const lines = readFileSync(stateFile(dir), 'latin1')
    .split('\n')
    .filter((line) => line !== '');
  const parsed = parseLine(lines.at(-1) ?? '');
  if (!('key' in parsed)) throw new Error(`a key record expected, got ${JSON.stringify(parsed)}`);
  return parsed;
}

function readState(dir: string): Json {
  return lastRecord(dir).state as unknown as Json;
}

/** Appends a record changing the recorded holder of the lease in `dir`; returns it as it was. */
function changeLeaseHolder(dir: string, change: Json): Json {
  const { key, state } = lastRecord(dir);
  const holder = state.holder as unknown as Json;
  appendFileSync(
    stateFile(dir),
    `${recordLine(key, { ...state, holder: { ...state.holder, ...change } as KeyState['holder'] })}\n`,
  );
  return holder;
}

function locksIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.lock'));
}

describe('FileCoordination: a create lease whose holder no longer runs', () => {
  it('is taken over at once, with a greater fence and takenOverFrom naming the dead holder', async () => {
    const dir = folder();
    const [dead, rerun, third] = [0, 1, 2].map(() => new FileCoordination(dir));
    const first = await dead?.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    if (!first) throw new Error('a lease expected');
    expect(first.takenOverFrom).toBeUndefined();
    const recorded = changeLeaseHolder(dir, { pid: deadPid });
    expect(recorded).toMatchObject({ host: hostname(), pid: process.pid });

    const second = await rerun?.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    expect(second?.fence).toBeGreaterThan(first.fence);
    expect(second?.takenOverFrom).toEqual({ host: hostname(), pid: deadPid, startedAt: recorded.startedAt });
    // The new holder runs: nobody takes the lease from it, and the dead one's fence is stale.
    expect(await third?.acquireCreateLease('client', 'unit-4B', TEN_MINUTES)).toBeUndefined();
    expect(await dead?.recordCreateOutcome(first, { state: 'created', id: 'g-late' })).toBe(false);
    expect(readState(dir).holder).toMatchObject({ host: hostname(), pid: process.pid });
  });

  it('keeps what the dead holder recorded: its unresolved create stays unresolved', async () => {
    const dir = folder();
    const [dead, rerun] = [new FileCoordination(dir), new FileCoordination(dir)];
    const first = await dead.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    if (!first) throw new Error('a lease expected');
    expect(await dead.recordCreateOutcome(first, { state: 'unresolved' })).toBe(true);
    const before = await rerun.readCreateOutcome('client', 'unit-4B');
    changeLeaseHolder(dir, { pid: deadPid });

    const second = await rerun.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    expect(second?.takenOverFrom?.pid).toBe(deadPid);
    expect(await rerun.readCreateOutcome('client', 'unit-4B')).toEqual({
      ...before,
      ageMs: expect.any(Number),
    });
    expect(before).toMatchObject({ state: 'unresolved', fence: first.fence });
  });

  it('a live holder (this process) keeps its lease', async () => {
    const dir = folder();
    const [holder, waiter] = [new FileCoordination(dir), new FileCoordination(dir)];
    const lease = await holder.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    expect(lease).toBeDefined();
    expect(await waiter.acquireCreateLease('client', 'unit-4B', TEN_MINUTES)).toBeUndefined();
    expect(readState(dir).fence).toBe(lease?.fence);
  });

  it('a holder on another host is never judged: its lease is waited for until it lapses', async () => {
    const dir = folder();
    const [holder, waiter] = [new FileCoordination(dir), new FileCoordination(dir)];
    const lease = await holder.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    // The pid is gone here, which says nothing about a process on another machine.
    changeLeaseHolder(dir, { host: 'batch-2.example.internal', pid: deadPid });
    expect(await waiter.acquireCreateLease('client', 'unit-4B', TEN_MINUTES)).toBeUndefined();
    expect(await waiter.describeCreateLease('client', 'unit-4B')).toMatchObject({
      expiresAt: lease?.expiresAt,
      holder: { host: 'batch-2.example.internal', pid: deadPid },
    });
  });

  it('a holder of another boot or pid namespace is not judged either', async () => {
    const dir = folder();
    const [holder, waiter] = [new FileCoordination(dir), new FileCoordination(dir)];
    await holder.acquireCreateLease('client', 'boot', TEN_MINUTES);
    changeLeaseHolder(dir, { pid: deadPid, boot: 'a0a0a0a0-0000-4000-8000-000000000000' });
    expect(await waiter.acquireCreateLease('client', 'boot', TEN_MINUTES)).toBeUndefined();
  });

  // /proc/<pid>/stat gives a process's start; elsewhere a pid that runs is taken for its holder.
  it.runIf(process.platform === 'linux')(
    'a reused pid (it runs, but started at another time than the holder) counts as gone',
    async () => {
      const dir = folder();
      const [holder, waiter] = [new FileCoordination(dir), new FileCoordination(dir)];
      await holder.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
      const recorded = readState(dir).holder as Json;
      expect(recorded.startTicks).toEqual(expect.any(Number));
      // This process's pid, as if a process that died holding the lease had had it before.
      changeLeaseHolder(dir, { startTicks: (recorded.startTicks as number) + 1 });
      const second = await waiter.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
      expect(second?.takenOverFrom).toEqual({
        host: hostname(),
        pid: process.pid,
        startedAt: recorded.startedAt,
      });
    },
  );

  it("a lease record torn by a kill does not reset the fence: the earlier holder's late write is refused", async () => {
    const dir = folder();
    const [holder, next] = [new FileCoordination(dir), new FileCoordination(dir)];
    const first = await holder.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    if (!first) throw new Error('a lease expected');
    // The power lost while the record was written: the shard ends in half of it.
    const size = readFileSync(stateFile(dir)).length;
    truncateSync(stateFile(dir), size - 40);
    const second = await next.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    expect(second?.fence).toBeGreaterThan(first.fence);
    expect(await holder.recordCreateOutcome(first, { state: 'created', id: 'g-late' })).toBe(false);
    expect(await holder.renewCreateLease(first, TEN_MINUTES)).toBeUndefined();
  });

  it('a lapsed lease is taken over as before, without takenOverFrom', async () => {
    const dir = folder();
    const [holder, waiter] = [new FileCoordination(dir), new FileCoordination(dir)];
    const first = await holder.acquireCreateLease('client', 'unit-4B', 0);
    changeLeaseHolder(dir, { pid: deadPid });
    const second = await waiter.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    expect(second?.fence).toBeGreaterThan(first?.fence ?? Number.POSITIVE_INFINITY);
    expect(second?.takenOverFrom).toBeUndefined();
  });
});

describe('FileCoordination.describeCreateLease', () => {
  it("tells the held lease's expiry and holder; undefined when free, released, lapsed or its holder is gone", async () => {
    const dir = folder();
    const [holder, waiter] = [new FileCoordination(dir), new FileCoordination(dir)];
    expect(await waiter.describeCreateLease('client', 'unit-4B')).toBeUndefined();

    const lease = await holder.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    if (!lease) throw new Error('a lease expected');
    const held = await waiter.describeCreateLease('client', 'unit-4B');
    expect(held).toEqual({
      expiresAt: lease.expiresAt,
      holder: { host: hostname(), pid: process.pid, startedAt: expect.any(Number) },
    });
    // The process's start, once per process: the same for every instance.
    expect(held?.holder?.startedAt).toBeLessThanOrEqual(Date.now());
    expect((await holder.describeCreateLease('client', 'unit-4B'))?.holder).toEqual(held?.holder);

    await holder.releaseCreateLease(lease);
    expect(await waiter.describeCreateLease('client', 'unit-4B')).toBeUndefined();

    await holder.acquireCreateLease('client', 'lapsed', 0);
    expect(await waiter.describeCreateLease('client', 'lapsed')).toBeUndefined();

    const other = folder();
    await new FileCoordination(other).acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    changeLeaseHolder(other, { pid: deadPid });
    expect(await new FileCoordination(other).describeCreateLease('client', 'unit-4B')).toBeUndefined();
  });
});

describe('FileCoordination: locks whose holder no longer runs', () => {
  it('the token-exchange lock of a dead holder is broken at once', async () => {
    const dir = folder();
    const [dead, rerun, later] = [0, 1, 2].map(() => new FileCoordination(dir));
    const order: string[] = [];
    // The first exchange holds the lock (ttl ten minutes) until the second has run: the second
    // can only run by breaking it, which it may do because the holder recorded is gone.
    const result = await dead?.withTokenExchange('client', TEN_MINUTES, async () => {
      const [lock] = locksIn(dir);
      if (!lock) throw new Error('the exchange lock expected');
      // The lock is a link whose target names its holder.
      const holder = JSON.parse(readlinkSync(join(dir, lock))) as Json;
      expect(holder).toMatchObject({ host: hostname(), pid: process.pid, token: expect.any(String) });
      unlinkSync(join(dir, lock));
      symlinkSync(JSON.stringify({ ...holder, pid: deadPid }), join(dir, lock));
      order.push('dead holder');
      return rerun?.withTokenExchange('client', TEN_MINUTES, async () => {
        order.push('rerun');
        return 'token';
      });
    });
    expect(result).toBe('token');
    expect(order).toEqual(['dead holder', 'rerun']);
    // The broken holder's release left the lock alone, and the rerun's freed it.
    expect(locksIn(dir)).toEqual([]);
    expect(await later?.withTokenExchange('client', TEN_MINUTES, async () => 'next')).toBe('next');
    expect(locksIn(dir)).toEqual([]);
  });

  it("the store's lock left by a dead holder is broken at once", async () => {
    const dir = folder();
    const coordination = new FileCoordination(dir);
    const lease = await coordination.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    if (!lease) throw new Error('a lease expected');
    await coordination.releaseCreateLease(lease);
    expect(readState(dir).holder).toBeUndefined();
    const holder = { ...(await holderRecord()), pid: deadPid };
    leaveLock(join(dir, 'store.lock'), holder, Date.now() + TEN_MINUTES);

    // Its age could never break it (its time is ten minutes ahead): only its holder's absence.
    const rerun = new FileCoordination(dir);
    const next = await rerun.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    if (!next) throw new Error('a lease expected');
    expect(next.fence).toBeGreaterThan(lease.fence);
    // A store keeps the lock while it holds leases: given back with the last one.
    await rerun.releaseCreateLease(next);
    expect(locksIn(dir)).toEqual([]);
  });

  it('a lock whose holder cannot be judged (another host) is broken by its age, as before', async () => {
    const dir = folder();
    const coordination = new FileCoordination(dir);
    const first = await coordination.acquireCreateLease('client', 'unit-4B', 0);
    if (!first) throw new Error('a lease expected');
    // The store keeps the lock while it holds leases: given back with the last one.
    await coordination.releaseCreateLease(first);
    const holder = { ...(await holderRecord()), host: 'batch-2.example.internal' };
    leaveLock(join(dir, 'store.lock'), holder, Date.now() - 60_000);
    const second = await coordination.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    if (!second) throw new Error('a lease expected');
    expect(second.fence).toBeGreaterThan(first.fence);
    await coordination.releaseCreateLease(second);
    expect(locksIn(dir)).toEqual([]);
  });

  it("an earlier version's lock folder (with or without its holder file) is broken by its age", async () => {
    const dir = folder();
    const coordination = new FileCoordination(dir);
    await coordination.withTokenExchange('client', TEN_MINUTES, async () => 'first');
    // The earlier version's token lock: a folder, left by a process killed right after mkdir.
    const lock = join(dir, `token-${keyOf('client')}.lock`);
    mkdirSync(lock);
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, minuteAgo, minuteAgo);
    expect(await coordination.withTokenExchange('client', 10_000, async () => 'token')).toBe('token');
    expect(locksIn(dir)).toEqual([]);
  });
});

/** This process's holder record, as a lease records it. */
async function holderRecord(): Promise<Json> {
  const dir = folder();
  await new FileCoordination(dir).acquireCreateLease('client', 'probe', TEN_MINUTES);
  return readState(dir).holder as Json;
}

/** A lock at `lock` as `holder` leaves it when killed (a link naming it), made at `mtimeMs`. */
function leaveLock(lock: string, holder: Json, mtimeMs: number): void {
  symlinkSync(JSON.stringify({ ...holder, token: 'killed' }), lock);
  lutimesSync(lock, new Date(mtimeMs), new Date(mtimeMs));
}
