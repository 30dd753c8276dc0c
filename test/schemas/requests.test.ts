import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../src/core/call/validate.js';
import { RequestValidationError, type ValidationIssue } from '../../src/core/errors.js';
import { monthlyRentProblem } from '../../src/schemas/common.js';
import {
  type ApplicantGroupCreateParams,
  applicantCreateParamsSchema,
  applicantGroupCreateParamsSchema,
  applicantGroupListParamsSchema,
  GROUP_STATUSES,
  MONTHLY_RENT_MAX_DOLLARS,
  propertyCreateParamsSchema,
  REQUEST_INCOME_SOURCES,
  REQUEST_VERIFICATION_TYPES,
  type ScreeningGroupCreateParams,
  screeningApplicantCreateParamsSchema,
  screeningGroupCreateParamsSchema,
  screeningGroupListParamsSchema,
  screeningPropertyCreateParamsSchema,
  verificationRequestSchema,
} from '../../src/schemas/index.js';
import { DELETE, withValue } from '../fixtures/load.js';

/** The issues of the RequestValidationError that parsing `value` must raise. */
function issuesOf(schema: Parameters<typeof parseRequest>[0], value: unknown): ValidationIssue[] {
  try {
    parseRequest(schema, value);
  } catch (error) {
    expect(error).toBeInstanceOf(RequestValidationError);
    if (error instanceof RequestValidationError) return error.issues;
  }
  throw new Error('expected the request to be rejected');
}

function pathsOf(schema: Parameters<typeof parseRequest>[0], value: unknown): string[] {
  return issuesOf(schema, value).map((issue) => issue.path);
}

const applicantGroupBody = {
  applicants: [
    {
      first_name: 'Maya',
      last_name: 'Okafor',
      email: 'maya.okafor@example.com',
      phone_number: '+14155550123',
      verifications: [{ type: 'payroll_income_verification', allowed_income_sources: ['bank', 'payroll'] }],
    },
    { first_name: 'Daniel', last_name: 'Reyes', email: 'daniel.reyes@example.com' },
  ],
  property: {
    name: 'Harbor View Apartments',
    street_address: '120 Harbor Way',
    city: 'San Francisco',
    state: 'CA',
    zip_code: '94105',
    unit: '4B',
  },
  decision_maker_display_name: 'Harbor View Property Management',
  monthly_rent: 2850,
  webhook_url: 'https://hooks.example.com/verification',
  is_invitation_disabled: false,
  correlation_id: 'lease-app-0017',
  config: { block_business_accounts: true },
} satisfies ApplicantGroupCreateParams;

const screeningGroupBody = {
  applicants: [
    { applicant_first_name: 'Priya', applicant_last_name: 'Natarajan', applicant_email: 'priya@example.com' },
    {
      applicant_first_name: 'Sam',
      applicant_last_name: 'Whitfield',
      applicant_email: 'sam@example.com',
      applicant_phone_number: '+442071838750',
    },
  ],
  property: {
    name: 'Oak Terrace',
    street_address: '15 Oak Terrace',
    city: 'Portland',
    zip_code: '97201',
    state: 'Oregon',
  },
  is_decision_maker_paying: true,
  decision_maker_display_name: 'Oak Terrace Leasing LLC',
  monthly_rent: 2100,
  criteria_rule_set_id: 'crs_default_2024',
  webhook_url: 'http://127.0.0.1:8080/hooks',
  is_invitation_disabled: true,
} satisfies ScreeningGroupCreateParams;

