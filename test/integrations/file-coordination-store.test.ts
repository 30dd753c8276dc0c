/**
 * FileCoordination's store on disk: a format marker, keys in 64 append-only shard files with a
 * checksum per line, a torn last line tolerated, a damaged line refusing the keys it may concern,
 * an earlier version's folder (a file per key) migrated or refused, and the disk bounded and
 * pruned. Real files in temp folders; the store's clock is a fake one where time matters.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keyOf, shardNameOf } from '../../src/core/coordination/file-coordination.js';
import { type KeyState, parseLine, RECENT_KEYS, Shard } from '../../src/core/coordination/file-shard.js';
import { ShardStore } from '../../src/core/coordination/file-store.js';
import { CoordinationStateError, FileCoordination } from '../../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'av-store-'));
  dirs.push(dir);
  return dir;
}

const TEN_MINUTES = 10 * 60_000;
const HOUR = 60 * 60_000;

/** A clock a test moves by hand. */
function fakeClock(start = Date.UTC(2026, 11, 7, 12)): { now: () => number; advance(ms: number): void } {
  let at = start;
  return {
    now: () => at,
    advance(ms) {
      at += ms;
    },
  };
}

/** Correlation ids of client `client` whose keys fall in one shard, and one in another. */
function sameShard(count: number): { ids: string[]; shard: string; elsewhere: string } {
  const ids: string[] = [];
  const shard = shardNameOf(keyOf('client', 'h-0'));
  let elsewhere = '';
  for (let i = 0; ids.length < count || elsewhere === ''; i++) {
    const id = `h-${i}`;
    if (shardNameOf(keyOf('client', id)) === shard) {
      if (ids.length < count) ids.push(id);
    } else if (elsewhere === '') elsewhere = id;
  }
  return { ids, shard, elsewhere };
}

/** One household as createOnce leaves it: leased, renewed, unresolved, created, released. */
async function household(coordination: FileCoordination, id: string): Promise<void> {
  const lease = await coordination.acquireCreateLease('client', id, TEN_MINUTES);
  if (!lease) throw new Error(`a lease on ${id} expected`);
  const renewed = await coordination.renewCreateLease(lease, TEN_MINUTES);
  if (!renewed) throw new Error('the renewal expected');
  expect(await coordination.recordCreateOutcome(renewed, { state: 'unresolved' })).toBe(true);
  expect(await coordination.recordCreateOutcome(renewed, { state: 'created', id: `g-${id}` })).toBe(true);
  await coordination.releaseCreateLease(renewed);
}

/** What the folder holds: its entries, and the bytes and distinct keys of its shards. */
function onDisk(dir: string): { entries: string[]; bytes: number; keys: Set<string> } {
  const entries = readdirSync(dir).sort();
  let bytes = 0;
  const keys = new Set<string>();
  for (const name of entries) {
    // The lock (kept a few milliseconds while a lease is held) may be gone since readdir.
    if (name === 'store.lock') continue;
    bytes += statSync(join(dir, name)).size;
    if (!name.endsWith('.log')) continue;
    for (const line of readFileSync(join(dir, name), 'latin1').split('\n')) {
      const parsed = line === '' ? undefined : parseLine(line);
      if (parsed && 'key' in parsed) keys.add(parsed.key);
    }
  }
  return { entries, bytes, keys };
}

