/**
 * `createOnce` and what it reads back (docs/safe-creates.md, "Which clock"; docs/fault-model.md):
 * ages come from the coordination (`ageMs`), with the process clock only as the fallback of a
 * coordination without it; the 10-minute rule settles only an `unresolved` record, never a
 * `created` one; and a lease lost in flight is followed by one more lookup that names the
 * household's other group.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CreateOutcome,
  GroupMayHaveBeenCreatedError,
  InProcessCoordination,
  type VerificationClient,
} from '../../src/index.js';
import { createMockServer, createTestClock, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { around } from '../support/coordination.js';
import { caught } from '../support/exposure.js';
import { clientFor } from '../support/mock-client.js';

const CREATE = 'POST /api/v1/applicant_groups';
const ELEVEN_MINUTES = 11 * 60_000;

describe('createOnce reads ages from the coordination', () => {
  let mock: MockServer;
  let base: InProcessCoordination;
  const clients: VerificationClient[] = [];

  beforeEach(async () => {
    mock = await createMockServer();
    base = new InProcessCoordination(() => mock.clock.now());
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await mock.close();
  });

  function client(coordination: ReturnType<typeof around> | InProcessCoordination): VerificationClient {
    const made = clientFor(mock, { clock: createTestClock(mock.clock), coordination, logLevel: 'off' });
    clients.push(made);
    return made;
  }

  it('without ageMs, an unresolved record 11 minutes old by recordedAt is settled: the household is created', async () => {
    const lease = await base.acquireCreateLease(mock.clientId, 'AGE-1', 1);
    if (!lease) throw new Error('a lease expected');
    await base.recordCreateOutcome(lease, { state: 'unresolved' });
    const coordination = around(base, {
      readCreateOutcome: async (clientId, correlationId) => {
        const record = await base.readCreateOutcome(clientId, correlationId);
        return record && { ...record, recordedAt: record.recordedAt - ELEVEN_MINUTES, ageMs: undefined };
      },
    });
    mock.clock.advance(10);
    const result = await client(coordination).applicantGroups.createOnce(
      groupCreateBody('ana@example.com', 'AGE-1'),
    );
    expect(result.created).toBe(true);
  });

  it('a created record 11 minutes old whose group is not listed is not settled: nothing is sent', async () => {
    const lease = await base.acquireCreateLease(mock.clientId, 'AGE-2', 1);
    if (!lease) throw new Error('a lease expected');
    await base.recordCreateOutcome(lease, { state: 'created', id: 'grp_missing' });
    const coordination = around(base, {
      readCreateOutcome: async (clientId, correlationId) => {
        const record = await base.readCreateOutcome(clientId, correlationId);
        return record && { ...record, ageMs: ELEVEN_MINUTES };
      },
    });
    mock.clock.advance(10);
    const error = await caught(
      client(coordination).applicantGroups.createOnce(groupCreateBody('ana@example.com', 'AGE-2')),
    );
    expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect(mock.stats.count(CREATE)).toBe(0);
  });

  it('a lease lost in flight while another holder created the household: one more lookup names its group', async () => {
    const other = client(new InProcessCoordination(() => mock.clock.now()));
    let otherId: string | undefined;
    const coordination = around(base, {
      renewCreateLease: (lease, ttl) => base.renewCreateLease(lease, ttl),
      recordCreateOutcome: async (lease, outcome) => {
        if (outcome.state !== 'created') return base.recordCreateOutcome(lease, outcome);
        // Redis lost the lease meanwhile, and another process created the household too.
        mock.clock.advance(1_000);
        otherId = (await other.applicantGroups.create(groupCreateBody('ana@example.com', 'AGE-3'))).id;
        return false;
      },
    });
    const result = await client(coordination).applicantGroups.createOnce(
      groupCreateBody('ana@example.com', 'AGE-3'),
    );
    expect(result.created).toBe(true);
    expect(otherId).toBeDefined();
    expect(result.duplicates).toEqual([
      expect.objectContaining({ kind: 'lease_lost_after_send', groupId: result.group.id, otherGroupIds: [] }),
      expect.objectContaining({
        kind: 'several_groups',
        groupId: result.group.id,
        otherGroupIds: [otherId],
        reason:
          'after the lease was lost, a lookup found 2 live groups of this household under its correlation id.',
      }),
    ]);
  });

  it('a lease lost in flight with no other group: only the lease report', async () => {
    const coordination = around(base, {
      renewCreateLease: (lease, ttl) => base.renewCreateLease(lease, ttl),
      recordCreateOutcome: async (lease, outcome) =>
        outcome.state === 'created' ? false : base.recordCreateOutcome(lease, outcome),
    });
    const result = await client(coordination).applicantGroups.createOnce(
      groupCreateBody('ana@example.com', 'AGE-4'),
    );
    expect(result.duplicates?.map((report) => report.kind)).toEqual(['lease_lost_after_send']);
  });

  /**
   * A coordination whose lease lapses while the create is in flight: before the holder records its
   * group, the next holder takes the lease and records `nextRecords(the holder's outcome)`.
   */
  function lostInFlight(nextRecords: (outcome: CreateOutcome) => CreateOutcome) {
    return around(base, {
      renewCreateLease: (lease, ttl) => base.renewCreateLease(lease, ttl),
      recordCreateOutcome: async (lease, outcome) => {
        if (outcome.state !== 'created') return base.recordCreateOutcome(lease, outcome);
        mock.clock.advance(24 * 60 * 60_000);
        const next = await base.acquireCreateLease(lease.clientId, lease.correlationId, 60_000);
        if (!next) throw new Error('the next holder expected the lease');
        await base.recordCreateOutcome(next, nextRecords(outcome));
        return base.recordCreateOutcome(lease, outcome);
      },
    });
  }

  it('a lease lost in flight whose group the next holder already recorded: no report, one group', async () => {
    // The next holder's lookup found this very group and recorded it.
    const result = await client(lostInFlight((outcome) => outcome)).applicantGroups.createOnce(
      groupCreateBody('ana@example.com', 'AGE-6'),
    );
    expect(result.created).toBe(true);
    expect(result.duplicates).toBeUndefined();
    expect(mock.groups.applicant().map((group) => group.id)).toEqual([result.group.id]);
    expect(await base.readCreateOutcome(mock.clientId, 'AGE-6')).toMatchObject({
      state: 'created',
      id: result.group.id,
      fence: 2,
    });
  });

  it('a lease lost in flight whose record names another group: reported', async () => {
    const result = await client(
      lostInFlight(() => ({ state: 'created', id: 'grp_other' })),
    ).applicantGroups.createOnce(groupCreateBody('ana@example.com', 'AGE-7'));
    expect(result.duplicates?.map((report) => report.kind)).toEqual(['lease_lost_after_send']);
  });

  it('two live groups found by the first lookup: the report says so', async () => {
    const sdk = client(base);
    const body = groupCreateBody('ana@example.com', 'AGE-5');
    await sdk.applicantGroups.create(body);
    mock.clock.advance(1_000);
    await sdk.applicantGroups.create(body);
    const result = await sdk.applicantGroups.createOnce(body);
    expect(result.duplicates?.[0]?.reason).toBe(
      'the lookup found 2 live groups of this household under its correlation id.',
    );
  });
});
