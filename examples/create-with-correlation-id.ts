/**
 * Safe creates. A create emails and texts real people, so the SDK never resends one that may
 * have reached the server, unless it can first check: with a `correlation_id` it lists by that id
 * and returns the group the first attempt created. The mock drops connections on cue to show it:
 *
 *   npx tsx examples/create-with-correlation-id.ts
 */
import {
  type ApplicantGroupCreateParams,
  GroupMayHaveBeenCreatedError,
  VerificationClient,
} from 'applicant-verification';
import { createMockServer } from 'applicant-verification/testing';

const mock = await createMockServer({ seed: 5 });
const client = new VerificationClient({
  baseURL: mock.url,
  clientId: mock.clientId,
  secretKey: mock.secretKey,
  logLevel: 'off', // the recovery is logged at `warn`; this example prints its own lines
});

const application = (correlationId?: string): ApplicantGroupCreateParams => ({
  applicants: [
    { first_name: 'Priya', last_name: 'Natarajan', email: 'priya@example.com', phone_number: '+15125550142' },
  ],
  property: {
    name: 'Riverside Flats',
    street_address: '400 River Rd',
    city: 'Austin',
    state: 'Texas',
    zip_code: '78701',
    unit: '12',
  },
  decision_maker_display_name: 'Riverside Flats LLC',
  monthly_rent: 1725,
  ...(correlationId ? { correlation_id: correlationId } : {}),
});
const creates = () => mock.stats.count('POST /api/v1/applicant_groups');
const dropAfterProcessing = () =>
  mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: '/api/v1/applicant_groups' });

try {
  // 1. With a correlation_id: the server creates the group, then the connection drops before
  //    the answer arrives. The SDK lists by correlation_id, finds the group, and returns it.
  dropAfterProcessing();
  const group = await client.applicantGroups.create(application('lease-2026-0042'));
  console.log(`Created ${group.id} (correlation_id ${group.correlation_id})`);
  console.log(`  connection dropped after the create: POSTs sent ${creates()}, recovered by lookup`);
  console.log(`  invitations sent: ${mock.outbox.forGroup(group.id).length} (one email, one text)`);

  // 2. Rate limited (429): the request provably did not reach the server, so it is resent.
  mock.faults.next(1, { status: 429, retryAfterMs: 200 }, { method: 'POST' });
  const again = await client.applicantGroups.create(application('lease-2026-0043'));
  console.log(`Created ${again.id} after a 429 with retry-after-ms: 200 (POSTs sent so far ${creates()})`);

  // 3. Without a correlation_id the SDK cannot check, so it refuses to resend.
  dropAfterProcessing();
  try {
    await client.applicantGroups.create(application());
  } catch (error) {
    if (!(error instanceof GroupMayHaveBeenCreatedError)) throw error;
    console.log(`Without a correlation_id: ${error.name}`);
    console.log(`  ${error.message}`);
  }
  // That group does exist (with its invitations sent): this is why creates carry a correlation_id.

  // 4. After a crash, reconcile before creating again.
  const existing = await client.applicantGroups.findByCorrelationId('lease-2026-0042');
  console.log(`findByCorrelationId('lease-2026-0042'): ${existing ? existing.id : 'not found'}`);
  console.log(
    `\nGroups on the server: ${mock.groups.applicant().length}; invitations: ${mock.outbox.count()}`,
  );
} finally {
  await client.close();
  await mock.close();
}