describe('FileCoordination: the folder', () => {
  it('records its format, and keeps every key in one of 64 shard files', async () => {
    const dir = folder();
    const coordination = new FileCoordination(dir);
    await household(coordination, 'unit-4B');
    expect(JSON.parse(readFileSync(join(dir, 'format.json'), 'utf8'))).toEqual({
      store: 'applicant-verification/file-coordination',
      version: 2,
      shards: 64,
    });
    // Beside them, the folder's clock for this boot (Linux: file-clock.ts).
    const names = readdirSync(dir).sort();
    const clock = /^clock-[0-9a-f]{16}\.json$/;
    expect(names.filter((name) => !clock.test(name))).toEqual([
      'format.json',
      shardNameOf(keyOf('client', 'unit-4B')),
    ]);
    expect(names.filter((name) => clock.test(name))).toHaveLength(process.platform === 'linux' ? 1 : 0);
    expect(await new FileCoordination(dir).readCreateOutcome('client', 'unit-4B')).toMatchObject({
      state: 'created',
      id: 'g-unit-4B',
    });
  });

  it('a folder written by a newer version is refused, naming it', async () => {
    const dir = folder();
    writeFileSync(
      join(dir, 'format.json'),
      JSON.stringify({ store: 'applicant-verification/file-coordination', version: 3, shards: 64 }),
    );
    const refused = await new FileCoordination(dir)
      .acquireCreateLease('client', 'unit-4B', TEN_MINUTES)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CoordinationStateError);
    expect(refused).toMatchObject({ path: join(dir, 'format.json'), line: undefined });
    expect((refused as Error).message).toContain(
      'written by a newer version of applicant-verification (format 3',
    );
    expect(readdirSync(dir)).toEqual(['format.json']);
  });

  it('a garbled marker is refused, never rewritten', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'format.json'), '{"store":"applicant-veri');
    const refused = await new FileCoordination(dir)
      .readCreateOutcome('client', 'unit-4B')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CoordinationStateError);
    expect((refused as Error).message).toContain(`marker ${join(dir, 'format.json')} cannot be read`);
    expect(readFileSync(join(dir, 'format.json'), 'utf8')).toBe('{"store":"applicant-veri');
  });
});

/** A key's file name as the earlier version (a file per key) named it. */
function oldName(clientId: string, correlationId: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([clientId, correlationId]))
    .digest('hex')
    .slice(0, 40);
  return `create-${hash}`;
}

describe('FileCoordination: a folder of the earlier version (a file per key)', () => {
  it('is migrated: fences, holders and outcomes kept (an old unresolved still holds), the old files removed', async () => {
    const dir = folder();
    const now = Date.now();
    const holder = { host: 'batch-2.example.internal', pid: 4242, startedAt: now - 60_000 };
    // As the earlier version wrote them: JSON.stringify of { fence, expiresAt, holder, outcome }.
    writeFileSync(
      join(dir, `${oldName('client', 'held')}.json`),
      JSON.stringify({ fence: now * 1000, expiresAt: now + TEN_MINUTES, holder }),
    );
    writeFileSync(
      join(dir, `${oldName('client', 'unresolved')}.json`),
      JSON.stringify({
        fence: now * 1000 - 5,
        expiresAt: 0,
        outcome: { state: 'unresolved', fence: now * 1000 - 5, recordedAt: now - 60_000 },
      }),
    );
    writeFileSync(
      join(dir, `${oldName('client', 'created')}.json`),
      JSON.stringify({
        fence: 17,
        expiresAt: 0,
        outcome: { state: 'created', id: 'g-17', fence: 17, recordedAt: now - 120_000 },
      }),
    );
    // A mutex its holder left a minute ago (killed, or of another host).
    const lock = join(dir, `${oldName('client', 'created')}.lock`);
    mkdirSync(lock);
    writeFileSync(
      join(lock, `holder-${'0'.repeat(31)}1.json`),
      JSON.stringify({ host: 'batch-2.example.internal', pid: 4242, startedAt: now }),
    );
    utimesSync(lock, new Date(now - 60_000), new Date(now - 60_000));

    const coordination = new FileCoordination(dir);
    expect(await coordination.describeCreateLease('client', 'held')).toEqual({
      expiresAt: now + TEN_MINUTES,
      holder,
    });
    expect(await coordination.acquireCreateLease('client', 'held', TEN_MINUTES)).toBeUndefined();
    expect(await coordination.readCreateOutcome('client', 'unresolved')).toEqual({
      state: 'unresolved',
      fence: now * 1000 - 5,
      recordedAt: now - 60_000,
      ageMs: expect.any(Number),
    });
    expect(await coordination.readCreateOutcome('client', 'created')).toMatchObject({
      state: 'created',
      id: 'g-17',
    });
    const next = await coordination.acquireCreateLease('client', 'unresolved', TEN_MINUTES);
    expect(next?.fence).toBeGreaterThan(now * 1000 - 5);
    // The old files are gone; the marker says the format.
    expect(readdirSync(dir).filter((name) => name.startsWith('create-'))).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, 'format.json'), 'utf8'))).toMatchObject({ version: 2 });
  });

  it('an old file that cannot be read is taken as an unresolved create dated at its last change', async () => {
    const dir = folder();
    const path = join(dir, `${oldName('client', 'garbled')}.json`);
    writeFileSync(path, '{"fence": 1, "expi');
    const changed = statSync(path).mtimeMs;
    const outcome = await new FileCoordination(dir).readCreateOutcome('client', 'garbled');
    expect(outcome).toMatchObject({ state: 'unresolved', recordedAt: changed });
  });

  it("is refused while a process of the earlier version works in it (a key's mutex held by a live process)", async () => {
    const dir = folder();
    const lock = join(dir, `${oldName('client', 'busy')}.lock`);
    mkdirSync(lock);
    writeFileSync(
      join(lock, `holder-${'0'.repeat(31)}1.json`),
      JSON.stringify({ host: hostname(), pid: process.pid, startedAt: Date.now() - 1_000 }),
    );
    writeFileSync(join(dir, `${oldName('client', 'busy')}.json`), JSON.stringify({ fence: 3, expiresAt: 0 }));
    const refused = await new FileCoordination(dir)
      .acquireCreateLease('client', 'other', TEN_MINUTES)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CoordinationStateError);
    expect((refused as Error).message).toContain(
      `in use by an earlier version of applicant-verification (process ${process.pid} on ${hostname()}`,
    );
    // Nothing moved, nothing removed.
    expect(readdirSync(dir).sort()).toEqual([
      `${oldName('client', 'busy')}.json`,
      `${oldName('client', 'busy')}.lock`,
    ]);
  });
});

