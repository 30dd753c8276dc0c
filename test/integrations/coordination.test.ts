/**
 * The Coordination contract, run against each implementation (InProcessCoordination, and
 * FileCoordination with two instances on one folder, as two processes would have): fenced leases,
 * outcome records a stale holder cannot overwrite, one token exchange at a time, pauses seen by
 * every instance. Then the client's wiring: the token exchange and the 429 pause shared by two
 * clients through one coordination.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type Coordination,
  FileCoordination,
  FileTokenStore,
  InProcessCoordination,
} from '../../src/index.js';
import { createMockServer } from '../../src/testing/index.js';
import { recordingClock } from '../support/clock.js';
import { clientFor } from '../support/mock-client.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'av-coordination-'));
  dirs.push(dir);
  return dir;
}

/** Two handles on one coordination: the same object in process, two instances on one folder. */
const implementations: Array<[string, () => [Coordination, Coordination]]> = [
  [
    'InProcessCoordination',
    () => {
      const one = new InProcessCoordination();
      return [one, one];
    },
  ],
  [
    'FileCoordination',
    () => {
      const dir = folder();
      return [new FileCoordination(dir), new FileCoordination(dir)];
    },
  ],
];

describe.each(implementations)('%s', (_name, make) => {
  it('one lease per key at a time; each new lease has a greater fence', async () => {
    const [a, b] = make();
    const first = await a.acquireCreateLease('client', 'unit-4B', 60_000);
    expect(first?.fence).toBeGreaterThan(0);
    expect(await b.acquireCreateLease('client', 'unit-4B', 60_000)).toBeUndefined();
    // Other keys are independent, the client id included.
    expect((await b.acquireCreateLease('client', 'unit-5C', 60_000))?.fence).toBeGreaterThan(0);
    expect((await b.acquireCreateLease('other-client', 'unit-4B', 60_000))?.fence).toBeGreaterThan(0);
    if (!first) throw new Error('a lease expected');
    await a.releaseCreateLease(first);
    const second = await b.acquireCreateLease('client', 'unit-4B', 60_000);
    expect(second?.fence).toBeGreaterThan(first.fence);
  });

  it('a lapsed lease is taken over; its holder can no longer record or release', async () => {
    const [a, b] = make();
    const stale = await a.acquireCreateLease('client', 'k', 0);
    const current = await b.acquireCreateLease('client', 'k', 60_000);
    if (!stale || !current) throw new Error('leases expected');
    expect(current.fence).toBeGreaterThan(stale.fence);
    expect(await a.recordCreateOutcome(stale, { state: 'created', id: 'g-stale' })).toBe(false);
    expect(await b.recordCreateOutcome(current, { state: 'created', id: 'g-1' })).toBe(true);
    await a.releaseCreateLease(stale);
    expect(await a.acquireCreateLease('client', 'k', 60_000)).toBeUndefined();
    expect(await a.readCreateOutcome('client', 'k')).toMatchObject({
      state: 'created',
      id: 'g-1',
      fence: current.fence,
    });
    expect(await a.readCreateOutcome('client', 'other')).toBeUndefined();
  });

  it('token exchanges of one client id run one at a time', async () => {
    const [a, b] = make();
    let running = 0;
    let most = 0;
    const exchange = async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running--;
      return 'token';
    };
    const results = await Promise.all(
      [a, b, a, b].map((coordination) => coordination.withTokenExchange('client', 10_000, exchange)),
    );
    expect(results).toEqual(['token', 'token', 'token', 'token']);
    expect(most).toBe(1);
  });

  it('a published pause reaches every listener of the client id; a later one wins', async () => {
    const [a, b] = make();
    const heard: number[] = [];
    const stop = b.onPause('client', (until) => heard.push(until));
    const until = Date.now() + 30_000;
    await a.publishPause('client', until);
    await a.publishPause('client', until - 10_000);
    await vi.waitFor(() => expect(heard.at(-1)).toBe(until), { timeout: 5_000, interval: 50 });
    expect(Math.max(...heard)).toBe(until);
    stop();
  });
});

describe('the client on a coordination', () => {
  it('two clients sharing a FileCoordination and a token store: one token exchange', async () => {
    const mock = await createMockServer();
    const dir = folder();
    const clients = [0, 1].map(() =>
      clientFor(mock, {
        tokenStore: new FileTokenStore(join(dir, 'token.json')),
        coordination: new FileCoordination(join(dir, 'coordination')),
      }),
    );
    try {
      await Promise.all(clients.map((client) => client.applicantGroups.list()));
      expect(mock.stats.count('POST /api/v1/tenants/auth')).toBe(1);
    } finally {
      for (const client of clients) await client.close();
      await mock.close();
    }
  });

  it("one client's 429 pauses the other client of the coordination", async () => {
    const mock = await createMockServer();
    const coordination = new InProcessCoordination();
    const clocks = [recordingClock(), recordingClock()];
    const [first, second] = clocks.map((clock) =>
      clientFor(mock, {
        coordination,
        clock,
      }),
    );
    try {
      if (!first || !second) throw new Error('clients expected');
      mock.faults.next(1, { status: 429, retryAfter: 3 }, { method: 'GET' });
      await first.applicantGroups.list();
      await second.applicantGroups.list();
      // The first waited out its own 429; the second, which never got one, waited for the pause.
      expect(clocks[0]?.waits).toEqual([3_000]);
      expect(clocks[1]?.waits.length).toBeGreaterThan(0);
      expect(mock.stats.count('GET /api/v1/applicant_groups')).toBe(3);
    } finally {
      await first?.close();
      await second?.close();
      await mock.close();
    }
  });
});
