/** Property tests: no response body crashes the client, and no create body gets past validation unchecked. */
import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { US_STATES } from '../../src/helpers/states.js';
import {
  type ApplicantGroupCreateParams,
  RequestValidationError,
  type ScreeningGroupCreateParams,
  VerificationClient,
  VerificationError,
} from '../../src/index.js';
import {
  applicantGroupCreateParamsSchema,
  applicantGroupSchema,
  MONTHLY_RENT_MAX_DOLLARS,
  screeningGroupCreateParamsSchema,
  screeningGroupSchema,
} from '../../src/schemas/index.js';
import { loadFixture } from '../fixtures/load.js';
import { exposeError } from '../support/exposure.js';
import { CLIENT_ID, mintToken, SECRET_KEY } from '../support/http-server.js';

const BASE = 'https://api.verification.test';
let token = '';
const received: unknown[] = [];
let nextResponse: () => Response = () => HttpResponse.json({});

const server = setupServer(
  http.post(
    `${BASE}/api/v1/tenants/auth`,
    () => new HttpResponse(null, { status: 204, headers: { authorization: `Bearer ${token}` } }),
  ),
  http.get(`${BASE}/api/v1/*`, () => nextResponse()),
  http.post(`${BASE}/api/v1/applicant_groups`, async ({ request }) => {
    received.push(await request.json());
    return HttpResponse.json(applicantGroupSchema.parse(loadFixture('applicant-group')));
  }),
  http.post(`${BASE}/api/v1/screening_groups`, async ({ request }) => {
    received.push(await request.json());
    return HttpResponse.json(screeningGroupSchema.parse(loadFixture('screening-group')));
  }),
);
const client = new VerificationClient({
  baseURL: BASE,
  clientId: CLIENT_ID,
  secretKey: SECRET_KEY,
  fetch: true,
  maxRetries: 0,
  logLevel: 'off',
});

beforeAll(async () => {
  token = await mintToken();
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  received.length = 0;
});
afterAll(() => server.close());

async function settle(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error;
  }
}

const calls = [
  () => client.applicantGroups.list(),
  () => client.applicantGroups.listReports('group-1'),
  () => client.reports.retrieve('report-1'),
  () => client.screeningGroups.list(),
];

describe('arbitrary response bodies', () => {
  it('any JSON value: the result parses or the error is a VerificationError', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.constantFrom(200, 201, 400, 404, 410, 422),
        fc.nat(calls.length - 1),
        async (body, status, call) => {
          nextResponse = () => HttpResponse.json(body as never, { status });
          const error = await settle(calls[call]!());
          if (error !== undefined) {
            exposeError(error);
            expect(error).toBeInstanceOf(VerificationError);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('any bytes: the error is a VerificationError, never a SyntaxError or TypeError', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.constantFrom(200, 204, 401, 500, 503),
        fc.nat(calls.length - 1),
        async (bytes, status, call) => {
          nextResponse = () =>
            new HttpResponse(status === 204 ? null : bytes, {
              status,
              headers: { 'content-type': 'application/json' },
            });
          const error = await settle(calls[call]!());
          if (error !== undefined) expect(error).toBeInstanceOf(VerificationError);
        },
      ),
      { numRuns: 150 },
    );
  });
});

// Create bodies: half built from valid parts only (sent), half with wrong parts mixed in (mostly
// rejected). The schema decides which is which; the SDK must send exactly the bodies it accepts.
const validText = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 .'-]{0,19}$/);
const validEmail = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,9}$/), fc.constantFrom('example.com', 'mail.example.org'))
  .map(([local, domain]) => `${local}@${domain}`);
const validPhone = fc.stringMatching(/^\+[1-9]\d{6,14}$/);
const validRent = fc.integer({ min: 1, max: MONTHLY_RENT_MAX_DOLLARS });
const validUrl = fc.constantFrom('https://hooks.example.com/verification', 'http://localhost:8080/hook');
const validState = fc.constantFrom(...US_STATES.map((state) => state.name));

const email = fc.oneof(validEmail, fc.constantFrom('', 'not-an-email', 'a@b', '@example.com'), fc.string());
const phone = fc.oneof(validPhone, fc.constantFrom('4155550123', '+0123', '', '+1 415 555'), fc.string());
const text = fc.oneof(validText, fc.string({ maxLength: 20 }), fc.constantFrom('', '   '), fc.integer());
const rent = fc.oneof(
  validRent,
  fc.integer({ min: -10, max: 5000 }),
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, '1500', 185_000),
);
const url = fc.oneof(validUrl, fc.constantFrom('ftp://x.test/hook', '/relative', 'not a url'));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

