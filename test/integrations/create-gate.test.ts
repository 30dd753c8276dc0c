/**
 * One gate for every create: `create`, `createOnce`, `createMany` and `screeningGroups.create` take
 * the coordination's lease on their correlation id while they run, record `unresolved` before the
 * request leaves and what it came to after, and every wait and window they keep reads the client's
 * clock. Each test combines two of these where users combine them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outcomeOfFailure } from '../../src/creates/create-gate.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  ClientClosedError,
  type Coordination,
  type CreateLease,
  GroupMayHaveBeenCreatedError,
  GroupNotFoundError,
  InProcessCoordination,
  RateLimitError,
  RequestValidationError,
  type VerificationClient,
} from '../../src/index.js';
import { createMockServer, createTestClock, type MockServer } from '../../src/testing/index.js';
import { createTickingClientClock } from '../../src/testing/state/clock.js';
import { groupCreateBody, oakCourtBody } from '../support/bodies.js';
import { around, warningsLogger } from '../support/coordination.js';
import { caught } from '../support/exposure.js';
import { clientFor } from '../support/mock-client.js';

const CREATE = 'POST /api/v1/applicant_groups';
const GROUPS = '/api/v1/applicant_groups';
const MINUTE = 60_000;

/**
 * A client of `mock` on `coordination`, whose warnings are kept. Its clock is the mock's test
 * clock, whose sleeps advance it at once; `realWaits` gives one that waits in real time as the
 * mock ticks, for calls racing each other's requests: on the test clock, a waiter's polls would
 * advance time past the holder's lease while the holder's request is still on the wire.
 */
function watchedClient(
  mock: MockServer,
  coordination: Coordination,
  realWaits = false,
): { client: VerificationClient; warnings: string[] } {
  const log = warningsLogger();
  const client = clientFor(mock, {
    clock: realWaits ? createTickingClientClock(mock.clock) : createTestClock(mock.clock),
    coordination,
    logger: log.logger,
    logLevel: 'warn',
  });
  return { client, warnings: log.warnings };
}

