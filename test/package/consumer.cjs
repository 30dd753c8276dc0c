// A plain JavaScript user with require(), as `.ci/package-checks` runs it from the packed tarball.
const assert = require('node:assert/strict');
const { VerificationClient, VerificationError, VERSION } = require('applicant-verification');
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