describe('FileCoordination: lines that cannot be trusted', () => {
  it('a torn last line (a kill mid-write) is tolerated and acknowledged; the records before it stand', async () => {
    const dir = folder();
    const coordination = new FileCoordination(dir);
    const lease = await coordination.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
    if (!lease) throw new Error('a lease expected');
    await coordination.recordCreateOutcome(lease, { state: 'unresolved' });
    const shard = join(dir, shardNameOf(keyOf('client', 'unit-4B')));
    // A third record, cut off: what a process killed while writing it leaves.
    const before = readFileSync(shard, 'latin1');
    writeFileSync(shard, `${before}{"k":"${keyOf('client', 'unit-4B')}","f":9`, 'latin1');
    const rerun = new FileCoordination(dir);
    expect(await rerun.readCreateOutcome('client', 'unit-4B')).toMatchObject({
      state: 'unresolved',
      fence: lease.fence,
    });
    await rerun.releaseCreateLease(lease);
    const lines = readFileSync(shard, 'latin1').split('\n');
    expect(lines[2]).toBe(`{"k":"${keyOf('client', 'unit-4B')}","f":9`);
    // The next writer ended it and named it (its byte offset) as torn.
    expect(parseLine(lines[3] ?? '')).toEqual({ torn: before.length });
    expect(parseLine(lines[4] ?? '')).toMatchObject({
      key: keyOf('client', 'unit-4B'),
      state: { expiresAt: 0 },
    });
    // Later readers, from the first byte, find no damage.
    expect(
      await new FileCoordination(dir).acquireCreateLease('client', 'unit-4B', TEN_MINUTES),
    ).toMatchObject({
      fence: expect.any(Number),
    });
  });

  it('a damaged line naming its key refuses that key alone, with the file and line; other keys of the shard go on', async () => {
    const dir = folder();
    const { ids } = sameShard(2);
    const [damaged = '', neighbour = ''] = ids;
    const coordination = new FileCoordination(dir);
    await household(coordination, damaged);
    const shard = join(dir, shardNameOf(keyOf('client', damaged)));
    const lines = readFileSync(shard, 'latin1').split('\n');
    // Line 4 (the `created` record) changed after it was written: one digit of its fence.
    lines[3] = (lines[3] ?? '').replace(
      /"f":(\d)/,
      (_all, digit: string) => `"f":${(Number(digit) + 1) % 10}`,
    );
    writeFileSync(shard, lines.join('\n'), 'latin1');

    const rerun = new FileCoordination(dir);
    for (const call of [
      () => rerun.readCreateOutcome('client', damaged),
      () => rerun.acquireCreateLease('client', damaged, TEN_MINUTES),
    ]) {
      const refused = await call().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(CoordinationStateError);
      expect(refused).toMatchObject({ path: shard, line: 4 });
      expect((refused as Error).message).toContain(
        `The coordination file ${shard} is damaged at line 4: its checksum does not match its text`,
      );
      expect((refused as Error).message).toContain('its key, so no create is sent for them');
    }
    await household(rerun, neighbour);
    expect(await rerun.readCreateOutcome('client', neighbour)).toMatchObject({ state: 'created' });
  });

  it('a damaged line whose key text was changed (one hex digit) refuses every key of its shard, its own among them', async () => {
    const dir = folder();
    const { ids } = sameShard(2);
    const [own = '', neighbour = ''] = ids;
    const coordination = new FileCoordination(dir);
    await household(coordination, neighbour);
    await household(coordination, own);
    const key = keyOf('client', own);
    const shard = join(dir, shardNameOf(key));
    const lines = readFileSync(shard, 'latin1').split('\n');
    // Its `created` record (its lease's release follows), the last digit of its key changed: still
    // 40 hex digits, naming a key the shard has never held.
    const at = lastLineOf(lines, key) - 1;
    expect(lines[at]).toContain('"state":"created"');
    const last = key.at(-1) === '0' ? '1' : '0';
    lines[at] = (lines[at] ?? '').replace(`"k":"${key}"`, `"k":"${key.slice(0, -1)}${last}"`);
    writeFileSync(shard, lines.join('\n'), 'latin1');

    const rerun = new FileCoordination(dir);
    for (const id of [own, neighbour]) {
      const refused = await rerun.readCreateOutcome('client', id).catch((error: unknown) => error);
      expect(refused).toMatchObject({ name: 'CoordinationStateError', path: shard, line: at + 1 });
      expect((refused as Error).message).toContain('a key it cannot name, so every household of this shard');
    }
  });

  it('a damaged line that no longer names its key refuses every key of its shard; other shards go on', async () => {
    const dir = folder();
    const { ids, elsewhere } = sameShard(2);
    const [first = '', second = ''] = ids;
    const coordination = new FileCoordination(dir);
    await household(coordination, first);
    const shard = join(dir, shardNameOf(keyOf('client', first)));
    const lines = readFileSync(shard, 'latin1').split('\n');
    lines[1] = `#garbled#${(lines[1] ?? '').slice(20)}`;
    writeFileSync(shard, lines.join('\n'), 'latin1');

    const rerun = new FileCoordination(dir);
    const refused = await rerun
      .acquireCreateLease('client', second, TEN_MINUTES)
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'CoordinationStateError', path: shard, line: 2 });
    expect((refused as Error).message).toContain('a key it cannot name, so every household of this shard');
    // Nothing was appended to the damaged shard.
    expect(readFileSync(shard, 'latin1').split('\n')).toEqual(lines);
    await household(rerun, elsewhere);
  });
});

