/**
 * createOnce against the mock: a double submit invites once, whether the calls follow each other,
 * overlap in one process, or run in two processes sharing a FileCoordination; a different
 * household under the same correlation id is a CorrelationConflictError and nothing is sent.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ApplicantGroupCreateParams,
  type Coordination,
  CorrelationConflictError,
  type CreateLease,
  type CreateOutcome,
  GroupMayHaveBeenCreatedError,
  InProcessCoordination,
  RequestValidationError,
  type VerificationClient,
} from '../../src/index.js';
import { createMockServer, createTestClock, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { caught, expose } from '../support/exposure.js';
import { clientFor, mockWithClient } from '../support/mock-client.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CREATE = 'POST /api/v1/applicant_groups';
const GROUPS = '/api/v1/applicant_groups';
const LOOKUP = `GET ${GROUPS}`;
const MINUTE = 60_000;

describe('createOnce', () => {
  let mock: MockServer;
  let client: VerificationClient;
  mockWithClient((pair) => ({ mock, client } = pair), {
    per: 'test',
    client: (server) => ({ clock: createTestClock(server.clock) }),
  });

  it('twice in a row: one group, one set of invitations; the second sends nothing', async () => {
    const body = groupCreateBody('ana@example.com', 'PROP-123-UNIT-4B');
    const first = await client.applicantGroups.createOnce(body);
    const second = await client.applicantGroups.createOnce({
      ...body,
      applicants: body.applicants.map((applicant) => ({
        ...applicant,
        email: applicant.email.toUpperCase(),
      })),
    });
    expect(first.created).toBe(true);
    // The first call recorded its group under the gate: the second knew it from there.
    expect(second).toEqual({ group: first.group, created: false, via: 'gate' });
    expect(mock.stats.count(CREATE)).toBe(1);
    expect(mock.groups.applicant()).toHaveLength(1);
    // One email and one text: one applicant with a phone.
    expect(mock.outbox.forGroup(first.group.id)).toHaveLength(2);
  });

  it('20 at once: one request, every call gets the one group', async () => {
    const body = groupCreateBody('ana@example.com', 'PROP-123-UNIT-5C');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => client.applicantGroups.createOnce(structuredClone(body))),
    );
    expect(mock.stats.count(CREATE)).toBe(1);
    expect(mock.groups.applicant()).toHaveLength(1);
    const id = mock.groups.applicant()[0]?.id;
    expect(results.map((result) => result.group.id)).toEqual(new Array(20).fill(id));
    expect(mock.outbox.forGroup(id ?? '')).toHaveLength(2);
  });

  it('another household under the id: CorrelationConflictError, no POST, no contact details in it', async () => {
    const former = await client.applicantGroups.create(
      groupCreateBody('former@example.com', 'PROP-9-UNIT-1'),
    );
    const posts = mock.stats.count(CREATE);
    const error = await caught(
      client.applicantGroups.createOnce(groupCreateBody('newcomer@example.com', 'PROP-9-UNIT-1')),
    );
    expect(error).toBeInstanceOf(CorrelationConflictError);
    const conflict = error as CorrelationConflictError;
    expect(conflict.correlationId).toBe('PROP-9-UNIT-1');
    expect(conflict.existing?.id).toBe(former.id);
    expect(conflict.differences).toEqual([{ kind: 'applicants', missing: 1, extra: 1 }]);
    expect(mock.stats.count(CREATE)).toBe(posts);
    for (const text of [
      conflict.message,
      JSON.stringify(conflict),
      inspect(conflict),
      JSON.stringify({ ...conflict }),
    ]) {
      expect(text).not.toMatch(/former@|newcomer@|\+1415/);
    }
  });

  it('without a correlation_id: RequestValidationError naming it, before any request', async () => {
    const { correlation_id: _, ...body } = groupCreateBody('ana@example.com', 'x');
    const error = await caught(client.applicantGroups.createOnce(body));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      expect.objectContaining({ path: 'correlation_id', code: 'invalid_type' }),
    ]);
    expect((error as Error).message).toMatch(/^Invalid request body: /);
    expect(mock.stats.count()).toBe(0);
  });

  it('a body the schema refuses: RequestValidationError saying the request body is invalid, before any request', async () => {
    const error = await caught(
      client.applicantGroups.createOnce(groupCreateBody('not-an-email', 'PROP-7-UNIT-9')),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toMatch(/^Invalid request body: /);
    expect(mock.stats.count()).toBe(0);
  });

  it('an unknown coordinationFailure per call: TypeError naming it, nothing sent', async () => {
    const error = await caught(
      client.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'PROP-7-UNIT-10'), {
        coordinationFailure: 'proceed' as unknown as 'continue',
      }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain(
      `coordinationFailure must be 'refuse' or 'continue', got "proceed"`,
    );
    expect(mock.stats.count()).toBe(0);
  });

  // One household without a unit, one with: a unit on neither side or the same on both is no difference.
  const household = groupCreateBody('ana@example.com', 'PROP-7-UNIT-2');
  const withUnit = { ...household, property: { ...household.property, unit: '3A' } };
  it.each([
    [
      'its rent',
      household,
      { ...household, monthly_rent: 2100 },
      [{ kind: 'monthly_rent', groupCents: 195_000, intendedCents: 210_000 }],
    ],
    [
      'its applicants only',
      withUnit,
      { ...withUnit, applicants: [{ first_name: 'Bia', last_name: 'Silva', email: 'bia@example.com' }] },
      [{ kind: 'applicants', missing: 1, extra: 1 }],
    ],
  ])(
    'a concurrent call whose body differs in %s: CorrelationConflictError, only the first is sent',
    async (_name, body, other, differences) => {
      const [first, second] = await Promise.allSettled([
        client.applicantGroups.createOnce(body),
        client.applicantGroups.createOnce(other),
      ]);
      expect(first.status).toBe('fulfilled');
      expect(second.status === 'rejected' && second.reason).toBeInstanceOf(CorrelationConflictError);
      expect((second as PromiseRejectedResult).reason.differences).toEqual(differences);
      expect(mock.stats.count(CREATE)).toBe(1);
    },
  );

  it('concurrent calls with one household written differently (key order, an explicit undefined) share one request', async () => {
    const body = groupCreateBody('ana@example.com', 'PROP-7-UNIT-4');
    const reordered = Object.fromEntries(Object.entries(structuredClone(body)).reverse()) as typeof body;
    reordered.property = Object.fromEntries(Object.entries(body.property).reverse()) as typeof body.property;
    reordered.webhook_url = undefined;
    const [one, two] = await Promise.all([
      client.applicantGroups.createOnce(body),
      client.applicantGroups.createOnce(reordered),
    ]);
    expect(two).toEqual(one);
    expect(one.created).toBe(true);
    expect(mock.stats.count(CREATE)).toBe(1);
  });

  it('concurrent calls whose extraBody lists differ are not one call, even when their digits read alike', async () => {
    const body = groupCreateBody('ana@example.com', 'PROP-7-UNIT-5');
    const [, two] = await Promise.allSettled([
      client.applicantGroups.createOnce(body, { extraBody: { floors: [12, 3] } }),
      client.applicantGroups.createOnce(body, { extraBody: { floors: [1, 23] } }),
    ]);
    expect(two.status === 'rejected' && two.reason).toBeInstanceOf(CorrelationConflictError);
    expect(mock.stats.count(CREATE)).toBeLessThanOrEqual(1);
  });

  it('concurrent calls with the same extraBody, a null field in it, share one request', async () => {
    const body = groupCreateBody('ana@example.com', 'PROP-7-UNIT-7');
    const [one, two] = await Promise.all([
      client.applicantGroups.createOnce(body, { extraBody: { screening_profile: null } }),
      client.applicantGroups.createOnce(structuredClone(body), { extraBody: { screening_profile: null } }),
    ]);
    expect(two).toEqual(one);
    expect(mock.stats.count(CREATE)).toBe(1);
  });

  it('concurrent calls whose extraBody lists differ by an undefined item (sent as null) are not one call', async () => {
    const body = groupCreateBody('ana@example.com', 'PROP-7-UNIT-8');
    const [, two] = await Promise.allSettled([
      client.applicantGroups.createOnce(body, { extraBody: { floors: [] } }),
      client.applicantGroups.createOnce(body, { extraBody: { floors: [undefined] } }),
    ]);
    expect(two.status === 'rejected' && two.reason).toBeInstanceOf(CorrelationConflictError);
  });

  it("createOnce's lookup follows the call's options: with maxRetries 0 a failed lookup fails the call, nothing sent", async () => {
    mock.faults.next(1, { status: 503 }, { method: 'GET', path: GROUPS });
    const error = await caught(
      client.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'PROP-7-UNIT-6'), {
        maxRetries: 0,
      }),
    );
    expect(error).toMatchObject({ status: 503 });
    expect(mock.stats.count(LOOKUP)).toBe(1);
    expect(mock.stats.count(CREATE)).toBe(0);
  });

  it('after an unresolved createOnce: the next one does not send; once the outcome is 10 minutes old, it does', async () => {
    const shared = new InProcessCoordination();
    let age = 0;
    // The outcome records as a coordination would hold them `age` ms later.
    const coordination: Coordination = {
      acquireCreateLease: (...args) => shared.acquireCreateLease(...args),
      releaseCreateLease: (lease) => shared.releaseCreateLease(lease),
      recordCreateOutcome: (lease, outcome) => shared.recordCreateOutcome(lease, outcome),
      readCreateOutcome: async (clientId, correlationId) => {
        const record = await shared.readCreateOutcome(clientId, correlationId);
        return record && { ...record, recordedAt: record.recordedAt - age, ageMs: (record.ageMs ?? 0) + age };
      },
      withTokenExchange: (clientId, ttl, exchange) => shared.withTokenExchange(clientId, ttl, exchange),
      publishPause: (clientId, until) => shared.publishPause(clientId, until),
      onPause: (clientId, listener) => shared.onPause(clientId, listener),
    };
    const sdk = clientFor(mock, {
      clock: createTestClock(mock.clock),
      coordination,
    });
    try {
      const body = groupCreateBody('ana@example.com', 'PROP-8-UNIT-3');
      mock.faults.next(1, { status: 503 }, { method: 'POST', path: '/api/v1/applicant_groups' });
      expect(await caught(sdk.applicantGroups.createOnce(body))).toBeInstanceOf(GroupMayHaveBeenCreatedError);
      expect(await caught(sdk.applicantGroups.createOnce(body))).toBeInstanceOf(GroupMayHaveBeenCreatedError);
      expect(mock.stats.count(CREATE)).toBe(1);
      age = 11 * 60_000;
      const late = await sdk.applicantGroups.createOnce(body);
      expect(late.created).toBe(true);
      expect(mock.stats.count(CREATE)).toBe(2);
      expect(mock.groups.applicant()).toHaveLength(1);
    } finally {
      await sdk.close();
    }
  });

  it('createMany with once: a rerun of the batch sends nothing new, and each item says whether it created', async () => {
    const bodies = ['a', 'b', 'c'].map((name) => groupCreateBody(`${name}@example.com`, `BATCH-${name}`));
    const first = await client.applicantGroups.createMany(bodies, { once: true });
    const again = await client.applicantGroups.createMany(bodies, { once: true });
    expect(first.map((result) => result.ok && result.value.created)).toEqual([true, true, true]);
    expect(again.map((result) => result.ok && result.value.created)).toEqual([false, false, false]);
    expect(again.map((result) => result.ok && result.value.group.id)).toEqual(
      first.map((result) => result.ok && result.value.group.id),
    );
    expect(mock.stats.count(CREATE)).toBe(3);
  });
});

describe('createOnce and what earlier creates of the id recorded', () => {
  let mock: MockServer;
  let coordination: InProcessCoordination;
  let sdk: VerificationClient;

  beforeEach(async () => {
    mock = await createMockServer();
    coordination = new InProcessCoordination(() => mock.clock.now());
    sdk = clientFor(mock, { clock: createTestClock(mock.clock), coordination });
  });
  afterEach(async () => {
    await sdk.close();
    await mock.close();
  });

  /** What another holder of the lease records for `correlationId` before it lets go. */
  async function recordedByAnother(correlationId: string, outcome: CreateOutcome): Promise<void> {
    const lease = (await coordination.acquireCreateLease(
      mock.clientId,
      correlationId,
      MINUTE,
    )) as CreateLease;
    await coordination.recordCreateOutcome(lease, outcome);
    await coordination.releaseCreateLease(lease);
  }

  /** A group of `body` created by a client that shares nothing with `sdk`, listed `lagMs` (mock time) late. */
  async function createdElsewhere(body: ApplicantGroupCreateParams, lagMs = 0) {
    if (lagMs > 0) mock.faults.next(1, { listLagMs: lagMs, clock: 'mock' }, { method: 'POST', path: GROUPS });
    const other = clientFor(mock, { coordination: new InProcessCoordination() });
    try {
      return await other.applicantGroups.create(body);
    } finally {
      await other.close();
    }
  }

  it('a create whose group is listed late: createOnce right after waits for it and returns it, created: false, nothing sent again', async () => {
    const body = groupCreateBody('ana@example.com', 'LATE-1');
    mock.faults.next(1, { listLagMs: 10_000, clock: 'mock' }, { method: 'POST', path: GROUPS });
    const created = await sdk.applicantGroups.create(body);
    const started = mock.clock.now();
    expect(await sdk.applicantGroups.createOnce(body)).toEqual({
      group: created,
      created: false,
      via: 'gate',
    });
    expect(mock.stats.count(CREATE)).toBe(1);
    // It returned when the group showed, 10 s on, well before the 30 s grace window ended, after
    // one lookup and five more backing off (0.5, 1, 2, 4 s and 8 s, jittered: 5.6 to 7.5 s, then past 10 s).
    expect(mock.clock.now() - started).toBeGreaterThanOrEqual(10_000);
    expect(mock.clock.now() - started).toBeLessThan(30_000);
    expect(mock.stats.count(LOOKUP)).toBe(6);
  });

  it('a holder that recorded unresolved and whose group is listed late: createOnce waits for it and returns it, created: false', async () => {
    const body = groupCreateBody('ana@example.com', 'LATE-2');
    await recordedByAnother('LATE-2', { state: 'unresolved' });
    const group = await createdElsewhere(body, 5_000);
    // The unresolved create the gate recorded is the one that showed.
    expect(await sdk.applicantGroups.createOnce(body)).toEqual({ group, created: false, via: 'gate' });
    expect(mock.stats.count(CREATE)).toBe(1);
    expect(mock.stats.count(LOOKUP)).toBeGreaterThan(1);
  });

  it('a group recorded as created that never shows: GroupMayHaveBeenCreatedError naming it after the grace window, nothing sent', async () => {
    await recordedByAnother('LATE-3', { state: 'created', id: 'grp_vanished' });
    const started = mock.clock.now();
    const error = await caught(sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'LATE-3')));
    expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect((error as GroupMayHaveBeenCreatedError).correlationId).toBe('LATE-3');
    expect((error as Error).message).toContain(
      'group grp_vanished, recorded as created under it, did not appear in the list within the grace window',
    );
    expect(mock.clock.now() - started).toBeGreaterThanOrEqual(30_000);
    expect(mock.stats.count(CREATE)).toBe(0);
  });

  it('an unresolved create exactly 10 minutes old still holds createOnce back; a moment later it does not', async () => {
    const body = groupCreateBody('ana@example.com', 'LATE-4');
    await recordedByAnother('LATE-4', { state: 'unresolved' });
    mock.clock.advance(10 * MINUTE);
    expect(await caught(sdk.applicantGroups.createOnce(body))).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect(mock.stats.count(CREATE)).toBe(0);
    mock.clock.advance(1);
    expect((await sdk.applicantGroups.createOnce(body)).created).toBe(true);
  });

  it('createOnce records the group it created, by id', async () => {
    const result = await sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'LATE-5'));
    expect(await coordination.readCreateOutcome(mock.clientId, 'LATE-5')).toMatchObject({
      state: 'created',
      id: result.group.id,
    });
  });

  it('a definite 4xx from createOnce is recorded refused: the household is not held back, the next call creates at once', async () => {
    const body = groupCreateBody('ana@example.com', 'LATE-6');
    mock.faults.next(1, { status: 422 }, { method: 'POST', path: GROUPS });
    expect(await caught(sdk.applicantGroups.createOnce(body))).toMatchObject({ status: 422 });
    expect((await coordination.readCreateOutcome(mock.clientId, 'LATE-6'))?.state).toBe('refused');
    const before = mock.clock.now();
    expect((await sdk.applicantGroups.createOnce(body)).created).toBe(true);
    expect(mock.clock.now()).toBe(before);
  });

  it('createOnce that finds a group other than the one recorded records the one it found', async () => {
    const body = groupCreateBody('ana@example.com', 'LATE-7');
    await recordedByAnother('LATE-7', { state: 'created', id: 'grp_older' });
    const group = await createdElsewhere(body);
    // The gate named another group: this one was made by a writer off the gate.
    expect(await sdk.applicantGroups.createOnce(body)).toEqual({ group, created: false, via: 'lookup' });
    expect(await coordination.readCreateOutcome(mock.clientId, 'LATE-7')).toMatchObject({
      state: 'created',
      id: group.id,
    });
  });

  it('createOnce that finds a group the gate has no record of says it was found by lookup (a writer off the gate)', async () => {
    const body = groupCreateBody('ana@example.com', 'LATE-9');
    const group = await createdElsewhere(body);
    expect(await coordination.readCreateOutcome(mock.clientId, 'LATE-9')).toBeUndefined();
    expect(await sdk.applicantGroups.createOnce(body)).toEqual({ group, created: false, via: 'lookup' });
    expect(mock.stats.count(CREATE)).toBe(1);
  });

  it('createOnce that finds the group already recorded leaves the record as it was', async () => {
    const body = groupCreateBody('ana@example.com', 'LATE-8');
    const created = await sdk.applicantGroups.create(body);
    const record = await coordination.readCreateOutcome(mock.clientId, 'LATE-8');
    mock.clock.advance(MINUTE);
    expect(await sdk.applicantGroups.createOnce(body)).toEqual({
      group: created,
      created: false,
      via: 'gate',
    });
    expect(await coordination.readCreateOutcome(mock.clientId, 'LATE-8')).toEqual({
      ...record,
      ageMs: expect.any(Number),
    });
  });
});

