// A plain JavaScript user with import, as `.ci/package-checks` runs it from the packed tarball.
import assert from 'node:assert/strict';
import {
  signWebhook,
  unwrapWebhook,
  VERSION,
  VerificationClient,
  VerificationError,
} from 'applicant-verification';
import { parseHouseholds } from 'applicant-verification/households';
import openapi from 'applicant-verification/openapi.json' with { type: 'json' };
import { RedisCoordinationError } from 'applicant-verification/redis';
import { applicantGroupSchema } from 'applicant-verification/schemas';
import { createMockServer } from 'applicant-verification/testing';

const mock = await createMockServer({ seed: 3 });
const client = new VerificationClient({
  baseURL: mock.url,
  clientId: mock.clientId,
  secretKey: mock.secretKey,
});
try {
  const group = await client.applicantGroups.create({
    applicants: [{ first_name: 'Ima', last_name: 'Import', email: 'ima@example.com' }],
    property: { name: 'P', street_address: '1 Main St', city: 'Austin', state: 'Texas', zip_code: '78701' },
    decision_maker_display_name: 'Import LLC',
    monthly_rent: 1000,
    correlation_id: 'import-1',
  });
  const page = await client.applicantGroups.list({ correlation_id: 'import-1' });
  assert.equal(page.items[0]?.id, group.id);
  assert.equal(applicantGroupSchema.parse(JSON.parse(JSON.stringify(group))).id, group.id);
  // The Redis entry shares the main entry's error classes.
  assert.ok(new RedisCoordinationError('acquireCreateLease', 'down') instanceof VerificationError);
  // The households entry: an office's CSV into the body the client creates (national phone,
  // spreadsheet rent), under the command line's correlation id.
  const parsed = parseHouseholds(
    'household_key,first_name,last_name,email,phone,property_name,street_address,city,state,zip_code,monthly_rent,decision_maker\r\n' +
      'U-1,Hal,Household,hal@example.com,(512) 555-0100,P,1 Main St,Austin,tx,78701," $1,000.00 ",Import LLC\r\n',
    { defaultCountry: 'US' },
  );
  assert.deepEqual(parsed.problems, []);
  const household = parsed.households[0];
  assert.ok(household);
  assert.equal(household.body.applicants[0]?.phone_number, '+15125550100');
  assert.match(household.correlationId, /^cli-[0-9a-f]{16}$/);
  const once = await client.applicantGroups.createOnce(household.body);
  assert.equal(once.created, true);
  const verification = group.applicants[0]?.verifications[0];
  assert.ok(verification);
  const body = JSON.stringify({ code: 'VERIFICATION_STARTED', verification_id: verification.id });
  const event = unwrapWebhook(body, { 'verification-signature': signWebhook(body, 'k') }, 'k');
  assert.equal(event.code, 'VERIFICATION_STARTED');
  assert.equal(openapi.openapi, '3.1.0');
  assert.deepEqual(await (await fetch(`${mock.controlUrl}/openapi.json`)).json(), openapi);
  console.log(
    `import: created and listed ${group.id}, verified a webhook, read openapi.json (SDK ${VERSION})`,
  );
} finally {
  await client.close();
  await mock.close();
}
