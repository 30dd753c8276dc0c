import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRequest, parseResponse } from '../../src/core/call/validate.js';
import { formatPath, RequestValidationError, ResponseValidationError } from '../../src/core/errors.js';
import { US_STATES } from '../../src/helpers/states.js';
import { monthlyRentProblem } from '../../src/schemas/common.js';
import {
  applicantGroupCreateParamsSchema,
  applicantGroupListParamsSchema,
  applicantGroupListResponseSchema,
  applicantGroupReportsSchema,
  applicantGroupSchema,
  applicantSchema,
  bankConnectionSchema,
  criteriaRuleResultSchema,
  fraudRiskSignalSchema,
  incomeReportDataSchema,
  incomeStreamSchema,
  incomeSummarySchema,
  MONTHLY_RENT_MAX_DOLLARS,
  payrollConnectionSchema,
  paystubSchema,
  propertySchema,
  reportDetailSchema,
  reportSummarySchema,
  screeningGroupCreateParamsSchema,
  screeningGroupListParamsSchema,
  screeningGroupListResponseSchema,
  screeningGroupSchema,
  screeningSchema,
  transactionSchema,
  uploadedDocumentSchema,
  verificationReportSchema,
  verificationSchema,
} from '../../src/schemas/index.js';
import { FIXTURE_SCHEMAS, loadFixture, withValue } from '../fixtures/load.js';

type AnySchema = Parameters<typeof parseResponse>[0];

const responseSchemas: Record<string, AnySchema> = {
  propertySchema,
  verificationSchema,
  applicantSchema,
  applicantGroupSchema,
  applicantGroupListResponseSchema,
  reportSummarySchema,
  applicantGroupReportsSchema,
  reportDetailSchema,
  incomeReportDataSchema,
  verificationReportSchema,
  incomeSummarySchema,
  incomeStreamSchema,
  transactionSchema,
  paystubSchema,
  bankConnectionSchema,
  payrollConnectionSchema,
  uploadedDocumentSchema,
  fraudRiskSignalSchema,
  criteriaRuleResultSchema,
  screeningSchema,
  screeningGroupSchema,
  screeningGroupListResponseSchema,
};

/** Outcome of a response parse: parsed, or a ResponseValidationError. Anything else is rethrown. */
function tryParseResponse(
  schema: AnySchema,
  body: unknown,
): { ok: true } | { ok: false; error: ResponseValidationError } {
  try {
    parseResponse(schema, body);
    return { ok: true };
  } catch (error) {
    if (error instanceof ResponseValidationError) return { ok: false, error };
    throw error;
  }
}

describe('response schemas never throw anything but ResponseValidationError', () => {
  it.each(Object.entries(responseSchemas))('%s on any JSON value', (_name, schema) => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const outcome = tryParseResponse(schema, body);
        if (!outcome.ok) {
          expect(outcome.error.issues.length).toBeGreaterThan(0);
          expect(outcome.error.body).toBe(body);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('warn mode returns the body as received instead of throwing', () => {
    // Only bodies the schema rejects: any JSON value, and the fixture with one value replaced.
    const fixture = loadFixture('applicant-group');
    const invalid = fc
      .oneof(
        fc.jsonValue(),
        fc
          .tuple(fc.constantFrom(...pathsIn(fixture)), fc.jsonValue())
          .map(([path, replacement]) => withValue(fixture, path, replacement)),
      )
      .filter((body) => !applicantGroupSchema.safeParse(body).success);
    fc.assert(
      fc.property(invalid, (body) => {
        const warnings: string[] = [];
        const logger = {
          debug: () => {},
          info: () => {},
          warn: (message: string) => warnings.push(message),
          error: () => {},
        };
        const result: unknown = parseResponse(applicantGroupSchema, body, { mode: 'warn', logger });
        expect(result).toBe(body);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toContain("validation: 'warn', returning the body as received");
      }),
      { numRuns: 100 },
    );
  });
});

/** Every path to a value inside a JSON document. */
function pathsIn(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [];
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      out.push([...prefix, index], ...pathsIn(item, [...prefix, index]));
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value))
      out.push([...prefix, key], ...pathsIn(item, [...prefix, key]));
  }
  return out;
}

const fixtureSchemas = FIXTURE_SCHEMAS;