describe('createOnce in two processes with one FileCoordination', () => {
  let worker: string;
  let mock: MockServer;
  let dir: string;

  beforeAll(async () => {
    worker = await bundleForNode(
      fileURLToPath(new URL('./create-once-worker.ts', import.meta.url)),
      'create-once-worker',
    );
  });
  afterAll(() => {
    if (worker) removeBundle(worker);
  });
  beforeEach(async () => {
    mock = await createMockServer();
    dir = mkdtempSync(join(tmpdir(), 'av-coordination-'));
  });
  afterEach(async () => {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (household: ApplicantGroupCreateParams, startAt: number) =>
    new Promise<{ id: string; created: boolean }>((resolve, reject) => {
      const env = {
        ...process.env,
        VERIFICATION_BASE_URL: mock.url,
        VERIFICATION_CLIENT_ID: mock.clientId,
        VERIFICATION_SECRET_KEY: mock.secretKey,
        COORDINATION_DIR: dir,
        HOUSEHOLD: JSON.stringify(household),
        START_AT: String(startAt),
      };
      execFile(process.execPath, [worker], { cwd: root, env, timeout: 30_000 }, (error, stdout, stderr) => {
        expose(stdout);
        expose(stderr);
        if (error) reject(new Error(`worker failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim()));
      });
    });

  it('both call at once: exactly one group and one set of invitations, both get it', async () => {
    // The create is held so the second process meets the first one's lease, not its finished group.
    mock.faults.next(1, { commitDelayMs: 300 }, { method: 'POST', path: '/api/v1/applicant_groups' });
    const body = groupCreateBody('ana@example.com', 'PROP-1-UNIT-1A');
    const startAt = Date.now() + 400;
    const results = await Promise.all([run(body, startAt), run(body, startAt)]);
    expect(mock.stats.count(CREATE)).toBe(1);
    const groups = mock.groups.applicant();
    expect(groups).toHaveLength(1);
    expect(results.map((result) => result.id)).toEqual([groups[0]?.id, groups[0]?.id]);
    expect(results.map((result) => result.created).sort()).toEqual([false, true]);
    expect(mock.outbox.forGroup(groups[0]?.id ?? '')).toHaveLength(2);
  });
});