describe('applicantGroupCreateParamsSchema', () => {
  it('accepts a full body and returns it unchanged', () => {
    expect(parseRequest(applicantGroupCreateParamsSchema, applicantGroupBody)).toEqual(applicantGroupBody);
  });

  it('accepts the minimal body', () => {
    const body = {
      applicants: [{ first_name: 'A', last_name: 'B', email: 'a@b.co' }],
      property: { name: 'P', street_address: 'S', city: 'C', state: 'Texas', zip_code: '78701' },
      decision_maker_display_name: 'D',
      monthly_rent: 999,
    };
    expect(parseRequest(applicantGroupCreateParamsSchema, body)).toEqual(body);
  });

  it.each(['California', 'california', 'CA', 'ca', ' New York ', 'District of Columbia', 'PR'])(
    'takes property.state %j (a full name or a two-letter code, any case) and sends it as given',
    (state) => {
      const body = withValue(applicantGroupBody, ['property', 'state'], state);
      expect(parseRequest(applicantGroupCreateParamsSchema, body)).toEqual(body);
    },
  );

  it.each([
    ['XX', undefined],
    ['Calif.', 'California'],
    ['Texs', 'Texas'],
    ['C', undefined],
  ])('refuses property.state %j before any I/O, suggesting %j', (state, near) => {
    const issues = issuesOf(
      applicantGroupCreateParamsSchema,
      withValue(applicantGroupBody, ['property', 'state'], state),
    );
    expect(issues.map((issue) => issue.path)).toEqual(['property.state']);
    expect(issues[0]?.message).toContain('must be a US state: its full name or two-letter code');
    if (near) expect(issues[0]?.message).toContain(`did you mean "${near}"?`);
    else expect(issues[0]?.message).not.toContain('did you mean');
  });

  it('names each bad applicant field by index', () => {
    const body = withValue(applicantGroupBody, ['applicants', 1, 'email'], 'not-an-email');
    const issues = issuesOf(applicantGroupCreateParamsSchema, body);
    expect(issues.map((issue) => issue.path)).toEqual(['applicants[1].email']);
    expect(issues[0]?.message).toMatch(/email/);
  });

  it.each([
    [['applicants'], [], 'applicants'],
    [['applicants'], DELETE, 'applicants'],
    [['applicants', 0, 'first_name'], '  ', 'applicants[0].first_name'],
    [['applicants', 1, 'last_name'], DELETE, 'applicants[1].last_name'],
    [['applicants', 0, 'phone_number'], '415-555-0123', 'applicants[0].phone_number'],
    [['applicants', 0, 'verifications', 0, 'type'], 5, 'applicants[0].verifications[0].type'],
    [
      ['applicants', 0, 'verifications', 0, 'allowed_income_sources'],
      'bank',
      'applicants[0].verifications[0].allowed_income_sources',
    ],
    [['property'], DELETE, 'property'],
    [['property', 'zip_code'], '', 'property.zip_code'],
    [['property', 'unit'], 4, 'property.unit'],
    [['decision_maker_display_name'], '', 'decision_maker_display_name'],
    [['monthly_rent'], 0, 'monthly_rent'],
    [['monthly_rent'], '2850', 'monthly_rent'],
    [['webhook_url'], 'hooks.example.com/x', 'webhook_url'],
    [['is_invitation_disabled'], 'true', 'is_invitation_disabled'],
    [['correlation_id'], '', 'correlation_id'],
    [['config', 'block_business_accounts'], 'yes', 'config.block_business_accounts'],
  ] as const)('rejects %j = %j at %s', (path, value, expected) => {
    expect(pathsOf(applicantGroupCreateParamsSchema, withValue(applicantGroupBody, path, value))).toEqual([
      expected,
    ]);
  });

  it('reports every problem at once', () => {
    let body = withValue(applicantGroupBody, ['applicants', 0, 'email'], 'x');
    body = withValue(body, ['applicants', 1, 'phone_number'], '12');
    body = withValue(body, ['monthly_rent'], -5);
    expect(pathsOf(applicantGroupCreateParamsSchema, body)).toEqual([
      'applicants[0].email',
      'applicants[1].phone_number',
      'monthly_rent',
    ]);
  });

  it('does not require a spelled-out state (only the screening family does)', () => {
    expect(() => parseRequest(applicantGroupCreateParamsSchema, applicantGroupBody)).not.toThrow();
  });
});

