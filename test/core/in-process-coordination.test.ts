/**
 * InProcessCoordination at batch scale: outcome records live their hour however many keys a batch
 * holds, old keys are forgotten (memory stays bounded in a long-running server), and fences
 * keep growing while a key is remembered. The sweep that forgets them runs after the keys
 * doubled or a minute passed, not on every acquire (docs/benchmarks.md, "Scale").
 */
import { describe, expect, it } from 'vitest';
import { InProcessCoordination } from '../../src/index.js';

const HOUR = 60 * 60_000;

/** Takes, records and releases one lease per key, as a batch of creates does. */
async function batch(coordination: InProcessCoordination, prefix: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const lease = await coordination.acquireCreateLease('client', `${prefix}-${i}`, 30_000);
    if (lease === undefined) throw new Error(`lease ${prefix}-${i} refused`);
    await coordination.recordCreateOutcome(lease, { state: 'created', id: `${prefix}-group-${i}` });
    await coordination.releaseCreateLease(lease);
  }
}

describe('InProcessCoordination with many keys', () => {
  it('keeps every outcome of a 5,000-household batch for its hour', async () => {
    let now = Date.UTC(2026, 0, 15);
    const coordination = new InProcessCoordination(() => now);
    await batch(coordination, 'first', 5_000);
    now += HOUR - 1;
    await batch(coordination, 'second', 3_000);
    expect(await coordination.readCreateOutcome('client', 'first-0')).toMatchObject({
      state: 'created',
      id: 'first-group-0',
    });
    expect(await coordination.readCreateOutcome('client', 'first-4999')).toMatchObject({ state: 'created' });
  });

  it('forgets keys whose lease is over and whose outcome is older than an hour', async () => {
    let now = Date.UTC(2026, 0, 15);
    const coordination = new InProcessCoordination(() => now);
    await batch(coordination, 'old', 5_000);
    now += HOUR + 1;
    // One acquire a minute after the last sweep sweeps, however few keys were added since.
    await batch(coordination, 'new', 1);
    expect(await coordination.readCreateOutcome('client', 'old-0')).toBeUndefined();
    expect(await coordination.readCreateOutcome('client', 'old-4999')).toBeUndefined();
    expect(await coordination.readCreateOutcome('client', 'new-0')).toMatchObject({ state: 'created' });
  });

  it('never sweeps a key whose lease is still held, while it sweeps the keys around it', async () => {
    let now = Date.UTC(2026, 0, 15);
    const coordination = new InProcessCoordination(() => now);
    const held = await coordination.acquireCreateLease('client', 'held', 3 * HOUR);
    await batch(coordination, 'filler', 3_000);
    now += 2 * HOUR;
    await batch(coordination, 'more', 3_000);
    expect(await coordination.readCreateOutcome('client', 'filler-0')).toBeUndefined();
    expect(await coordination.acquireCreateLease('client', 'held', 1_000)).toBeUndefined();
    expect(held && (await coordination.recordCreateOutcome(held, { state: 'created', id: 'g' }))).toBe(true);
  });
});
