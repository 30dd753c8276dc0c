/**
 * The lease is checked in each attempt, just before the request leaves (docs/fault-model.md,
 * "Process paused"): a lease lost while the create waited (a 429's pause, a stalled process) stops
 * it unsent with `CreateLeaseLostError`; a lease about to lapse is not used where the coordination
 * cannot renew it; an outcome write refused after the request left is reported as a possible
 * duplicate, on the result and on the tracing `alert` channel; a lookup finding two live groups of
 * one household reports them.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AlertTraceEvent,
  type Coordination,
  CreateLeaseLostError,
  InProcessCoordination,
  TRACE_STEP_CHANNELS,
  type VerificationClient,
} from '../../src/index.js';
import { createMockServer, createTestClock, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { around, warningsLogger } from '../support/coordination.js';
import { caught } from '../support/exposure.js';
import { clientFor } from '../support/mock-client.js';

const CREATE = 'POST /api/v1/applicant_groups';
const GROUPS = { method: 'POST', path: '/api/v1/applicant_groups' };

describe('the lease, checked in each attempt', () => {
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

  function client(coordination: Coordination) {
    const log = warningsLogger();
    const made = clientFor(mock, {
      clock: createTestClock(mock.clock),
      coordination,
      logger: log.logger,
      logLevel: 'warn',
    });
    clients.push(made);
    return { sdk: made, warnings: log.warnings };
  }

  it('a lease lost while the create waited out a 429: the resend is not sent, and its unresolved becomes refused', async () => {
    let renewals = 0;
    const coordination = around(base, {
      // The second renewal (before the resend) finds another holder took the key meanwhile.
      renewCreateLease: async (lease, ttl) =>
        ++renewals === 2 ? undefined : base.renewCreateLease(lease, ttl),
    });
    const { sdk, warnings } = client(coordination);
    mock.faults.next(1, { status: 429, retryAfter: 1 }, GROUPS);
    const error = await caught(sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'LOST-1')));
    expect(error).toBeInstanceOf(CreateLeaseLostError);
    expect(error).toMatchObject({ correlationId: 'LOST-1', reason: 'superseded', requestSent: false });
    expect(renewals).toBe(2);
    expect(mock.stats.count(CREATE)).toBe(1);
    expect(mock.groups.applicant()).toEqual([]);
    // Its own unresolved is corrected: the next holder may send.
    expect(await base.readCreateOutcome(mock.clientId, 'LOST-1')).toMatchObject({ state: 'refused' });
    expect(warnings).toContainEqual(
      expect.stringContaining('createOnce (correlation_id "LOST-1") stopped before sending'),
    );
    const again = await sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'LOST-1'));
    expect(again.created).toBe(true);
    expect(mock.groups.applicant()).toHaveLength(1);
  });

  it('without renewCreateLease, a lease with less time left than the attempt is not used', async () => {
    const coordination = around(base, {
      acquireCreateLease: async (clientId, correlationId) =>
        base.acquireCreateLease(clientId, correlationId, 10),
    });
    const { sdk } = client(coordination);
    const error = await caught(sdk.applicantGroups.create(groupCreateBody('ana@example.com', 'LOST-2')));
    expect(error).toBeInstanceOf(CreateLeaseLostError);
    expect(error).toMatchObject({ reason: 'expiring' });
    expect(mock.stats.count(CREATE)).toBe(0);
  });

  it('the lease is renewed before the request leaves, for the whole create', async () => {
    const renewed: number[] = [];
    const coordination = around(base, {
      renewCreateLease: async (lease, ttl) => {
        renewed.push(ttl);
        return base.renewCreateLease(lease, ttl);
      },
    });
    const { sdk } = client(coordination);
    const result = await sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'LOST-3'));
    expect(result.created).toBe(true);
    // Once, for the create's whole lease (twice its budget), before its one attempt.
    expect(renewed).toEqual([expect.any(Number)]);
    expect(renewed[0]).toBeGreaterThan(60_000);
    expect(await base.readCreateOutcome(mock.clientId, 'LOST-3')).toMatchObject({
      state: 'created',
      ageMs: 0,
    });
  });

  it('an outcome refused after the request left is a possible duplicate: on the result, in the log, on the alert channel', async () => {
    const alerts: AlertTraceEvent[] = [];
    const listen = (message: unknown) => alerts.push(message as AlertTraceEvent);
    subscribe(TRACE_STEP_CHANNELS.alert, listen);
    try {
      const coordination = around(base, {
        recordCreateOutcome: async (lease, outcome) =>
          outcome.state === 'created' ? false : base.recordCreateOutcome(lease, outcome),
      });
      const { sdk } = client(coordination);
      const result = await sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'LOST-4'));
      expect(result.created).toBe(true);
      expect(result.duplicates).toEqual([
        {
          kind: 'lease_lost_after_send',
          correlationId: 'LOST-4',
          groupId: result.group.id,
          otherGroupIds: [],
          at: new Date(mock.clock.now()).toISOString(),
          reason: expect.stringContaining('lost while the request was in flight'),
        },
      ]);
      expect(alerts).toEqual([
        expect.objectContaining({
          code: 'possible_duplicate',
          details: expect.objectContaining({ kind: 'lease_lost_after_send', correlationId: 'LOST-4' }),
        }),
      ]);
    } finally {
      unsubscribe(TRACE_STEP_CHANNELS.alert, listen);
    }
  });

  it('two live groups of one household: createOnce returns the newest and reports the other', async () => {
    const { sdk } = client(base);
    const body = groupCreateBody('ana@example.com', 'LOST-5');
    const older = await sdk.applicantGroups.create(body);
    mock.clock.advance(1_000);
    const newer = await sdk.applicantGroups.create(body);
    const result = await sdk.applicantGroups.createOnce(body);
    expect(result).toMatchObject({ group: { id: newer.id }, created: false });
    expect(result.duplicates).toEqual([
      expect.objectContaining({ kind: 'several_groups', groupId: newer.id, otherGroupIds: [older.id] }),
    ]);
  });
});