describe('screeningGroupCreateParamsSchema', () => {
  it('accepts a full body and returns it unchanged', () => {
    expect(parseRequest(screeningGroupCreateParamsSchema, screeningGroupBody)).toEqual(screeningGroupBody);
  });

  it('accepts the deprecated income_multiplier_threshold', () => {
    const body = { ...screeningGroupBody, income_multiplier_threshold: 3 };
    expect(parseRequest(screeningGroupCreateParamsSchema, body).income_multiplier_threshold).toBe(3);
  });

  it('names the bad applicant email by index', () => {
    const body = withValue(screeningGroupBody, ['applicants', 1, 'applicant_email'], 'sam@');
    expect(pathsOf(screeningGroupCreateParamsSchema, body)).toEqual(['applicants[1].applicant_email']);
  });

  it.each([
    ['CA', 'California'],
    ['ny', 'New York'],
    ['DC', 'District of Columbia'],
    ['PR', 'Puerto Rico'],
    [' TX ', 'Texas'],
    ['N.Y.', 'New York'],
  ])('rejects the code %j and names %s', (code, name) => {
    const issues = issuesOf(
      screeningGroupCreateParamsSchema,
      withValue(screeningGroupBody, ['property', 'state'], code),
    );
    expect(issues.map((issue) => issue.path)).toEqual(['property.state']);
    expect(issues[0]?.message).toContain(`use the full state name "${name}"`);
  });

  it('quotes the exact message for CA', () => {
    const issues = issuesOf(
      screeningGroupCreateParamsSchema,
      withValue(screeningGroupBody, ['property', 'state'], 'CA'),
    );
    expect(issues[0]?.message).toContain('use the full state name "California", not "CA"');
  });

  it('rejects any other two-letter value too', () => {
    const issues = issuesOf(
      screeningGroupCreateParamsSchema,
      withValue(screeningGroupBody, ['property', 'state'], 'ZZ'),
    );
    expect(issues.map((issue) => issue.path)).toEqual(['property.state']);
    expect(issues[0]?.message).toMatch(/spelled out/);
  });

  it.each(['California', 'New Hampshire', 'District of Columbia', 'Puerto Rico'])('accepts %s', (state) => {
    expect(() =>
      parseRequest(
        screeningGroupCreateParamsSchema,
        withValue(screeningGroupBody, ['property', 'state'], state),
      ),
    ).not.toThrow();
  });

  it.each([
    [['applicants'], [], 'applicants'],
    [['applicants', 0, 'applicant_first_name'], '', 'applicants[0].applicant_first_name'],
    [['applicants', 0, 'applicant_last_name'], DELETE, 'applicants[0].applicant_last_name'],
    [['applicants', 1, 'applicant_phone_number'], '+0123456789', 'applicants[1].applicant_phone_number'],
    [
      ['applicants', 1, 'applicant_phone_number'],
      '+1234567890123456',
      'applicants[1].applicant_phone_number',
    ],
    [['applicants', 1, 'applicant_phone_number'], '+1 415 555 0123', 'applicants[1].applicant_phone_number'],
    [['property', 'state'], DELETE, 'property.state'],
    [['property', 'city'], DELETE, 'property.city'],
    [['is_decision_maker_paying'], DELETE, 'is_decision_maker_paying'],
    [['is_decision_maker_paying'], 'true', 'is_decision_maker_paying'],
    [['decision_maker_display_name'], DELETE, 'decision_maker_display_name'],
    [['monthly_rent'], -1, 'monthly_rent'],
    [['monthly_rent'], Number.POSITIVE_INFINITY, 'monthly_rent'],
    [['monthly_rent'], Number.NaN, 'monthly_rent'],
    [['income_multiplier_threshold'], 0, 'income_multiplier_threshold'],
    [['criteria_rule_set_id'], '', 'criteria_rule_set_id'],
    [['webhook_url'], 'ftp://hooks.example.com', 'webhook_url'],
    [['webhook_url'], '/relative/path', 'webhook_url'],
    [['is_invitation_disabled'], 1, 'is_invitation_disabled'],
  ] as const)('rejects %j = %j at %s', (path, value, expected) => {
    expect(pathsOf(screeningGroupCreateParamsSchema, withValue(screeningGroupBody, path, value))).toEqual([
      expected,
    ]);
  });
});