describe('the create gate', () => {
  let mock: MockServer;
  let coordination: InProcessCoordination;
  let sdk: VerificationClient;
  let warnings: string[];

  beforeEach(async () => {
    mock = await createMockServer();
    coordination = new InProcessCoordination(() => mock.clock.now());
    ({ client: sdk, warnings } = watchedClient(mock, coordination));
  });

  afterEach(async () => {
    await sdk.close();
    await mock.close();
  });

  it('create and createOnce of one household at once: one group, createOnce finds the one create made', async () => {
    await sdk.close();
    ({ client: sdk, warnings } = watchedClient(mock, coordination, true));
    const body = groupCreateBody('ana@example.com', 'GATE-1');
    const [created, once] = await Promise.all([
      sdk.applicantGroups.create(body),
      sdk.applicantGroups.createOnce(structuredClone(body)),
    ]);
    expect(mock.stats.count(CREATE)).toBe(1);
    // The create recorded its group under the gate: createOnce knew it from there.
    expect(once).toEqual({ group: created, created: false, via: 'gate' });
    expect(mock.outbox.forGroup(created.id)).toHaveLength(2);
    // createOnce said what it waited for.
    expect(
      warnings.some((line) =>
        line.includes('createOnce (correlation_id "GATE-1"): waiting for the create lease'),
      ),
    ).toBe(true);
  });

  it('create keeps its meaning under the gate: a second create of the id makes a new group, after the first', async () => {
    await sdk.close();
    ({ client: sdk } = watchedClient(mock, coordination, true));
    const body = groupCreateBody('ana@example.com', 'GATE-2');
    const [first, second] = await Promise.all([
      sdk.applicantGroups.create(body),
      sdk.applicantGroups.create(body),
    ]);
    expect(first.id).not.toBe(second.id);
    expect(mock.stats.count(CREATE)).toBe(2);
    const outcome = await coordination.readCreateOutcome(mock.clientId, 'GATE-2');
    expect(outcome?.state).toBe('created');
  });

  it('a create records its outcome: createOnce after it sends nothing and returns its group', async () => {
    const created = await sdk.applicantGroups.create(groupCreateBody('ana@example.com', 'GATE-3'));
    const outcome = await coordination.readCreateOutcome(mock.clientId, 'GATE-3');
    expect(outcome).toMatchObject({ state: 'created', id: created.id });
    const once = await sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'GATE-3'));
    expect(once).toEqual({ group: created, created: false, via: 'gate' });
    expect(mock.stats.count(CREATE)).toBe(1);
  });

  it('a create the server refused is recorded refused: the next createOnce creates at once, with no grace wait', async () => {
    mock.faults.next(1, { status: 400 }, { method: 'POST', path: GROUPS });
    const body = groupCreateBody('ana@example.com', 'GATE-4');
    expect(await caught(sdk.applicantGroups.create(body))).toMatchObject({ status: 400 });
    expect((await coordination.readCreateOutcome(mock.clientId, 'GATE-4'))?.state).toBe('refused');
    const before = mock.clock.now();
    const once = await sdk.applicantGroups.createOnce(body);
    expect(once.created).toBe(true);
    // No grace window was waited out on the (test) clock.
    expect(mock.clock.now() - before).toBeLessThan(1_000);
  });

  it('createOnce after GroupMayHaveBeenCreatedError: refused while the test clock is within 10 minutes, created once it moves 11', async () => {
    const body = groupCreateBody('ana@example.com', 'GATE-5');
    mock.faults.next(1, { status: 503 }, { method: 'POST', path: GROUPS });
    expect(await caught(sdk.applicantGroups.create(body))).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect((await coordination.readCreateOutcome(mock.clientId, 'GATE-5'))?.state).toBe('unresolved');
    expect(await caught(sdk.applicantGroups.createOnce(body))).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect(mock.stats.count(CREATE)).toBe(1);
    mock.clock.advance(11 * MINUTE);
    const late = await sdk.applicantGroups.createOnce(body);
    expect(late.created).toBe(true);
    expect(mock.stats.count(CREATE)).toBe(2);
    expect(mock.groups.applicant()).toHaveLength(1);
  });

  it('a holder that stopped mid-send left unresolved: long after it, one lookup and no grace wait, and nothing sent', async () => {
    const body = groupCreateBody('ana@example.com', 'GATE-6');
    // A holder took the lease and recorded that its create was leaving, then was never heard of again.
    const lease = await coordination.acquireCreateLease(mock.clientId, 'GATE-6', MINUTE);
    await coordination.recordCreateOutcome(lease as CreateLease, { state: 'unresolved' });
    mock.clock.advance(2 * MINUTE);
    const before = mock.clock.now();
    const error = await caught(sdk.applicantGroups.createOnce(body));
    expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect((error as Error).message).toMatch(/its process stopped while sending it/);
    expect(mock.clock.now()).toBe(before);
    expect(mock.stats.count(CREATE)).toBe(0);
    expect(mock.stats.count(`GET ${GROUPS}`)).toBe(1);
  });

  it('a holder that stopped mid-send and whose group exists: createOnce returns it, created: false', async () => {
    const body = groupCreateBody('ana@example.com', 'GATE-7');
    const lease = await coordination.acquireCreateLease(mock.clientId, 'GATE-7', MINUTE);
    await coordination.recordCreateOutcome(lease as CreateLease, { state: 'unresolved' });
    // Its request did reach the server.
    const other = clientFor(mock, { coordination: new InProcessCoordination() });
    const group = await other.applicantGroups.create(body);
    await other.close();
    mock.clock.advance(2 * MINUTE);
    // The gate held its unresolved create: the group is that writer's, on this gate.
    expect(await sdk.applicantGroups.createOnce(body)).toEqual({ group, created: false, via: 'gate' });
    expect(mock.stats.count(CREATE)).toBe(1);
  });

  it('the write-ahead record: unresolved is recorded before the request leaves', async () => {
    const body = groupCreateBody('ana@example.com', 'GATE-8');
    mock.faults.next(1, { commitDelayMs: 50 }, { method: 'POST', path: GROUPS });
    const pending = sdk.applicantGroups.create(body);
    // While the server holds the request, the record says nobody knows yet.
    for (let tries = 0; mock.stats.count(CREATE) === 0 && tries < 500; tries++)
      await new Promise((done) => setTimeout(done, 2));
    expect((await coordination.readCreateOutcome(mock.clientId, 'GATE-8'))?.state).toBe('unresolved');
    const group = await pending;
    expect(await coordination.readCreateOutcome(mock.clientId, 'GATE-8')).toMatchObject({
      state: 'created',
      id: group.id,
    });
  });

  it('a lease taken over from a dead holder is said in a warning naming the holder', async () => {
    const holder = { host: 'build-7', pid: 4242, startedAt: 1 };
    const taking: Coordination = around(coordination, {
      acquireCreateLease: async (clientId: string, correlationId: string, ttl: number) => {
        const lease = await coordination.acquireCreateLease(clientId, correlationId, ttl);
        return lease && { ...lease, takenOverFrom: holder };
      },
    });
    const { client: other, warnings: otherWarnings } = watchedClient(mock, taking);
    try {
      await other.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'GATE-9'));
    } finally {
      await other.close();
    }
    expect(otherWarnings).toEqual([
      expect.stringContaining(
        'createOnce (correlation_id "GATE-9"): took over the create lease from process 4242 on build-7, which no longer runs',
      ),
    ]);
  });

  it('a waiter names the holder the coordination describes, and the time its lease lapses', async () => {
    const expiresAt = Date.UTC(2030, 0, 1);
    const describing: Coordination = around(coordination, {
      describeCreateLease: async () => ({ expiresAt, holder: { host: 'worker-2', pid: 77, startedAt: 1 } }),
    });
    await coordination.acquireCreateLease(mock.clientId, 'GATE-10', MINUTE);
    const { client: other, warnings: otherWarnings } = watchedClient(mock, describing);
    try {
      const body = groupCreateBody('ana@example.com', 'GATE-10');
      // The lease lapses on the coordination's (mock) clock while the waiter backs off on it.
      expect((await other.applicantGroups.createOnce(body)).created).toBe(true);
    } finally {
      await other.close();
    }
    expect(otherWarnings[0]).toBe(
      `[applicant-verification] createOnce (correlation_id "GATE-10"): waiting for the create lease, held by process 77 on worker-2, until ${new Date(expiresAt).toISOString()} at the latest; it creates nothing meanwhile.`,
    );
  });

  it('a screening create with a correlation_id waits for another screening create of the id', async () => {
    const body = oakCourtBody('gate', [
      { applicant_first_name: 'Ana', applicant_last_name: 'Silva', applicant_email: 'ana@example.com' },
    ]);
    const key = `screening_groups:${body.correlation_id}`;
    const lease = (await coordination.acquireCreateLease(
      mock.clientId,
      key,
      24 * 60 * MINUTE,
    )) as CreateLease;
    // The other create holds the lease for three of this one's tries; nothing is sent meanwhile.
    let refused = 0;
    const postsWhileHeld: number[] = [];
    const holding = around(coordination, {
      acquireCreateLease: async (...args) => {
        const taken = await coordination.acquireCreateLease(...args);
        if (taken === undefined && ++refused === 3) {
          postsWhileHeld.push(mock.stats.count('POST /api/v1/screening_groups'));
          await coordination.releaseCreateLease(lease);
        }
        return taken;
      },
    });
    const other = clientFor(mock, { clock: createTestClock(mock.clock), coordination: holding });
    const group = await other.screeningGroups.create(body).finally(() => other.close());
    expect(postsWhileHeld).toEqual([0]);
    expect(mock.stats.count('POST /api/v1/screening_groups')).toBe(1);
    expect(await coordination.readCreateOutcome(mock.clientId, key)).toMatchObject({
      state: 'created',
      id: group.id,
    });
    // An applicant-group create of the same id is not held by the screening lease.
    expect(await coordination.readCreateOutcome(mock.clientId, String(body.correlation_id))).toBeUndefined();
  });

  it('a create without a correlation_id never asks the coordination: there is no key to coordinate on', async () => {
    const asked: string[] = [];
    const watching: Coordination = around(coordination, {
      acquireCreateLease: async (...args: Parameters<Coordination['acquireCreateLease']>) => {
        asked.push(String(args[1]));
        return coordination.acquireCreateLease(...args);
      },
    });
    const other = clientFor(mock, { coordination: watching });
    try {
      const { correlation_id: _, ...body } = groupCreateBody('ana@example.com', 'unused');
      const [first, second] = await Promise.all([
        other.applicantGroups.create(body),
        other.applicantGroups.create(structuredClone(body)),
      ]);
      expect(first.id).not.toBe(second.id);
      expect(asked).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('bad input is refused before the coordination is asked', async () => {
    const asked: string[] = [];
    const watching: Coordination = around(coordination, {
      acquireCreateLease: async (...args: Parameters<Coordination['acquireCreateLease']>) => {
        asked.push(args[1]);
        return coordination.acquireCreateLease(...args);
      },
    });
    const other = clientFor(mock, { coordination: watching });
    try {
      const body = { ...groupCreateBody('not-an-email', 'GATE-11') };
      const error = await caught(other.applicantGroups.create(body));
      expect(error).toMatchObject({ name: 'RequestValidationError' });
      expect(asked).toEqual([]);
      expect(mock.stats.count()).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('waitForCompletion given the group just created waits out list lag instead of GroupNotFoundError', async () => {
    mock.faults.next(1, { listLagMs: 10_000, clock: 'mock' }, { method: 'POST', path: GROUPS });
    const group = await sdk.applicantGroups.create(groupCreateBody('ana@example.com', 'GATE-12'));
    for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
    const settled = await sdk.applicantGroups.waitForCompletion(group, { pollInterval: 1_000 });
    expect(settled.id).toBe(group.id);
    expect(settled.status).toBe('completed');
  });

  it('waitForCompletion: a group never listed within the grace window is GroupNotFoundError; a bare unknown id at once', async () => {
    const ghost = {
      ...(await sdk.applicantGroups.create(groupCreateBody('ana@example.com', 'GATE-13'))),
      id: 'no-such-group',
    };
    const before = mock.clock.now();
    expect(await caught(sdk.applicantGroups.waitForCompletion(ghost))).toBeInstanceOf(GroupNotFoundError);
    expect(mock.clock.now() - before).toBeGreaterThanOrEqual(30_000);
    const again = mock.clock.now();
    expect(await caught(sdk.applicantGroups.waitForCompletion('no-such-group'))).toBeInstanceOf(
      GroupNotFoundError,
    );
    expect(mock.clock.now()).toBe(again);
  });
});

describe("what a create's failure tells the next holder of its lease", () => {
  const status = (code: number) =>
    APIError.from({ status: code, headers: {}, body: {}, method: 'POST', path: GROUPS });

  it.each([
    [
      'a body the SDK refused',
      new RequestValidationError([{ path: 'monthly_rent', message: 'bad', code: 'custom' }]),
    ],
    ['a 429', new RateLimitError({ status: 429, headers: {}, body: {}, method: 'POST', path: GROUPS })],
    ['a 400', status(400)],
    ['a 409', status(409)],
    ['a 422', status(422)],
    ['a 499', status(499)],
    [
      'a connection refused before anything was sent',
      new APIConnectionError('refused', { requestNotSent: true }),
    ],
    ['a timeout while still queued', new APIConnectionTimeoutError('queued', { requestNotSent: true })],
  ])('%s: refused, nothing exists', (_name, error) => {
    expect(outcomeOfFailure(error)).toBe('refused');
  });

  it.each([
    ['a 500', status(500)],
    ['a 503', status(503)],
    ['a redirect the SDK does not follow', status(307)],
    ['a reset after the request was written', new APIConnectionError('reset')],
    ['a timeout after the request was sent', new APIConnectionTimeoutError('timed out')],
    ['an error of unknown origin', new Error('boom')],
    ['a thrown string', 'boom'],
  ])('%s: unresolved, the group may exist', (_name, error) => {
    expect(outcomeOfFailure(error)).toBe('unresolved');
  });
});

describe('a closed client', () => {
  it('refuses every call with ClientClosedError before any I/O, and reopens nothing', async () => {
    const mock = await createMockServer();
    const sdk = clientFor(mock);
    try {
      await sdk.applicantGroups.list();
      const before = mock.stats.count();
      await sdk.close();
      for (const call of [
        () => sdk.applicantGroups.list(),
        () => sdk.applicantGroups.create(groupCreateBody('ana@example.com', 'CLOSED-1')),
        () => sdk.get(GROUPS),
      ]) {
        const error = await caught(call());
        expect(error).toBeInstanceOf(ClientClosedError);
        expect((error as Error).message).toMatch(/closed VerificationClient/);
      }
      expect(mock.stats.count()).toBe(before);
    } finally {
      await mock.close();
    }
  });
});
