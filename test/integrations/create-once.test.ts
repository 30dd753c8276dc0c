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
    expect(second).toEqual({ group: first.group, created: false });
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

  it('a concurrent call with a different body: CorrelationConflictError, only the first is sent', async () => {
    const body = groupCreateBody('ana@example.com', 'PROP-7-UNIT-2');
    const [first, second] = await Promise.allSettled([
      client.applicantGroups.createOnce(body),
      client.applicantGroups.createOnce({ ...body, monthly_rent: 2100 }),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(second.status === 'rejected' && second.reason).toBeInstanceOf(CorrelationConflictError);
    expect((second as PromiseRejectedResult).reason.differences).toEqual([
      { kind: 'monthly_rent', groupCents: 195_000, intendedCents: 210_000 },
    ]);
    expect(mock.stats.count(CREATE)).toBe(1);
  });

  it('without a correlation_id: RequestValidationError naming it, before any request', async () => {
    const { correlation_id: _, ...body } = groupCreateBody('ana@example.com', 'x');
    const error = await caught(client.applicantGroups.createOnce(body));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toBe('correlation_id');
    expect(mock.stats.count()).toBe(0);
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
        return record && { ...record, recordedAt: record.recordedAt - age };
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