describe('shared rule messages', () => {
  it('explains E.164 phone numbers', () => {
    const issues = issuesOf(
      screeningGroupCreateParamsSchema,
      withValue(screeningGroupBody, ['applicants', 0, 'applicant_phone_number'], '(415) 555-0123'),
    );
    expect(issues[0]?.message).toMatch(/E\.164/);
    expect(issues[0]?.message).toMatch(/\+/);
  });

  it.each([0, -100, Number.POSITIVE_INFINITY, '1850'])('says dollars for monthly_rent %j', (rent) => {
    const issues = issuesOf(
      applicantGroupCreateParamsSchema,
      withValue(applicantGroupBody, ['monthly_rent'], rent),
    );
    expect(issues.map((issue) => issue.path)).toEqual(['monthly_rent']);
    expect(issues[0]?.message).toMatch(/dollars/);
  });

  it('says the webhook URL must be absolute http(s)', () => {
    const issues = issuesOf(
      applicantGroupCreateParamsSchema,
      withValue(applicantGroupBody, ['webhook_url'], 'mailto:x@y.z'),
    );
    expect(issues[0]?.message).toMatch(/http/);
  });

  it.each(['+14155550123', '+442071838750', '+8613800138000', '+1234567'])(
    'accepts the phone number %s',
    (phone) => {
      expect(() =>
        parseRequest(
          applicantGroupCreateParamsSchema,
          withValue(applicantGroupBody, ['applicants', 0, 'phone_number'], phone),
        ),
      ).not.toThrow();
    },
  );

  it('the error message names the paths', () => {
    const body = withValue(screeningGroupBody, ['applicants', 1, 'applicant_email'], 'nope');
    expect(() => parseRequest(screeningGroupCreateParamsSchema, body)).toThrow(
      /applicants\[1\]\.applicant_email/,
    );
  });
});

describe('applicantGroupListParamsSchema', () => {
  it('gives an empty query for no filters', () => {
    expect(parseRequest(applicantGroupListParamsSchema, {})).toEqual({});
  });

  it('turns every filter into a query string value', () => {
    const query = parseRequest(applicantGroupListParamsSchema, {
      search: 'Okafor',
      statuses: ['in_progress', 'completed', 'not_started'],
      correlation_id: 'lease-app-0017',
      created_after: new Date('2024-06-01T00:00:00.999Z'),
      created_before: 1717603200.9,
      page: 3,
    });
    expect(query).toEqual({
      search: 'Okafor',
      statuses: 'in_progress,completed,not_started',
      correlation_id: 'lease-app-0017',
      created_after: '1717200000',
      created_before: '1717603200',
      page: '3',
    });
  });

  it('leaves out undefined keys and an empty statuses list', () => {
    expect(
      parseRequest(applicantGroupListParamsSchema, {
        search: undefined,
        statuses: [],
        page: 1,
      }),
    ).toEqual({ page: '1' });
  });

  it.each([
    [{ page: 0 }, 'page'],
    [{ page: 1.5 }, 'page'],
    [{ page: '2' }, 'page'],
    [{ statuses: 'in_progress' }, 'statuses'],
    [{ statuses: ['in_progress', 7] }, 'statuses[1]'],
    [{ statuses: ['a,b'] }, 'statuses[0]'],
    [{ created_after: 'yesterday' }, 'created_after'],
    [{ created_before: new Date('invalid') }, 'created_before'],
    [{ created_before: -1 }, 'created_before'],
    [{ created_after: Number.POSITIVE_INFINITY }, 'created_after'],
    [{ search: 5 }, 'search'],
  ])('rejects %j at %s', (params, expected) => {
    expect(pathsOf(applicantGroupListParamsSchema, params)).toEqual([expected]);
  });

  it('rejects a millisecond timestamp instead of sending it as seconds', () => {
    const issues = issuesOf(applicantGroupListParamsSchema, { created_after: Date.now() });
    expect(issues.map((issue) => issue.path)).toEqual(['created_after']);
    expect(issues[0]?.message).toMatch(/milliseconds/);
  });
});

describe('screeningGroupListParamsSchema', () => {
  it('sends the page as a string', () => {
    expect(parseRequest(screeningGroupListParamsSchema, { page: 2 })).toEqual({ page: '2' });
    expect(parseRequest(screeningGroupListParamsSchema, {})).toEqual({});
  });

  it.each([0, -1, 2.5, '2'])('rejects page %j', (page) => {
    expect(pathsOf(screeningGroupListParamsSchema, { page })).toEqual(['page']);
  });
});

// ---------------------------------------------------------------------------------------------
// Exact requests: unknown keys, camelCase twins, rent rules, enum typos
// ---------------------------------------------------------------------------------------------

type Schema = Parameters<typeof parseRequest>[0];

/** Every object of every request body, with a valid body and the path to that object in it. */
const OBJECTS: ReadonlyArray<
  readonly [string, Schema, unknown, ReadonlyArray<string | number>, readonly string[]]