interface Parts {
  text: fc.Arbitrary<unknown>;
  email: fc.Arbitrary<unknown>;
  phone: fc.Arbitrary<unknown>;
  rent: fc.Arbitrary<unknown>;
  url: fc.Arbitrary<unknown>;
  state: fc.Arbitrary<unknown>;
  flag: fc.Arbitrary<unknown>;
  /** Fewest applicants: 0 makes a body invalid on its own. */
  minApplicants: number;
}
const validParts: Parts = {
  text: validText,
  email: validEmail,
  phone: validPhone,
  rent: validRent,
  url: validUrl,
  state: validState,
  flag: fc.boolean(),
  minApplicants: 1,
};
const anyParts: Parts = {
  text,
  email,
  phone,
  rent,
  url,
  state: fc.oneof(validState, fc.constantFrom('TX', 'ca', 'Tx', ''), text),
  flag: fc.oneof(fc.boolean(), fc.constant('yes')),
  minApplicants: 0,
};

const applicantGroupBodyOf = (parts: Parts) =>
  fc.record({
    applicants: fc.array(
      fc.record(
        {
          first_name: parts.text,
          last_name: parts.text,
          email: parts.email,
          phone_number: maybe(parts.phone),
        },
        { requiredKeys: ['first_name', 'last_name', 'email'] },
      ),
      { minLength: parts.minApplicants, maxLength: 3 },
    ),
    property: fc.record(
      {
        name: parts.text,
        street_address: parts.text,
        city: parts.text,
        state: parts.state,
        zip_code: parts.text,
        unit: maybe(parts.text),
      },
      { requiredKeys: ['name', 'street_address', 'city', 'state', 'zip_code'] },
    ),
    decision_maker_display_name: parts.text,
    monthly_rent: parts.rent,
    webhook_url: maybe(parts.url),
    correlation_id: maybe(parts.text),
    is_invitation_disabled: maybe(parts.flag),
  });

const screeningGroupBodyOf = (parts: Parts) =>
  fc.record({
    applicants: fc.array(
      fc.record(
        {
          applicant_first_name: parts.text,
          applicant_last_name: parts.text,
          applicant_email: parts.email,
          applicant_phone_number: maybe(parts.phone),
        },
        { requiredKeys: ['applicant_first_name', 'applicant_last_name', 'applicant_email'] },
      ),
      { minLength: parts.minApplicants, maxLength: 3 },
    ),
    property: fc.record({
      name: parts.text,
      street_address: parts.text,
      city: parts.text,
      state: parts.state,
      zip_code: parts.text,
    }),
    is_decision_maker_paying: parts.flag,
    decision_maker_display_name: parts.text,
    monthly_rent: parts.rent,
    webhook_url: maybe(parts.url),
  });

/** Drops the keys fast-check left undefined: an absent optional field, as a caller writes it. */
const withoutUndefined = (body: Record<string, unknown>): unknown =>
  JSON.parse(JSON.stringify(body)) as unknown;

/** Every path of a validation issue leads into the body: each step but the last exists there. */
function expectPathIntoBody(body: unknown, path: string): void {
  const steps = path.split(/\.|\[(\d+)\]/).filter((step) => step !== undefined && step !== '');
  expect(steps.length, `issue path "${path}"`).toBeGreaterThan(0);
  let node: unknown = body;
  for (const step of steps.slice(0, -1)) {
    expect(node, `issue path "${path}"`).toBeTypeOf('object');
    node = (node as Record<string, unknown>)[step];
  }
  expect(node, `issue path "${path}"`).toBeTypeOf('object');
}

const RUNS = 100;

describe.each([
  {
    family: 'applicant groups',
    body: fc.oneof(applicantGroupBodyOf(validParts), applicantGroupBodyOf(anyParts)),
    schema: applicantGroupCreateParamsSchema,
    // The bodies are unknown on purpose: the types would forbid the invalid half.
    create: (body: unknown) => client.applicantGroups.create(body as ApplicantGroupCreateParams),
  },
  {
    family: 'screening groups',
    body: fc.oneof(screeningGroupBodyOf(validParts), screeningGroupBodyOf(anyParts)),
    schema: screeningGroupCreateParamsSchema,
    create: (body: unknown) => client.screeningGroups.create(body as ScreeningGroupCreateParams),
  },
])('arbitrary create bodies: $family', ({ body: bodies, schema, create }) => {
  it('sent as given when the schema accepts them, else rejected before I/O naming paths into the body', async () => {
    let sent = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(bodies, async (generated) => {
        const body = withoutUndefined(generated);
        received.length = 0;
        const valid = schema.safeParse(body).success;
        const error = await settle(create(body));
        if (error !== undefined) exposeError(error);
        expect(error === undefined, String(error)).toBe(valid);
        expect(received).toHaveLength(valid ? 1 : 0);
        if (valid) {
          sent++;
          expect(received[0]).toEqual(body);
          return;
        }
        rejected++;
        expect(error).toBeInstanceOf(RequestValidationError);
        const { issues } = error as RequestValidationError;
        expect(issues.length).toBeGreaterThan(0);
        for (const issue of issues) {
          expectPathIntoBody(body, issue.path);
          expect(issue.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: RUNS },
    );
    // Both outcomes happened often: a third of the runs each, at least.
    expect(sent).toBeGreaterThanOrEqual(RUNS / 3);
    expect(rejected).toBeGreaterThanOrEqual(RUNS / 3);
  });
});
