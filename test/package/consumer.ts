/**
 * A user's TypeScript project, as `.ci/package-checks` builds it from the packed tarball: one
 * file compiled under each `module` setting it tests (node16, nodenext, bundler, commonjs) with
 * strict options, then run on Node 20 and Node 24. Every entry point, one real call to the mock.
 */
import { strict as assert } from 'node:assert';
import { type ApplicantGroup, VERSION, VerificationClient, VerificationError } from 'applicant-verification';
import { parseHouseholds } from 'applicant-verification/households';
import { RedisCoordination, RedisCoordinationError, RedisTokenStore } from 'applicant-verification/redis';
import { applicantGroupSchema } from 'applicant-verification/schemas';
import { createMockServer, type MockServer } from 'applicant-verification/testing';
import type { Redis } from 'ioredis';

const correlationId = 'consumer-1';

async function main(): Promise<void> {
  const mock: MockServer = await createMockServer({ seed: 1 });
  const client = new VerificationClient({
    baseURL: mock.url,
    clientId: mock.clientId,
    secretKey: mock.secretKey,
  });
  try {
    const group: ApplicantGroup = await client.applicantGroups.create({
      applicants: [{ first_name: 'Casey', last_name: 'Consumer', email: 'casey@example.com' }],
      property: { name: 'P', street_address: '1 Main St', city: 'Austin', state: 'Texas', zip_code: '78701' },
      decision_maker_display_name: 'Consumer LLC',
      monthly_rent: 1000,
      correlation_id: correlationId,
    });
    const page = await client.applicantGroups.list({ correlation_id: correlationId });
    assert.equal(page.items[0]?.id, group.id);
    // The schemas entry checks a stored group as the client checked the response, with the same type.
    const stored: ApplicantGroup = applicantGroupSchema.parse(JSON.parse(JSON.stringify(group)));
    assert.equal(stored.id, group.id);
    // The Redis entry shares the main entry's error classes (one copy of each, whatever the module system).
    assert.ok(new RedisCoordinationError('acquireCreateLease', 'down') instanceof VerificationError);
    // The households entry: an office's CSV into the body the client creates (national phone,
    // spreadsheet rent), under the command line's correlation id.
    const parsed = parseHouseholds(
      'household_key,first_name,last_name,email,phone,property_name,street_address,city,state,zip_code,monthly_rent,decision_maker\r\n' +
        'U-1,Hal,Household,hal@example.com,(512) 555-0100,P,1 Main St,Austin,tx,78701," $1,000.00 ",Consumer LLC\r\n',
      { defaultCountry: 'US' },
    );
    assert.deepEqual(parsed.problems, []);
    const household = parsed.households[0];
    assert.ok(household);
    assert.equal(household.body.applicants[0]?.phone_number, '+15125550100');
    assert.match(household.correlationId, /^cli-[0-9a-f]{16}$/);
    const once = await client.applicantGroups.createOnce(household.body);
    assert.equal(once.created, true);
    console.log(`${process.env.CONSUMER ?? 'consumer'}: created and listed ${group.id} (SDK ${VERSION})`);
  } finally {
    await client.close();
    await mock.close();
  }
}

/** Never called: the types are real, not `any`, or the `@ts-expect-error` below fails the check. */
export function rejectsWrongTypes(client: VerificationClient): Promise<ApplicantGroup> {
  return client.applicantGroups.create({
    applicants: [{ first_name: 'A', last_name: 'B', email: 'a@example.com' }],
    property: { name: 'P', street_address: '1 Main St', city: 'Austin', state: 'Texas', zip_code: '78701' },
    decision_maker_display_name: 'D',
    // @ts-expect-error monthly_rent is a number of dollars
    monthly_rent: '1000',
  });
}

/** Never called: a fleet's client, with the Redis entry's classes on an ioredis connection (the optional peer). */
export function fleetClient(redis: Redis, clientId: string, secretKey: string): VerificationClient {
  // @ts-expect-error a connection, not a URL
  void new RedisCoordination('redis://localhost');
  const root = new VerificationClient({
    clientId,
    secretKey,
    coordination: new RedisCoordination(redis),
    tokenStore: new RedisTokenStore(redis), // every account's token
  });
  // A platform's other account, on the root's connections.
  return root.withOptions({ clientId: `${clientId}-landlord`, secretKey });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