describe('FileCoordination: the disk it uses', () => {
  it('after 200 households: the marker and at most 64 shard files, a few hundred bytes a household; keys older than an hour are pruned', async () => {
    const dir = folder();
    const clock = fakeClock();
    const [one, two] = [new FileCoordination(dir, clock), new FileCoordination(dir, clock)];
    const first = Array.from({ length: 200 }, (_, i) => `first-${i}`);
    await Promise.all(first.map((id, i) => household(i % 2 === 0 ? one : two, id)));
    const after = onDisk(dir);
    expect(after.entries[0]).toBe('format.json');
    expect(after.entries.length).toBeLessThanOrEqual(65);
    expect(after.entries.slice(1).every((name) => /^shard-[0-9a-f]{2}\.log$/.test(name))).toBe(true);
    expect(after.keys.size).toBe(200);
    // Five records a household were written; rewrites keep the shards near one record a key.
    expect(after.bytes).toBeLessThan(200 * 5 * 400);
    expect(after.bytes / 200).toBeGreaterThan(200);

    // An hour and more later, new households: the old keys are dropped as their shards are rewritten.
    clock.advance(HOUR + 11 * 60_000);
    const second = Array.from({ length: 200 }, (_, i) => `second-${i}`);
    await Promise.all(second.map((id, i) => household(i % 2 === 0 ? one : two, id)));
    const later = onDisk(dir);
    const firstKeys = first.map((id) => keyOf('client', id));
    const kept = firstKeys.filter((key) => later.keys.has(key));
    expect(kept.length).toBeLessThan(20);
    expect(second.every((id) => later.keys.has(keyOf('client', id)))).toBe(true);
    expect(await one.readCreateOutcome('client', 'second-7')).toMatchObject({
      state: 'created',
      id: 'g-second-7',
    });
    expect(later.entries.length).toBeLessThanOrEqual(65);
  });

  it('calls queued while earlier rounds sync: each record is in the files when its call returns, in order per key; the lock is gone after the last', async () => {
    const dir = folder();
    const coordination = new FileCoordination(dir);
    const ids = Array.from({ length: 48 }, (_, i) => `queued-${i}`);
    const events: string[] = [];
    await Promise.all(
      ids.map(async (id) => {
        const lease = await coordination.acquireCreateLease('client', id, TEN_MINUTES);
        if (!lease) throw new Error(`a lease on ${id} expected`);
        expect(await coordination.recordCreateOutcome(lease, { state: 'unresolved' })).toBe(true);
        // Another process reading the folder now finds it: written before the call returned.
        expect(await new FileCoordination(dir).readCreateOutcome('client', id)).toMatchObject({
          state: 'unresolved',
          fence: lease.fence,
        });
        events.push(`${id} unresolved`);
        expect(await coordination.recordCreateOutcome(lease, { state: 'created', id: `g-${id}` })).toBe(true);
        events.push(`${id} created`);
        await coordination.releaseCreateLease(lease);
      }),
    );
    expect(existsSync(join(dir, 'store.lock'))).toBe(false);
    for (const id of ids) {
      expect(events.indexOf(`${id} unresolved`)).toBeLessThan(events.indexOf(`${id} created`));
      expect(await new FileCoordination(dir).readCreateOutcome('client', id)).toMatchObject({
        state: 'created',
        id: `g-${id}`,
      });
      expect(await new FileCoordination(dir).describeCreateLease('client', id)).toBeUndefined();
    }
    expect(onDisk(dir).keys.size).toBe(48);
  });

  it('a store that gave its lock back reads what another wrote meanwhile before its next write', async () => {
    const dir = folder();
    const first = new FileCoordination(dir);
    const second = new FileCoordination(dir);
    const lease = await first.acquireCreateLease('client', 'h-1', TEN_MINUTES);
    if (!lease) throw new Error('a lease expected');
    await first.releaseCreateLease(lease);
    expect(existsSync(join(dir, 'store.lock'))).toBe(false);
    const taken = await second.acquireCreateLease('client', 'h-1', TEN_MINUTES);
    if (!taken) throw new Error('the second store expected to take the released lease');
    expect(taken.fence).toBeGreaterThan(lease.fence);
    expect(await second.recordCreateOutcome(taken, { state: 'unresolved' })).toBe(true);
    // The first store's next round is under a new taking of the lock: it reads the second's records.
    expect(await first.acquireCreateLease('client', 'h-1', TEN_MINUTES)).toBeUndefined();
    expect(await first.recordCreateOutcome(lease, { state: 'created', id: 'g-1' })).toBe(false);
    expect(await new FileCoordination(dir).readCreateOutcome('client', 'h-1')).toMatchObject({
      state: 'unresolved',
      fence: taken.fence,
    });
  });

  it('a key whose lease is held is never pruned, however old its record', async () => {
    const dir = folder();
    const clock = fakeClock();
    const coordination = new FileCoordination(dir, clock);
    const { ids } = sameShard(61);
    const [held = '', ...others] = ids;
    const lease = await coordination.acquireCreateLease('client', held, 3 * HOUR);
    if (!lease) throw new Error('a lease expected');
    clock.advance(2 * HOUR);
    // Enough households in its shard to rewrite it more than once.
    for (const id of others) await household(coordination, id);
    expect(onDisk(dir).keys.has(keyOf('client', held))).toBe(true);
    expect(
      await new FileCoordination(dir, clock).acquireCreateLease('client', held, TEN_MINUTES),
    ).toBeUndefined();
  });
});

