/**
 * Testing your integration with `applicant-verification/testing` and vitest: the mock server is a
 * stateful fake of the whole API, so your own code runs unchanged against it and no real person
 * receives an invitation. This file is a vitest test file:
 *
 *   npx vitest run --config examples/vitest.config.ts
 *
 * In your project, put it among your tests (e.g. as `screening.test.ts`) and run `npx vitest`.
 */
import { type ApplicantGroup, affordability, VerificationClient } from 'applicant-verification';
import { createMockServer, type MockServer, REQUEST_EXPIRY_MS } from 'applicant-verification/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// ---- Your integration code (normally imported from your application) ---------------------------

/** Invites the applicants of a lease; safe to call again after a crash. */
async function inviteApplicants(client: VerificationClient, leaseId: string): Promise<ApplicantGroup> {
  const existing = await client.applicantGroups.findByCorrelationId(leaseId);
  if (existing) return existing;
  return client.applicantGroups.create({
    applicants: [
      { first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com', phone_number: '+14155550123' },
    ],
    property: {
      name: 'Harbor View',
      street_address: '120 Harbor Way',
      city: 'San Francisco',
      state: 'California',
      zip_code: '94105',
    },
    decision_maker_display_name: 'Harbor View Property Management',
    monthly_rent: 2850,
    correlation_id: leaseId,
  });
}

/** Household income to rent (the SDK's `affordability`), or `undefined` while no household report exists. */
async function incomeToRent(
  client: VerificationClient,
  group: ApplicantGroup,
): Promise<number | null | undefined> {
  const report = await client.applicantGroups.householdReport(group.id);
  return report && affordability(report).ratio;
}

// ---- The tests --------------------------------------------------------------------------------

describe('screening a lease', () => {
  let mock: MockServer;
  let client: VerificationClient;

  beforeAll(async () => {
    mock = await createMockServer({ seed: 1 });
    client = new VerificationClient({
      baseURL: mock.url,
      clientId: mock.clientId,
      secretKey: mock.secretKey,
      logLevel: 'error', // the recovery in the second test logs a warning
    });
  });
  afterAll(async () => {
    await client.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.outbox.clear();
    mock.faults.clear();
  });

  it('invites each applicant once, by email and text', async () => {
    const group = await inviteApplicants(client, 'lease-1');
    expect(mock.outbox.forGroup(group.id).map((entry) => entry.channel)).toEqual(['email', 'sms']);

    // Calling again (a retried job) finds the group instead of inviting twice.
    const again = await inviteApplicants(client, 'lease-1');
    expect(again.id).toBe(group.id);
    expect(mock.outbox.forGroup(group.id)).toHaveLength(2);
  });

  it('does not invite twice when the connection drops after the create', async () => {
    mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: '/api/v1/applicant_groups' });
    const group = await inviteApplicants(client, 'lease-2');
    expect(mock.outbox.forGroup(group.id)).toHaveLength(2);
    expect(mock.groups.applicant().filter((g) => g.correlation_id === 'lease-2')).toHaveLength(1);
  });

  it('computes income to rent once every applicant has verified', async () => {
    const group = await inviteApplicants(client, 'lease-3');
    expect(await incomeToRent(client, group)).toBeUndefined();

    // Play the applicant: they open the invitation, connect their bank and finish.
    const applicant = group.applicants[0];
    if (!applicant) throw new Error('no applicant');
    mock.applicants.start(applicant.id);
    mock.applicants.complete(applicant.id, 'finished');

    const ratio = await incomeToRent(client, group);
    expect(ratio).toBeGreaterThan(0);
    const [done] = await client.applicantGroups.list({ correlation_id: 'lease-3' }).toArray();
    expect(done?.status).toBe('completed');
  });

  it('sees a request expire after 14 days without sleeping', async () => {
    const group = await inviteApplicants(client, 'lease-4');
    mock.clock.advance(REQUEST_EXPIRY_MS);
    const found = await client.applicantGroups.findByCorrelationId('lease-4');
    expect(found?.id).toBe(group.id);
    expect(found?.is_expired).toBe(true);
  });
});
