/**
 * The per-attempt lease check's refusals, one at a time (docs/safe-creates.md, "The create gate"):
 * the lease renewed but its `unresolved` refused (a newer holder wrote between the two), and a
 * create stopped before anything left records no `refused` over another holder's work.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateLeaseLostError, InProcessCoordination, type VerificationClient } from '../../src/index.js';
import { createMockServer, createTestClock, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { around, warningsLogger } from '../support/coordination.js';
import { caught } from '../support/exposure.js';
import { clientFor } from '../support/mock-client.js';

const CREATE = 'POST /api/v1/applicant_groups';

describe('the per-attempt lease check refuses', () => {
  let mock: MockServer;
  let base: InProcessCoordination;
  let sdk: VerificationClient | undefined;

  beforeEach(async () => {
    mock = await createMockServer();
    base = new InProcessCoordination(() => mock.clock.now());
  });

  afterEach(async () => {
    await sdk?.close();
    await mock.close();
  });

  it('a renewed lease whose unresolved is refused: nothing sent, nothing recorded after', async () => {
    const written: string[] = [];
    const coordination = around(base, {
      renewCreateLease: (lease, ttl) => base.renewCreateLease(lease, ttl),
      recordCreateOutcome: async (lease, outcome) => {
        written.push(outcome.state);
        return outcome.state === 'unresolved' ? false : base.recordCreateOutcome(lease, outcome);
      },
    });
    const log = warningsLogger();
    sdk = clientFor(mock, {
      clock: createTestClock(mock.clock),
      coordination,
      logger: log.logger,
      logLevel: 'warn',
    });
    const error = await caught(sdk.applicantGroups.create(groupCreateBody('ana@example.com', 'REF-1')));
    expect(error).toBeInstanceOf(CreateLeaseLostError);
    expect(error).toMatchObject({ reason: 'superseded', correlationId: 'REF-1' });
    expect(mock.stats.count(CREATE)).toBe(0);
    // Refused, not re-recorded as refused: its one write was the unresolved the coordination refused.
    expect(written).toEqual(['unresolved']);
    expect(log.warnings).toEqual([
      expect.stringContaining('create (correlation_id "REF-1") stopped before sending'),
    ]);
  });

  it("a lease lost before the first attempt records nothing: the key stays the other holder's", async () => {
    const written: string[] = [];
    const coordination = around(base, {
      renewCreateLease: async () => undefined,
      recordCreateOutcome: async (lease, outcome) => {
        written.push(outcome.state);
        return base.recordCreateOutcome(lease, outcome);
      },
    });
    sdk = clientFor(mock, { clock: createTestClock(mock.clock), coordination, logLevel: 'off' });
    const error = await caught(sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'REF-2')));
    expect(error).toBeInstanceOf(CreateLeaseLostError);
    expect(written).toEqual([]);
    expect(await base.readCreateOutcome(mock.clientId, 'REF-2')).toBeUndefined();
  });

  it('an outcome write that fails after the request left is logged once and reported', async () => {
    const coordination = around(base, {
      renewCreateLease: (lease, ttl) => base.renewCreateLease(lease, ttl),
      recordCreateOutcome: async (lease, outcome) => {
        if (outcome.state === 'created') throw new Error('connection reset');
        return base.recordCreateOutcome(lease, outcome);
      },
    });
    const log = warningsLogger();
    sdk = clientFor(mock, {
      clock: createTestClock(mock.clock),
      coordination,
      logger: log.logger,
      logLevel: 'warn',
    });
    const result = await sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'REF-3'));
    expect(result.created).toBe(true);
    expect(result.duplicates).toEqual([
      expect.objectContaining({ kind: 'lease_lost_after_send', correlationId: 'REF-3' }),
    ]);
    expect(log.warnings).toEqual([
      expect.stringContaining(
        `createOnce (correlation_id "REF-3"): the create's outcome could not be recorded (Error: connection reset).`,
      ),
    ]);
  });
});
