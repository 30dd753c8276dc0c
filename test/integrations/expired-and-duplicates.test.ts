/**
 * Expired groups and re-invitations, and duplicate reports beyond `createOnce`'s own
 * (docs/fault-model.md, "A duplicate was reported", "Expired groups and re-invitations"): after 14
 * days a household's group expires; `createOnce` says so (`expired: true`) and sends nothing unless
 * `reinviteExpired: true`, which creates a new group recorded as a re-invitation and never reported
 * as a duplicate. Plain `create`'s recovery lookup that finds several live groups reports them
 * (result listener, log, `alert` channel), and `createMany({ once: true })` carries each item's
 * reports.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AlertTraceEvent,
  type Coordination,
  GroupMayHaveBeenCreatedError,
  InProcessCoordination,
  type Logger,
  type PossibleDuplicate,
  TRACE_STEP_CHANNELS,
  type VerificationClient,
} from '../../src/index.js';
import { createMockServer, createTestClock, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { around, warningsLogger } from '../support/coordination.js';
import { caught } from '../support/exposure.js';
import { clientFor } from '../support/mock-client.js';

const CREATE = 'POST /api/v1/applicant_groups';
const GROUPS = '/api/v1/applicant_groups';
const DAY = 24 * 60 * 60_000;

describe('expired groups and duplicate reports', () => {
  let mock: MockServer;
  let base: InProcessCoordination;
  const clients: VerificationClient[] = [];
  const alerts: AlertTraceEvent[] = [];
  const listen = (message: unknown) => alerts.push(message as AlertTraceEvent);

  beforeEach(async () => {
    mock = await createMockServer();
    base = new InProcessCoordination(() => mock.clock.now());
    alerts.length = 0;
    subscribe(TRACE_STEP_CHANNELS.alert, listen);
  });

  afterEach(async () => {
    unsubscribe(TRACE_STEP_CHANNELS.alert, listen);
    for (const client of clients.splice(0)) await client.close();
    await mock.close();
  });

  function client(coordination: Coordination = base, logger?: Logger): VerificationClient {
    const made = clientFor(mock, {
      clock: createTestClock(mock.clock),
      coordination,
      ...(logger ? { logger, logLevel: 'warn' as const } : {}),
    });
    clients.push(made);
    return made;
  }

  function groupsOf(correlationId: string) {
    return mock.groups.applicant().filter((group) => group.correlation_id === correlationId);
  }

  it('15 days on, createOnce says the group expired and sends nothing', async () => {
    const sdk = client();
    const body = groupCreateBody('ana@example.com', 'EXP-1');
    const first = await sdk.applicantGroups.createOnce(body);
    mock.clock.advance(15 * DAY);
    const again = await sdk.applicantGroups.createOnce(body);
    expect(again).toEqual({
      group: expect.objectContaining({ id: first.group.id, is_expired: true }),
      created: false,
      via: 'gate',
      expired: true,
    });
    expect(Object.keys(again)).toEqual(['group', 'created', 'via', 'expired']);
    expect(mock.stats.count(CREATE)).toBe(1);
    expect(groupsOf('EXP-1')).toHaveLength(1);
    expect(alerts).toEqual([]);
  });

  it('an expired group another writer made: expired, known by the lookup only', async () => {
    const body = groupCreateBody('ana@example.com', 'EXP-2');
    // Made off this client's gate (another coordination), then expired by the mock.
    const made = await client(new InProcessCoordination(() => mock.clock.now())).applicantGroups.create(body);
    mock.groups.expire(made.id);
    const again = await client().applicantGroups.createOnce(body);
    expect(again).toMatchObject({ group: { id: made.id }, created: false, via: 'lookup', expired: true });
    expect(mock.stats.count(CREATE)).toBe(1);
  });

  it('reinviteExpired: a new group, recorded as a re-invitation of the expired one, never a duplicate', async () => {
    const sdk = client();
    const body = groupCreateBody('ana@example.com', 'EXP-3');
    const reports: PossibleDuplicate[] = [];
    const first = await sdk.applicantGroups.createOnce(body);
    mock.clock.advance(15 * DAY);
    const again = await sdk.applicantGroups.createOnce(body, {
      reinviteExpired: true,
      onPossibleDuplicate: (report) => reports.push(report),
    });
    expect(again.created).toBe(true);
    expect(again.reinvitationOf).toBe(first.group.id);
    // Only the fields that say something: no `via` on a create, no `expired`, no empty reports.
    expect(Object.keys(again)).toEqual(['group', 'created', 'reinvitationOf']);
    expect(Object.keys(first)).toEqual(['group', 'created']);
    // One lookup per call: the one before each send (no second look after a create without a report).
    expect(mock.stats.count('GET /api/v1/applicant_groups')).toBe(2);
    expect(again.group.id).not.toBe(first.group.id);
    expect(again.group.is_expired).toBe(false);
    expect(again.expired).toBeUndefined();
    expect(again.duplicates).toBeUndefined();
    expect(groupsOf('EXP-3').map((group) => [group.id, group.is_expired])).toEqual(
      expect.arrayContaining([
        [first.group.id, true],
        [again.group.id, false],
      ]),
    );
    expect(groupsOf('EXP-3')).toHaveLength(2);
    // The new group's applicants are invited again.
    expect(mock.outbox.forGroup(again.group.id)).toHaveLength(2);
    // From now on the live group is the household's: found, not re-invited again, no report.
    const third = await sdk.applicantGroups.createOnce(body, { reinviteExpired: true });
    expect(third).toEqual({ group: again.group, created: false, via: 'gate' });
    expect(mock.stats.count(CREATE)).toBe(2);
    expect(reports).toEqual([]);
    expect(alerts).toEqual([]);
  });

  it('reinviteExpired with a live group: the live group, nothing sent', async () => {
    const sdk = client();
    const body = groupCreateBody('ana@example.com', 'EXP-4');
    const first = await sdk.applicantGroups.createOnce(body);
    const again = await sdk.applicantGroups.createOnce(body, { reinviteExpired: true });
    expect(again).toEqual({ group: first.group, created: false, via: 'gate' });
    expect(mock.stats.count(CREATE)).toBe(1);
  });

  it('a re-invitation sent and unresolved is waited for, not sent again, by a plain call', async () => {
    const sdk = client();
    const body = groupCreateBody('ana@example.com', 'EXP-5');
    const first = await sdk.applicantGroups.createOnce(body);
    mock.clock.advance(15 * DAY);
    // The re-invitation commits but its answer is lost; its group shows at the recovery's lookup.
    mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: GROUPS });
    const reinvited = await sdk.applicantGroups.createOnce(body, { reinviteExpired: true });
    expect(reinvited).toMatchObject({ created: true, reinvitationOf: first.group.id });
    const plain = await sdk.applicantGroups.createOnce(body);
    expect(plain).toEqual({ group: reinvited.group, created: false, via: 'gate' });
    expect(mock.stats.count(CREATE)).toBe(2);
    expect(groupsOf('EXP-5')).toHaveLength(2);
  });

  it('a re-invitation the gate recorded that the list does not show yet is waited for, not called expired', async () => {
    const sdk = client();
    const body = groupCreateBody('ana@example.com', 'EXP-7');
    const first = await sdk.applicantGroups.createOnce(body);
    mock.clock.advance(15 * DAY);
    // The re-invitation's group stays out of the lists for 5 s of mock time.
    mock.faults.next(1, { listLagMs: 5_000, clock: 'mock' }, { method: 'POST', path: GROUPS });
    const reinvited = await sdk.applicantGroups.createOnce(body, { reinviteExpired: true });
    expect(reinvited).toMatchObject({ created: true, reinvitationOf: first.group.id });
    const plain = await sdk.applicantGroups.createOnce(body);
    expect(plain).toEqual({
      group: expect.objectContaining({ id: reinvited.group.id }),
      created: false,
      via: 'gate',
    });
    expect(plain.expired).toBeUndefined();
    expect(mock.stats.count(CREATE)).toBe(2);
  });

  it('a re-invitation that ended unresolved holds the household back 10 minutes, then it is expired again', async () => {
    const sdk = client();
    const body = groupCreateBody('ana@example.com', 'EXP-6');
    const first = await sdk.applicantGroups.createOnce(body);
    mock.clock.advance(15 * DAY);
    // The re-invitation's answer is a 503: nobody knows whether it was created (it was not).
    mock.faults.next(1, { status: 503 }, { method: 'POST', path: GROUPS });
    const lost = await caught(sdk.applicantGroups.createOnce(body, { reinviteExpired: true, maxRetries: 0 }));
    expect(lost).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect(await base.readCreateOutcome(mock.clientId, 'EXP-6')).toMatchObject({ state: 'unresolved' });
    // A plain call does not call the household expired while a re-invitation may exist; a
    // re-inviting call does not send it again.
    expect(await caught(sdk.applicantGroups.createOnce(body))).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect(await caught(sdk.applicantGroups.createOnce(body, { reinviteExpired: true }))).toBeInstanceOf(
      GroupMayHaveBeenCreatedError,
    );
    expect(mock.stats.count(CREATE)).toBe(2);
    // Past the unresolved rule's 10 minutes its group never appeared: expired again, and a
    // re-invitation may go.
    mock.clock.advance(11 * 60_000);
    expect(await sdk.applicantGroups.createOnce(body)).toMatchObject({
      group: { id: first.group.id },
      created: false,
      via: 'lookup',
      expired: true,
    });
    const again = await sdk.applicantGroups.createOnce(body, { reinviteExpired: true });
    expect(again).toMatchObject({ created: true, reinvitationOf: first.group.id });
    expect(mock.stats.count(CREATE)).toBe(3);
    expect(groupsOf('EXP-6')).toHaveLength(2);
  });

  it("plain create's recovery lookup that finds two live groups reports them: listener, alert channel", async () => {
    const sdk = client();
    const body = groupCreateBody('ana@example.com', 'DUP-1');
    const earlier = await sdk.applicantGroups.create(body);
    mock.clock.advance(1_000);
    mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: GROUPS });
    const reports: PossibleDuplicate[] = [];
    const group = await sdk.applicantGroups.create(body, {
      onPossibleDuplicate: (report) => reports.push(report),
    });
    expect(
      groupsOf('DUP-1')
        .map((held) => held.id)
        .sort(),
    ).toEqual([earlier.id, group.id].sort());
    expect(group.id).not.toBe(earlier.id);
    expect(reports).toEqual([
      {
        kind: 'several_groups',
        correlationId: 'DUP-1',
        groupId: group.id,
        otherGroupIds: [earlier.id],
        at: new Date(mock.clock.now()).toISOString(),
        reason:
          'the lookup after an ambiguous failure found 2 live groups of this household created since the call began.',
      },
    ]);
    expect(alerts).toEqual([
      expect.objectContaining({
        code: 'possible_duplicate',
        operation: 'applicantGroups.create',
        details: {
          kind: 'several_groups',
          correlationId: 'DUP-1',
          groupId: group.id,
          otherGroupIds: earlier.id,
          at: new Date(mock.clock.now()).toISOString(),
        },
      }),
    ]);
  });

  it("plain create's lease lost in flight: the listener gets the report", async () => {
    const coordination = around(base, {
      recordCreateOutcome: async (lease, outcome) =>
        outcome.state === 'created' ? false : base.recordCreateOutcome(lease, outcome),
    });
    const log = warningsLogger();
    const sdk = client(coordination, log.logger);
    const reports: PossibleDuplicate[] = [];
    const group = await sdk.applicantGroups.create(groupCreateBody('ana@example.com', 'DUP-2'), {
      onPossibleDuplicate: (report) => {
        reports.push(report);
        throw new Error('a listener that throws');
      },
    });
    expect(reports).toEqual([
      expect.objectContaining({ kind: 'lease_lost_after_send', correlationId: 'DUP-2', groupId: group.id }),
    ]);
    expect(alerts.map((alert) => alert.details?.kind)).toEqual(['lease_lost_after_send']);
    // The listener's own error is said, and changes nothing: the create resolved with its group.
    expect(log.warnings).toContainEqual(
      '[applicant-verification] onPossibleDuplicate threw (Error: a listener that throws); the report stands.',
    );
    expect(groupsOf('DUP-2')).toHaveLength(1);
  });

  it('a plain create without an expired or second group reports nothing', async () => {
    const sdk = client();
    mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: GROUPS });
    const reports: PossibleDuplicate[] = [];
    const group = await sdk.applicantGroups.create(groupCreateBody('ana@example.com', 'DUP-3'), {
      onPossibleDuplicate: (report) => reports.push(report),
    });
    expect(groupsOf('DUP-3').map((held) => held.id)).toEqual([group.id]);
    expect(reports).toEqual([]);
    expect(alerts).toEqual([]);
  });

  it('createMany({ once: true }): each item carries its reports; an expired household is said to be expired', async () => {
    const sdk = client();
    const twice = groupCreateBody('ana@example.com', 'MANY-1');
    const older = await sdk.applicantGroups.create(twice);
    mock.clock.advance(1_000);
    const newer = await sdk.applicantGroups.create(twice);
    const lapsed = groupCreateBody('bo@example.com', 'MANY-2');
    const expired = await sdk.applicantGroups.create(lapsed);
    mock.groups.expire(expired.id);
    const fresh = groupCreateBody('cy@example.com', 'MANY-3');
    const results = await sdk.applicantGroups.createMany([twice, lapsed, fresh], { once: true });
    expect(results.map((item) => item.ok)).toEqual([true, true, true]);
    const [first, second, third] = results.map((item) => (item.ok ? item.value : undefined));
    expect(first).toMatchObject({ group: { id: newer.id }, created: false });
    expect(first?.duplicates).toEqual([
      expect.objectContaining({
        kind: 'several_groups',
        correlationId: 'MANY-1',
        groupId: newer.id,
        otherGroupIds: [older.id],
      }),
    ]);
    expect(second).toEqual({
      group: expect.objectContaining({ id: expired.id }),
      created: false,
      via: 'gate',
      expired: true,
    });
    expect(third).toMatchObject({ created: true });
    expect(third?.duplicates).toBeUndefined();
    expect(mock.stats.count(CREATE)).toBe(4);
    // createMany passes reinviteExpired on to each call.
    const again = await sdk.applicantGroups.createMany([lapsed], {
      once: true,
      request: { reinviteExpired: true },
    });
    expect(again[0]).toMatchObject({ ok: true, value: { created: true, reinvitationOf: expired.id } });
    expect(groupsOf('MANY-2')).toHaveLength(2);
  });
});