> = [
  [
    'group create',
    applicantGroupCreateParamsSchema,
    applicantGroupBody,
    [],
    Object.keys(applicantGroupCreateParamsSchema.options[0].shape),
  ],
  [
    'group create applicant',
    applicantGroupCreateParamsSchema,
    applicantGroupBody,
    ['applicants', 0],
    Object.keys(applicantCreateParamsSchema.shape),
  ],
  [
    'group create verification',
    applicantGroupCreateParamsSchema,
    applicantGroupBody,
    ['applicants', 0, 'verifications', 0],
    Object.keys(verificationRequestSchema.shape),
  ],
  [
    'group create property',
    applicantGroupCreateParamsSchema,
    applicantGroupBody,
    ['property'],
    Object.keys(propertyCreateParamsSchema.shape),
  ],
  [
    'group create config',
    applicantGroupCreateParamsSchema,
    applicantGroupBody,
    ['config'],
    ['block_business_accounts'],
  ],
  [
    'screening create',
    screeningGroupCreateParamsSchema,
    screeningGroupBody,
    [],
    Object.keys(screeningGroupCreateParamsSchema.shape),
  ],
  [
    'screening create applicant',
    screeningGroupCreateParamsSchema,
    screeningGroupBody,
    ['applicants', 1],
    Object.keys(screeningApplicantCreateParamsSchema.shape),
  ],
  [
    'screening create property',
    screeningGroupCreateParamsSchema,
    screeningGroupBody,
    ['property'],
    Object.keys(screeningPropertyCreateParamsSchema.shape),
  ],
  [
    'group list',
    applicantGroupListParamsSchema,
    { page: 1 },
    [],
    ['search', 'statuses', 'correlation_id', 'created_after', 'created_before', 'page'],
  ],
  ['screening list', screeningGroupListParamsSchema, { page: 1 }, [], ['page']],
];

const formatted = (path: ReadonlyArray<string | number>): string =>
  path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');

const camel = (key: string): string => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

describe('exact request objects', () => {
  it.each(OBJECTS)(
    '%s: an unknown key is rejected at its own path, naming the escape hatch',
    (_, schema, body, at) => {
      const issues = issuesOf(schema, withValue(body, [...at, 'surprise_field'], 'x'));
      expect(issues.map((issue) => issue.path)).toEqual([formatted([...at, 'surprise_field'])]);
      expect(issues[0]?.message).toContain('unknown field "surprise_field"');
      expect(issues[0]?.message).toMatch(
        schema === applicantGroupListParamsSchema || schema === screeningGroupListParamsSchema
          ? /options\.extraQuery/
          : /options\.extraBody/,
      );
    },
  );

  const twins = OBJECTS.flatMap(([name, schema, body, at, keys]) =>
    keys
      .filter((key) => key.includes('_'))
      .map((key) => [`${name}: ${camel(key)}`, schema, body, at, key] as const),
  );

  it('covers a camelCase twin of every snake_case field', () => {
    expect(twins.length).toBeGreaterThan(25);
  });

  it.each(twins)('%s is rejected with a did-you-mean', (_, schema, body, at, key) => {
    const issues = issuesOf(schema, withValue(body, [...at, camel(key)], 'x'));
    expect(issues.map((issue) => issue.path)).toEqual([formatted([...at, camel(key)])]);
    expect(issues[0]?.message).toContain(`did you mean "${key}"?`);
  });

  it.each([
    [applicantGroupCreateParamsSchema, applicantGroupBody, ['applicants', 0, 'phone'], 'phone_number'],
    [
      screeningGroupCreateParamsSchema,
      screeningGroupBody,
      ['applicants', 0, 'phone'],
      'applicant_phone_number',
    ],
    [screeningGroupCreateParamsSchema, screeningGroupBody, ['applicants', 0, 'email'], 'applicant_email'],
    [applicantGroupCreateParamsSchema, applicantGroupBody, ['corelation_id'], 'correlation_id'],
    [applicantGroupCreateParamsSchema, applicantGroupBody, ['webhookURL'], 'webhook_url'],
    [applicantGroupListParamsSchema, {}, ['status'], 'statuses'],
  ] as const)('suggests %# the field meant', (schema, body, path, meant) => {
    const issues = issuesOf(schema, withValue(body, path, 'x'));
    expect(issues[0]?.path).toBe(formatted(path));
    expect(issues[0]?.message).toContain(`did you mean "${meant}"?`);
  });

  it('the error message quotes the issue: correlationId names correlation_id', () => {
    expect(() =>
      parseRequest(applicantGroupCreateParamsSchema, { ...applicantGroupBody, correlationId: 'lease-1' }),
    ).toThrow(/correlationId: unknown field "correlationId" \(did you mean "correlation_id"\?\)/);
  });
});