describe('a fixture with one value replaced', () => {
  it.each(fixtureSchemas)('%s: parses, or fails only at or under the replaced path', (name, schema) => {
    const fixture = loadFixture(name);
    const paths = pathsIn(fixture);
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.jsonValue(), (path, replacement) => {
        const outcome = tryParseResponse(schema, withValue(fixture, path, replacement));
        if (outcome.ok) return;
        // Switching report_type moves validation of `data` to the other report shape.
        if (path.at(-1) === 'report_type') return;
        const where = formatPath(path);
        for (const issue of outcome.error.issues) expect(issue.path.startsWith(where)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

const word = fc.stringMatching(/^[A-Za-z][A-Za-z '-]{0,20}$/);
const email = fc
  .tuple(
    fc.stringMatching(/^[a-z][a-z0-9.]{0,10}[a-z0-9]$/),
    fc.stringMatching(/^[a-z]{2,10}$/),
    fc.constantFrom('com', 'org', 'io'),
  )
  .filter(([local]) => !local.includes('..'))
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
const phone = fc.stringMatching(/^\+[1-9]\d{6,14}$/);
/** A valid rent: whole dollars up to the ceiling. */
const rent = fc.integer({ min: 1, max: MONTHLY_RENT_MAX_DOLLARS });
/** A rent of any kind: valid, fractional, cents-like or huge. */
const anyRent = fc.oneof(rent, fc.double({ min: -10, max: 1e12, noNaN: true }));
const stateName = fc.constantFrom(...US_STATES.map((state) => state.name));

/** How a body generator draws each field: always valid, or mostly plausible. */
type Pick = <T>(valid: fc.Arbitrary<T>, wrong?: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>;
/** Every field valid: the body must pass. */
const valid: Pick = (arbitrary) => arbitrary;
/** Either a valid value, a wrong one, a random JSON value, or nothing: mostly-plausible bodies. */
const maybe: Pick = (arbitrary, wrong) =>
  fc.oneof({ weight: 4, arbitrary }, ...(wrong ? [wrong] : []), fc.jsonValue(), fc.constant(undefined));

const webUrl = fc.webUrl({ validSchemes: ['http', 'https'] });
const zip = fc.stringMatching(/^\d{5}$/);

const applicantGroupBodyOf = (pick: Pick) =>
  fc.record(
    {
      applicants: pick(
        fc.array(
          fc.record(
            {
              first_name: pick(word),
              last_name: pick(word),
              email: pick(email),
              phone_number: pick(phone),
              verifications: pick(
                fc.array(fc.record({ type: pick(fc.constant('identity_verification'), fc.constant('x')) })),
              ),
            },
            { requiredKeys: ['first_name', 'last_name', 'email'] },
          ),
          { minLength: 1, maxLength: 3 },
        ),
      ),
      property: pick(
        fc.record({ name: word, street_address: word, city: word, state: stateName, zip_code: zip }),
      ),
      decision_maker_display_name: pick(word),
      monthly_rent: pick(rent, anyRent),
      webhook_url: pick(webUrl),
      is_invitation_disabled: pick(fc.boolean()),
      correlation_id: pick(word),
    },
    { requiredKeys: ['applicants', 'property', 'decision_maker_display_name', 'monthly_rent'] },
  );

const screeningGroupBodyOf = (pick: Pick) =>
  fc.record(
    {
      applicants: pick(
        fc.array(
          fc.record(
            {
              applicant_first_name: pick(word),
              applicant_last_name: pick(word),
              applicant_email: pick(email),
              applicant_phone_number: pick(phone),
            },
            { requiredKeys: ['applicant_first_name', 'applicant_last_name', 'applicant_email'] },
          ),
          { minLength: 1, maxLength: 3 },
        ),
      ),
      property: pick(
        fc.record({
          name: word,
          street_address: word,
          city: word,
          zip_code: zip,
          state: pick(
            stateName,
            fc.oneof(fc.constantFrom(...US_STATES.map((state) => state.code)), fc.string()),
          ),
        }),
      ),
      is_decision_maker_paying: pick(fc.boolean()),
      decision_maker_display_name: pick(word),
      monthly_rent: pick(rent, anyRent),
      income_multiplier_threshold: pick(fc.double({ min: 0.1, max: 10, noNaN: true })),
      criteria_rule_set_id: pick(word),
      webhook_url: pick(webUrl),
    },
    {
      requiredKeys: [
        'applicants',
        'property',
        'is_decision_maker_paying',
        'decision_maker_display_name',
        'monthly_rent',
      ],
    },
  );

/** Half the bodies valid in every field, half mostly plausible. */
const applicantGroupBody = fc.oneof(applicantGroupBodyOf(valid), applicantGroupBodyOf(maybe));
const screeningGroupBody = fc.oneof(screeningGroupBodyOf(valid), screeningGroupBodyOf(maybe));

/** Drops the keys fast-check left undefined: an absent optional field, as a caller writes it. */
function withoutUndefined(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body)) as unknown;
}

/** Passes `body` as given, or rejects it with issues that each name a path and say what is wrong. */
function checkRequest(schema: AnySchema, body: unknown): 'passed' | 'rejected' {
  try {
    const parsed: unknown = parseRequest(schema, body);
    // Create bodies are checked, not rewritten: what passes is sent as given.
    expect(parsed).toEqual(body);
    return 'passed';
  } catch (error) {
    expect(error).toBeInstanceOf(RequestValidationError);
    if (!(error instanceof RequestValidationError)) throw error;
    expect(error.issues.length).toBeGreaterThan(0);
    for (const issue of error.issues) {
      expect(issue.message.trim()).not.toBe('');
      expect(typeof issue.path).toBe('string');
    }
    return 'rejected';
  }
}

const NEAR_VALID_RUNS = 200;

/** Runs `checkRequest` over `bodies`: both outcomes must each come up in a third of the runs. */
function expectBothOutcomes(schema: AnySchema, bodies: fc.Arbitrary<unknown>): void {
  const seen = { passed: 0, rejected: 0 };
  fc.assert(
    fc.property(bodies, (body) => {
      seen[checkRequest(schema, withoutUndefined(body))]++;
    }),
    { numRuns: NEAR_VALID_RUNS },
  );
  expect(seen.passed).toBeGreaterThanOrEqual(NEAR_VALID_RUNS / 3);
  expect(seen.rejected).toBeGreaterThanOrEqual(NEAR_VALID_RUNS / 3);
}

describe('request schemas pass a body or reject it with RequestValidationError', () => {
  it('monthly_rent passes exactly when it is whole dollars from 1 to the ceiling', () => {
    fc.assert(
      fc.property(anyRent, (value) => {
        const valid = Number.isInteger(value) && value >= 1 && value <= MONTHLY_RENT_MAX_DOLLARS;
        expect(monthlyRentProblem(value) === undefined).toBe(valid);
        if (value > MONTHLY_RENT_MAX_DOLLARS) expect(monthlyRentProblem(value)).toMatch(/not cents/);
      }),
    );
  });

  it('applicant group create: valid and near-valid bodies', () => {
    expectBothOutcomes(applicantGroupCreateParamsSchema, applicantGroupBody);
  });

  it('screening group create: valid and near-valid bodies', () => {
    expectBothOutcomes(screeningGroupCreateParamsSchema, screeningGroupBody);
  });

  it('both creates: any value at all', () => {
    fc.assert(
      fc.property(fc.anything(), (body) => {
        checkRequest(applicantGroupCreateParamsSchema, body);
        checkRequest(screeningGroupCreateParamsSchema, body);
      }),
    );
  });

  it('valid screening bodies always pass, and every state code is rejected naming the state', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ applicant_first_name: word, applicant_last_name: word, applicant_email: email }),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        stateName,
        rent,
        fc.constantFrom(...US_STATES),
        (applicants, state, monthlyRent, coded) => {
          const body = {
            applicants,
            property: { name: 'P', street_address: '1 Main St', city: 'Town', zip_code: '12345', state },
            is_decision_maker_paying: false,
            decision_maker_display_name: 'Owner',
            monthly_rent: monthlyRent,
          };
          expect(parseRequest(screeningGroupCreateParamsSchema, body)).toEqual(body);
          const coded_body = withValue(body, ['property', 'state'], coded.code);
          try {
            parseRequest(screeningGroupCreateParamsSchema, coded_body);
            expect.unreachable('a state code must be rejected');
          } catch (error) {
            expect(error).toBeInstanceOf(RequestValidationError);
            if (!(error instanceof RequestValidationError)) throw error;
            expect(error.issues.map((issue) => issue.path)).toEqual(['property.state']);
            expect(error.issues[0]?.message).toContain(`"${coded.name}"`);
          }
        },
      ),
    );
  });
});

describe('list params', () => {
  const listParams = fc.record(
    {
      search: maybe(fc.string()),
      statuses: maybe(fc.array(fc.constantFrom('not_started', 'in_progress', 'completed', 'archived'))),
      correlation_id: maybe(fc.string()),
      created_after: maybe(
        fc.oneof(fc.double({ min: 0, max: 4e9, noNaN: true }), fc.date({ noInvalidDate: true })),
      ),
      created_before: maybe(fc.oneof(fc.integer({ min: 0, max: 4e9 }), fc.double({ noNaN: true }))),
      page: maybe(fc.integer({ min: 1, max: 10_000 })),
    },
    { requiredKeys: [] },
  );

  it('give a record of strings with only the keys given, or a RequestValidationError', () => {
    fc.assert(
      fc.property(listParams, (params) => {
        let query: Record<string, string>;
        try {
          query = parseRequest(applicantGroupListParamsSchema, params);
        } catch (error) {
          expect(error).toBeInstanceOf(RequestValidationError);
          return;
        }
        for (const [key, value] of Object.entries(query)) {
          expect(typeof value).toBe('string');
          expect((params as Record<string, unknown>)[key]).not.toBeUndefined();
        }
        for (const key of ['created_after', 'created_before', 'page'] as const) {
          if (query[key] !== undefined) expect(query[key]).toMatch(/^-?\d+$/);
        }
      }),
    );
  });

  it('round-trip Dates to whole Unix seconds', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }), (date) => {
        const query = parseRequest(applicantGroupListParamsSchema, { created_after: date });
        expect(Number(query.created_after)).toBe(Math.floor(date.getTime() / 1000));
      }),
    );
  });

  it('screening list pages become strings', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (page) => {
        expect(parseRequest(screeningGroupListParamsSchema, { page })).toEqual({ page: String(page) });
      }),
    );
  });
});