/** The 0-based index of the last line of `lines` that records `key`. */
function lastLineOf(lines: readonly string[], key: string): number {
  let found = -1;
  lines.forEach((line, index) => {
    if (line.startsWith(`{"k":"${key}"`)) found = index;
  });
  return found;
}

/** `line` with one digit of its fence changed: same length, its checksum no longer matching. */
function oneDigitChanged(line: string): string {
  return line.replace(/"f":(\d)/, (_all, digit: string) => `"f":${(Number(digit) + 1) % 10}`);
}

describe('FileCoordination: what a process holds in memory', () => {
  it(`a shard keeps an offset per key and the parsed states of the last ${RECENT_KEYS} keys used; the others are read back from the file`, async () => {
    const dir = folder();
    const clock = fakeClock();
    const store = new ShardStore(dir);
    const path = join(dir, 'shard-00.log');
    const shard = new Shard(path, clock.now);
    const keys = Array.from({ length: RECENT_KEYS + 8 }, (_, i) => keyOf('client', `k-${i}`));
    const written = new Map<string, KeyState>();
    for (const [i, key] of keys.entries()) {
      const state: KeyState = {
        fence: 1_000_000 + i,
        expiresAt: i % 2 === 0 ? 0 : clock.now() + TEN_MINUTES,
        at: clock.now(),
        holder: { host: 'worker-7', pid: 4242, startedAt: 1_700_000_000_000 + i },
        outcome: { state: 'created', id: `g-${i}`, fence: 1_000_000 + i, recordedAt: clock.now() - i },
      };
      written.set(key, state);
      await store.update(shard, key, async () => ({ next: state, result: undefined }));
      clock.advance(1);
    }
    expect(shard.held).toEqual({ keys: RECENT_KEYS + 8, parsed: RECENT_KEYS });
    const [first = ''] = keys;
    expect(await store.read(shard, first, async (state) => state)).toEqual(written.get(first));
    // Read back, it is the most recently used now; the parsed states stay at most RECENT_KEYS.
    expect(shard.held).toEqual({ keys: RECENT_KEYS + 8, parsed: RECENT_KEYS });
    for (const key of keys)
      expect(await store.read(shard, key, async (state) => state)).toEqual(written.get(key));
    // A key changed after it left memory: its new record is the one read back.
    const base = written.get(first);
    if (!base) throw new Error('the first state expected');
    const changed: KeyState = { ...base, expiresAt: 0, holder: undefined, at: clock.now() };
    await store.update(shard, first, async () => ({ next: changed, result: undefined }));
    for (const key of keys.slice(1, RECENT_KEYS + 1)) await store.read(shard, key, async () => undefined);
    expect(await store.read(shard, first, async (state) => state)).toEqual(changed);
    // Another process, reading the file from its first byte, holds the same.
    const other = new Shard(path, clock.now);
    for (const key of keys.slice(1))
      expect(await new ShardStore(dir).read(other, key, async (state) => state)).toEqual(written.get(key));
    expect(other.held).toEqual({ keys: RECENT_KEYS + 8, parsed: RECENT_KEYS });
    expect(await store.read(shard, keyOf('client', 'never'), async (state) => state)).toBeUndefined();
  });

  it('households whose state left memory, their shard rewritten meanwhile: outcome, lease and next fence read back as recorded', async () => {
    const dir = folder();
    const { ids } = sameShard(RECENT_KEYS + 10);
    const coordination = new FileCoordination(dir);
    const fences = new Map<string, number>();
    for (const id of ids) {
      const before = await coordination.acquireCreateLease('client', id, TEN_MINUTES);
      if (!before) throw new Error(`a lease on ${id} expected`);
      await coordination.releaseCreateLease(before);
      await household(coordination, id);
      fences.set(id, (await coordination.readCreateOutcome('client', id))?.fence ?? 0);
    }
    const shard = join(dir, shardNameOf(keyOf('client', ids[0] ?? '')));
    // Seven records a household: the shard was rewritten (one record a key) along the way.
    expect(readFileSync(shard, 'latin1').split('\n').length).toBeLessThan(ids.length * 7);
    for (const id of ids) {
      expect(await coordination.readCreateOutcome('client', id)).toMatchObject({
        state: 'created',
        id: `g-${id}`,
        fence: fences.get(id),
      });
      expect(await coordination.describeCreateLease('client', id)).toBeUndefined();
    }
    const [first = ''] = ids;
    const next = await coordination.acquireCreateLease('client', first, TEN_MINUTES);
    expect(next?.fence).toBeGreaterThan(fences.get(first) ?? Number.POSITIVE_INFINITY);
    // Held again: another process waits for it, and sees the created record stand.
    expect(await new FileCoordination(dir).acquireCreateLease('client', first, TEN_MINUTES)).toBeUndefined();
    expect(await new FileCoordination(dir).readCreateOutcome('client', first)).toMatchObject({
      state: 'created',
      id: `g-${first}`,
    });
  });

  it('a record changed in place after its state left memory refuses its key when read back, naming the file and line; its neighbours go on', async () => {
    const dir = folder();
    const { ids } = sameShard(RECENT_KEYS + 2);
    const [first = '', second = ''] = ids;
    const coordination = new FileCoordination(dir);
    for (const id of ids) await household(coordination, id);
    const shard = join(dir, shardNameOf(keyOf('client', first)));
    const lines = readFileSync(shard, 'latin1').split('\n');
    const at = lastLineOf(lines, keyOf('client', first));
    expect(at).toBeGreaterThanOrEqual(0);
    // Same length, same last bytes: nothing tells the change but the record itself.
    lines[at] = oneDigitChanged(lines[at] ?? '');
    writeFileSync(shard, lines.join('\n'), 'latin1');

    for (const call of [
      () => coordination.readCreateOutcome('client', first),
      () => coordination.acquireCreateLease('client', first, TEN_MINUTES),
    ]) {
      const refused = await call().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(CoordinationStateError);
      expect(refused).toMatchObject({ path: shard, line: at + 1 });
      expect((refused as Error).message).toContain(
        `The coordination file ${shard} is damaged at line ${at + 1}: its checksum does not match its text`,
      );
      expect((refused as Error).message).toContain('the file was changed in place');
      expect((refused as Error).message).toContain('its key, so no create is sent for them');
    }
    expect(await coordination.readCreateOutcome('client', second)).toMatchObject({
      state: 'created',
      id: `g-${second}`,
    });
    const lease = await coordination.acquireCreateLease('client', second, TEN_MINUTES);
    expect(lease).toBeDefined();
    // Its line is still in the file as it was found: a shard with damage is never rewritten.
    expect(readFileSync(shard, 'latin1').split('\n')[at]).toBe(lines[at]);
  });

  it('an older record changed in place (one its key has since replaced) also stops the rewrite, named', async () => {
    const dir = folder();
    const { ids } = sameShard(RECENT_KEYS + 40);
    const early = ids.slice(0, RECENT_KEYS + 2);
    const [first = ''] = early;
    const coordination = new FileCoordination(dir);
    for (const id of early) await household(coordination, id);
    // A lease taken and given back: records of the first household after its earlier one.
    const lease = await coordination.acquireCreateLease('client', first, TEN_MINUTES);
    if (lease) await coordination.releaseCreateLease(lease);
    const key = keyOf('client', first);
    const shard = join(dir, shardNameOf(key));
    const lines = readFileSync(shard, 'latin1').split('\n');
    const at = lines.findIndex((line) => line.startsWith(`{"k":"${key}"`));
    expect(at).toBeLessThan(lastLineOf(lines, key));
    lines[at] = oneDigitChanged(lines[at] ?? '');
    writeFileSync(shard, lines.join('\n'), 'latin1');
    for (const id of ids.slice(RECENT_KEYS + 2)) await household(coordination, id);
    const after = readFileSync(shard, 'latin1').split('\n');
    // Never rewritten: the damaged line was not dropped unread.
    expect(after.slice(0, lines.length - 1)).toEqual(lines.slice(0, -1));
    const refused = await coordination.readCreateOutcome('client', first).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'CoordinationStateError', path: shard, line: at + 1 });
  });

  it('a record changed in place that a rewrite comes across stops the rewrite and refuses its key, naming the line', async () => {
    const dir = folder();
    const { ids } = sameShard(RECENT_KEYS + 40);
    const early = ids.slice(0, RECENT_KEYS + 2);
    const [first = ''] = early;
    const coordination = new FileCoordination(dir);
    for (const id of early) await household(coordination, id);
    const shard = join(dir, shardNameOf(keyOf('client', first)));
    const lines = readFileSync(shard, 'latin1').split('\n');
    const at = lastLineOf(lines, keyOf('client', first));
    lines[at] = oneDigitChanged(lines[at] ?? '');
    writeFileSync(shard, lines.join('\n'), 'latin1');
    // Enough households in the shard for its records to be rewritten, nobody reading the first.
    for (const id of ids.slice(RECENT_KEYS + 2)) await household(coordination, id);
    const after = readFileSync(shard, 'latin1').split('\n');
    // Never rewritten: what was there is still there, line for line (the last "" ended the file).
    expect(after.slice(0, lines.length - 1)).toEqual(lines.slice(0, -1));
    expect(after.length).toBe(lines.length + 38 * 5);
    const refused = await coordination.readCreateOutcome('client', first).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'CoordinationStateError', path: shard, line: at + 1 });
  });
});
