/** Property tests: no response body crashes the client, and no create body gets past validation unchecked. */
import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  applicantGroupCreateParamsSchema,
  applicantGroupSchema,
  RequestValidationError,
  screeningGroupCreateParamsSchema,
  screeningGroupSchema,
  VerificationClient,
  VerificationError,
} from '../../src/index.js';
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

// Create bodies that are valid, nearly valid, or wrong in one or more places.
const email = fc.oneof(
  fc.emailAddress(),
  fc.constantFrom('', 'not-an-email', 'a@b', '@example.com'),
  fc.string(),
);
const phone = fc.oneof(
  fc.constantFrom('+14155550123', '+442071838750', '4155550123', '+0123', '', '+1 415 555'),
  fc.string(),
);
const text = fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.constantFrom('', '   '), fc.integer());
const rent = fc.oneof(
  fc.integer({ min: -10, max: 5000 }),
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, '1500'),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const applicantGroupBody = fc.record(
  {
    applicants: fc.array(
      fc.record(
        { first_name: text, last_name: text, email, phone_number: maybe(phone) },
        { requiredKeys: ['first_name', 'last_name', 'email'] },
      ),
      { maxLength: 3 },
    ),
    property: fc.record({
      name: text,
      street_address: text,
      city: text,
      state: text,
      zip_code: text,
      unit: maybe(text),
    }),
    decision_maker_display_name: text,
    monthly_rent: rent,
    webhook_url: maybe(fc.oneof(fc.webUrl(), fc.constantFrom('ftp://x.test/hook', '/relative', 'not a url'))),
    correlation_id: maybe(fc.oneof(fc.string({ minLength: 1 }), fc.constant(''))),
    is_invitation_disabled: maybe(fc.oneof(fc.boolean(), fc.constant('yes'))),
  },
  { requiredKeys: [] },
);

const screeningGroupBody = fc.record(
  {
    applicants: fc.array(
      fc.record({
        applicant_first_name: text,
        applicant_last_name: text,
        applicant_email: email,
        applicant_phone_number: maybe(phone),
      }),
      { maxLength: 3 },
    ),
    property: fc.record({
      name: text,
      street_address: text,
      city: text,
      state: fc.constantFrom('Texas', 'TX', 'California', 'ca', 'Tx', ''),
      zip_code: text,
    }),
    is_decision_maker_paying: fc.oneof(fc.boolean(), fc.constant('true')),
    decision_maker_display_name: text,
    monthly_rent: rent,
  },
  { requiredKeys: [] },
);

describe('arbitrary create bodies', () => {
  it('applicant groups: either sent valid, or rejected before I/O with paths', async () => {
    await fc.assert(
      fc.asyncProperty(applicantGroupBody, async (body) => {
        received.length = 0;
        // biome-ignore lint/suspicious/noExplicitAny: the point is to send bodies the types forbid
        const error = await settle(client.applicantGroups.create(body as any));
        if (error === undefined) {
          expect(received).toHaveLength(1);
          expect(applicantGroupCreateParamsSchema.safeParse(received[0]).success).toBe(true);
        } else {
          exposeError(error);
          expect(error).toBeInstanceOf(RequestValidationError);
          expect(received).toHaveLength(0);
          for (const issue of (error as RequestValidationError).issues) {
            expect(typeof issue.path).toBe('string');
            expect(issue.message.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('screening groups: either sent valid, or rejected before I/O with paths', async () => {
    await fc.assert(
      fc.asyncProperty(screeningGroupBody, async (body) => {
        received.length = 0;
        // biome-ignore lint/suspicious/noExplicitAny: the point is to send bodies the types forbid
        const error = await settle(client.screeningGroups.create(body as any));
        if (error === undefined) {
          expect(received).toHaveLength(1);
          expect(screeningGroupCreateParamsSchema.safeParse(received[0]).success).toBe(true);
        } else {
          expect(error).toBeInstanceOf(RequestValidationError);
          expect(received).toHaveLength(0);
        }
      }),
      { numRuns: 200 },
    );
  });
});