describe('monthly_rent: a whole, positive number of dollars under the ceiling', () => {
  it.each([1, 850, 2850, MONTHLY_RENT_MAX_DOLLARS])('accepts %d', (rent) => {
    for (const [schema, body] of [
      [applicantGroupCreateParamsSchema, applicantGroupBody],
      [screeningGroupCreateParamsSchema, screeningGroupBody],
    ] as const) {
      expect(() => parseRequest(schema, { ...body, monthly_rent: rent })).not.toThrow();
    }
  });

  it.each([
    [1850.555, /whole number of dollars/],
    [0.001, /whole number of dollars|positive/],
    [999.99, /whole number of dollars/],
    [1e300, /dollars, not cents/],
    [185_000, /185000 looks like cents \(1850 dollars\?\)/],
    [MONTHLY_RENT_MAX_DOLLARS + 1, /at most 100000 dollars/],
    [0, /positive/],
    [-1850, /positive/],
    [Number.NaN, /number of dollars/],
  ])('rejects %d saying %s, in both families', (rent, message) => {
    for (const [schema, body] of [
      [applicantGroupCreateParamsSchema, applicantGroupBody],
      [screeningGroupCreateParamsSchema, screeningGroupBody],
    ] as const) {
      const issues = issuesOf(schema, { ...body, monthly_rent: rent });
      expect(issues.map((issue) => issue.path)).toEqual(['monthly_rent']);
      expect(issues[0]?.message).toMatch(message);
    }
  });

  it('exports the rule the mock applies too', () => {
    expect(monthlyRentProblem(2850)).toBeUndefined();
    expect(monthlyRentProblem(185_000)).toMatch(/in dollars, not cents/);
    expect(monthlyRentProblem('2850')).toMatch(/number of dollars/);
  });
});

describe('request enums: only the values the API documents', () => {
  it('a status filter takes any string: the service documents pending, outside the spec', () => {
    expect(parseRequest(applicantGroupListParamsSchema, { statuses: ['pending', 'in_progress'] })).toEqual({
      statuses: 'pending,in_progress',
    });
    expect(parseRequest(applicantGroupListParamsSchema, { statuses: ['archived'] })).toEqual({
      statuses: 'archived',
    });
  });

  it.each([
    [['applicants', 0, 'verifications', 0, 'type'], 'income_verification', REQUEST_VERIFICATION_TYPES],
    [['applicants', 0, 'verifications', 0, 'type'], 'identity', REQUEST_VERIFICATION_TYPES],
    [['applicants', 0, 'verifications', 0, 'allowed_income_sources', 0], 'documents', REQUEST_INCOME_SOURCES],
    [['applicants', 0, 'verifications', 0, 'allowed_income_sources', 0], 'Bank', REQUEST_INCOME_SOURCES],
  ] as const)('rejects %j = %j, listing the allowed values', (path, value, allowed) => {
    const issues = issuesOf(applicantGroupCreateParamsSchema, withValue(applicantGroupBody, path, value));
    expect(issues.map((issue) => issue.path)).toEqual([formatted(path)]);
    expect(issues[0]?.message).toContain(`must be one of ${allowed.join(', ')}`);
  });

  it('accepts every documented value', () => {
    for (const type of REQUEST_VERIFICATION_TYPES) {
      const body = withValue(applicantGroupBody, ['applicants', 0, 'verifications', 0], {
        type,
        allowed_income_sources: [...REQUEST_INCOME_SOURCES],
      });
      expect(() => parseRequest(applicantGroupCreateParamsSchema, body)).not.toThrow();
    }
    expect(parseRequest(applicantGroupListParamsSchema, { statuses: [...GROUP_STATUSES] })).toEqual({
      statuses: GROUP_STATUSES.join(','),
    });
  });
});
