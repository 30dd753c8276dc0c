// A plain JavaScript user with require(), as `.ci/package-checks` runs it from the packed tarball.
const assert = require('node:assert/strict');
const { VerificationClient, VerificationError, VERSION } = require('applicant-verification');
const { parseHouseholds } = require('applicant-verification/households');
const { RedisCoordinationError } = require('applicant-verification/redis');
const { applicantGroupSchema } = require('applicant-verification/schemas');
const { createMockServer } = require('applicant-verification/testing');
const openapi = require('applicant-verification/openapi.json');

(async () => {
  const mock = await createMockServer({ seed: 2 });
  const client = new VerificationClient({
    baseURL: mock.url,
    clientId: mock.clientId,
    secretKey: mock.secretKey,
  });
  try {
    const group = await client.applicantGroups.create({
      applicants: [{ first_name: 'Riley', last_name: 'Require', email: 'riley@example.com' }],
      property: { name: 'P', street_address: '1 Main St', city: 'Austin', state: 'Texas', zip_code: '78701' },
      decision_maker_display_name: 'Require LLC',
      monthly_rent: 1000,
      correlation_id: 'require-1',
    });
    const page = await client.applicantGroups.list({ correlation_id: 'require-1' });
    assert.equal(page.items[0]?.id, group.id);
    assert.equal(applicantGroupSchema.parse(JSON.parse(JSON.stringify(group))).id, group.id);
    // The Redis entry shares the main entry's error classes.
    assert.ok(new RedisCoordinationError('acquireCreateLease', 'down') instanceof VerificationError);
    // The households entry: an office's CSV into the body the client creates (national phone,
    // spreadsheet rent), under the command line's correlation id.
    const parsed = parseHouseholds(
      'household_key,first_name,last_name,email,phone,property_name,street_address,city,state,zip_code,monthly_rent,decision_maker\r\n' +
        'U-1,Hal,Household,hal@example.com,(512) 555-0100,P,1 Main St,Austin,tx,78701," $1,000.00 ",Require LLC\r\n',
      { defaultCountry: 'US' },
    );
    assert.deepEqual(parsed.problems, []);
    const household = parsed.households[0];
    assert.ok(household);
    assert.equal(household.body.applicants[0]?.phone_number, '+15125550100');
    assert.match(household.correlationId, /^cli-[0-9a-f]{16}$/);
    const once = await client.applicantGroups.createOnce(household.body);
    assert.equal(once.created, true);
    assert.equal(VERSION, require('applicant-verification/package.json').version);
    assert.equal(openapi.openapi, '3.1.0');
    assert.deepEqual(await (await fetch(`${mock.controlUrl}/openapi.json`)).json(), openapi);
    console.log(`require: created and listed ${group.id}, read openapi.json (SDK ${VERSION})`);
  } finally {
    await client.close();
    await mock.close();
  }
})().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
