/**
 * FileCoordination's rounds and its folder lock (docs/reliability.md, "The coordination folder"):
 * the lock kept from round to round while this process holds create leases, and given back with
 * the last one; another store waiting for it gets it while the holder is busy (its marker); a
 * caller waits for the syncs of its own shard, never for another shard's, and an `unresolved`
 * record's caller hears back only once it is on disk. Real files in temp folders; `fdatasync` is
 * held by the test where a sync under way matters.
 */
import { existsSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keyOf, shardNameOf } from '../../src/core/coordination/file-coordination.js';
import { FileCoordination } from '../../src/index.js';

const TEN_MINUTES = 10 * 60_000;
/** The `node:fs` object the store calls (the built-in itself, not an ES namespace). */
const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'av-rounds-'));
  dirs.push(dir);
  return dir;
}

/** The token of the lock's current taking (each taking names a token of its own), if it is held. */
function taking(dir: string): string | undefined {
  try {
    return (JSON.parse(readlinkSync(join(dir, 'store.lock'))) as { token: string }).token;
  } catch {
    return undefined;
  }
}

/** Correlation ids of `client`: two in one shard and one in another. */
function ids(): { same: [string, string]; other: string } {
  const shard = shardNameOf(keyOf('client', 'k-0'));
  let same = '';
  let other = '';
  for (let i = 1; same === '' || other === ''; i++) {
    const id = `k-${i}`;
    if (shardNameOf(keyOf('client', id)) === shard) same ||= id;
    else other ||= id;
  }
  return { same: ['k-0', same], other };
}

/** Holds every `fdatasync` until the test lets it go. */
function holdSyncs() {
  const original = fs.fdatasync;
  const held: Array<() => void> = [];
  vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, done: (error: Error | null) => void) => {
    held.push(() => original(fd, done));
  }) as typeof fs.fdatasync);
  return {
    get count() {
      return held.length;
    },
    releaseAll() {
      for (const go of held.splice(0)) go();
    },
  };
}

/** Whether `promise` has settled, after the event loop has turned a few times. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('FileCoordination: the lock kept while leases are held', () => {
  it('one taking serves the rounds of leases held at once; the last release gives it back before it returns', async () => {
    const dir = folder();
    const coordination = new FileCoordination(dir);
    const first = await coordination.acquireCreateLease('client', 'h-1', TEN_MINUTES);
    if (!first) throw new Error('a lease expected');
    const token = taking(dir);
    expect(token).toBeDefined();
    const second = await coordination.acquireCreateLease('client', 'h-2', TEN_MINUTES);
    if (!second) throw new Error('a lease expected');
    expect(await coordination.recordCreateOutcome(second, { state: 'unresolved' })).toBe(true);
    // Still the same taking: nothing queued between the calls, but leases held.
    expect(taking(dir)).toBe(token);
    await coordination.releaseCreateLease(first);
    expect(taking(dir)).toBe(token);
    await coordination.releaseCreateLease(second);
    // No lease left: given back before the last release returned.
    expect(existsSync(join(dir, 'store.lock'))).toBe(false);
    expect(await new FileCoordination(dir).readCreateOutcome('client', 'h-2')).toMatchObject({
      state: 'unresolved',
      fence: second.fence,
    });
  });

  it('another store writing while the holder is busy gets the lock (its marker), and leaves no marker behind', async () => {
    const dir = folder();
    const busy = new FileCoordination(dir);
    const other = new FileCoordination(dir);
    const held = await busy.acquireCreateLease('client', 'held', TEN_MINUTES);
    if (!held) throw new Error('a lease expected');
    let otherDone = false;
    const otherLease = other.acquireCreateLease('client', 'wanted', TEN_MINUTES).finally(() => {
      otherDone = true;
    });
    // The holder keeps working under its leases until the other store got in.
    let rounds = 0;
    while (!otherDone && rounds < 20_000) {
      const lease = await busy.acquireCreateLease('client', `busy-${rounds}`, TEN_MINUTES);
      if (!lease) throw new Error('a lease expected');
      await busy.releaseCreateLease(lease);
      rounds++;
    }
    expect(otherDone).toBe(true);
    expect(rounds).toBeLessThan(20_000);
    const taken = await otherLease;
    if (!taken) throw new Error('the other store expected to take its lease');
    await other.releaseCreateLease(taken);
    await busy.releaseCreateLease(held);
    expect(existsSync(join(dir, 'store.lock'))).toBe(false);
    expect(existsSync(join(dir, 'store.lock.wanted'))).toBe(false);
  });
});

describe("FileCoordination: a caller waits for its own shard's syncs only", () => {
  it("an unresolved record's caller hears back once it is synced; a caller of another shard does not wait for it, one of the same shard does", async () => {
    const dir = folder();
    const coordination = new FileCoordination(dir);
    const { same, other } = ids();
    // Made first: a shard file made in a round has its folder synced too.
    for (const id of [...same, other]) {
      const lease = await coordination.acquireCreateLease('client', id, TEN_MINUTES);
      if (!lease) throw new Error('a lease expected');
      expect(await coordination.recordCreateOutcome(lease, { state: 'unresolved' })).toBe(true);
      expect(await coordination.recordCreateOutcome(lease, { state: 'created', id: `g-${id}` })).toBe(true);
      await coordination.releaseCreateLease(lease);
    }
    const syncs = holdSyncs();
    const lease = await coordination.acquireCreateLease('client', same[0], TEN_MINUTES);
    if (!lease) throw new Error('a lease expected');
    const unresolved = coordination.recordCreateOutcome(lease, { state: 'unresolved' });
    // Not before its record is on disk: its shard's fdatasync is held.
    expect(await settled(unresolved)).toBe(false);
    expect(syncs.count).toBe(1);
    // Another shard's caller goes on meanwhile; the same shard's caller waits behind the sync.
    const otherShard = coordination.acquireCreateLease('client', other, TEN_MINUTES);
    const sameShard = coordination.readCreateOutcome('client', same[1]);
    expect(await settled(otherShard)).toBe(true);
    expect(await otherShard).toMatchObject({ correlationId: other });
    expect(await settled(sameShard)).toBe(false);
    syncs.releaseAll();
    expect(await unresolved).toBe(true);
    expect(await sameShard).toMatchObject({ state: 'created', id: `g-${same[1]}` });
    expect(syncs.count).toBe(0);
  });
});
