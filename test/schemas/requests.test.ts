import { describe, expect, it } from 'vitest';
import { RequestValidationError, type ValidationIssue } from '../../src/core/errors.js';
import { parseRequest } from '../../src/core/validate.js';
import {
  type ApplicantGroupCreateParams,
  applicantGroupCreateParamsSchema,
  applicantGroupListParamsSchema,
  type ScreeningGroupCreateParams,
  screeningGroupCreateParamsSchema,
  screeningGroupListParamsSchema,
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

  it('accepts the minimal body and unknown fields (newer API versions) and open-enum values', () => {
    const body = {
      applicants: [
        { first_name: 'A', last_name: 'B', email: 'a@b.co', verifications: [{ type: 'rental_history' }] },
      ],
      property: { name: 'P', street_address: 'S', city: 'C', state: 'Texas', zip_code: '78701' },
      decision_maker_display_name: 'D',
      monthly_rent: 999.99,
      future_flag: 'on',
      config: { block_business_accounts: false, some_new_option: 1 },
    };
    expect(parseRequest(applicantGroupCreateParamsSchema, body)).toEqual(body);
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
      statuses: ['in_progress', 'completed', 'pending'],
      correlation_id: 'lease-app-0017',
      created_after: new Date('2024-06-01T00:00:00.999Z'),
      created_before: 1717603200.9,
      page: 3,
    });
    expect(query).toEqual({
      search: 'Okafor',
      statuses: 'in_progress,completed,pending',
      correlation_id: 'lease-app-0017',
      created_after: '1717200000',
      created_before: '1717603200',
      page: '3',
    });
  });

  it('leaves out undefined keys, an empty statuses list and unknown keys', () => {
    expect(
      parseRequest(applicantGroupListParamsSchema, {
        search: undefined,
        statuses: [],
        page: 1,
        unknown_filter: 'x',
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
