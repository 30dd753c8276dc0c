/**
 * The service's own documented example payloads (docs/wire-contract.md §11), through the schemas
 * and through the resources over loopback HTTP: what its reference pages show must be read (and,
 * for requests, sent) as the SDK documents.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  isCombinedScreeningReport,
  RequestValidationError,
  signWebhook,
  unwrapWebhook,
  VerificationClient,
  WEBHOOK_SIGNATURE_HEADER,
} from '../../src/index.js';
import { applicantGroupCreateWireSchema } from '../../src/schemas/applicant-groups.js';
import {
  applicantGroupCreateParamsSchema,
  reportDetailSchema,
  screeningGroupReportUrlSchema,
  screeningGroupSchema,
  screeningReportDataSchema,
} from '../../src/schemas/index.js';
import { CLIENT_ID, mintToken, SECRET_KEY, startServer, type TestServer } from '../support/http-server.js';

function fixture(name: string): string {
  return readFileSync(new URL(`../fixtures/service-reference/${name}`, import.meta.url), 'utf8');
}
const json = (name: string): unknown => JSON.parse(fixture(name));

const servers: TestServer[] = [];
const clients: VerificationClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all(servers.map((server) => server.close()));
});

async function serve(routes: Parameters<typeof startServer>[0], apiRentUnit?: 'dollars' | 'cents') {
  const token = await mintToken();
  const server = await startServer({
    'POST /api/v1/tenants/auth': () => ({ status: 200, headers: { authorization: `Bearer ${token}` } }),
    ...routes,
  });
  servers.push(server);
  const client = new VerificationClient({
    baseURL: server.url,
    clientId: CLIENT_ID,
    secretKey: SECRET_KEY,
    logLevel: 'off',
    maxRetries: 0,
    ...(apiRentUnit ? { apiRentUnit } : {}),
  });
  clients.push(client);
  return { server, client };
}

describe('the create request example (its rent is in cents)', () => {
  const example = json('applicant-group-create-request.json');

  it('a dollars client refuses monthly_rent 250000 as cents given as dollars', () => {
    const result = applicantGroupCreateParamsSchema.safeParse(example);
    expect(result.success).toBe(false);
    expect(result.error?.issues.some((issue) => issue.message.includes('looks like cents'))).toBe(true);
  });

  it('a cents client sends it unchanged: monthly_rent 250000 on the wire, nothing else changed', async () => {
    const wire = applicantGroupCreateWireSchema('cents').parse({
      ...(example as object),
      monthly_rent: undefined,
      monthly_rent_cents: 250_000,
    });
    expect(wire).toEqual(example);
    const { server, client } = await serve(
      {
        'POST /api/v1/applicant_groups': () => ({
          body: {
            id: '550e8400-e29b-41d4-a716-446655440000',
            decision_maker_display_name: 'ABC Property Management',
            property: {
              id: '123e4567-e89b-12d3-a456-426614174000',
              name: 'ABC Apartments',
              street_address: '123 Main Street',
              city: 'San Francisco',
              state: 'CA',
              zip_code: '94102',
            },
            // The create example answers `pending`, outside the spec's status values.
            status: 'pending',
            created_at_timestamp: 1640995200.123,
            monthly_rent_cents: 250000,
            unit_number: '2A',
            unit_id: null,
            is_free: false,
            is_decision_maker_paying: true,
            correlation_id: 'PROP-123-UNIT-456',
            verification_types: ['asset_verification'],
            is_expired: false,
            applicants: [],
          },
        }),
      },
      'cents',
    );
    const group = await client.applicantGroups.create({
      applicants: [
        {
          first_name: 'Jane',
          last_name: 'Doe',
          email: 'jane.doe@example.com',
          phone_number: '+19842342345',
          verifications: [{ type: 'asset_verification' }],
        },
      ],
      property: {
        name: 'ABC Apartments',
        street_address: '123 Main Street',
        city: 'San Francisco',
        state: 'CA',
        zip_code: '94102',
        unit: '2A',
      },
      decision_maker_display_name: 'ABC Property Management',
      monthly_rent: 2500,
      webhook_url: 'https://www.yourwebsite.com/webhook',
      is_invitation_disabled: true,
      correlation_id: 'PROP-123-UNIT-456',
    });
    expect(group.status).toBe('pending');
    expect(server.to('/api/v1/applicant_groups').map((request) => JSON.parse(request.body))).toEqual([
      example,
    ]);
  });

  it('a dollars client given the same rent in cents sends 2500', () => {
    const wire = applicantGroupCreateWireSchema('dollars').parse({
      ...(example as object),
      monthly_rent: undefined,
      monthly_rent_cents: 250_000,
    });
    expect(wire).toEqual({ ...(example as object), monthly_rent: 2500 });
  });

  it('the spec and the reference disagree: without apiRentUnit nothing sends 250000 dollars', async () => {
    const { server, client } = await serve({});
    await expect(client.applicantGroups.create(example as never)).rejects.toThrow(RequestValidationError);
    expect(server.to('/api/v1/applicant_groups')).toEqual([]);
  });
});

describe('the report example', () => {
  it('parses, its placeholder data kept as sent', async () => {
    const example = json('report-detail.json');
    expect(reportDetailSchema.parse(example)).toEqual(example);
    const { client } = await serve({
      'GET /api/v1/reports/550e8400-e29b-41d4-a716-446655440000': () => ({ body: example }),
    });
    const report = await client.reports.retrieve('550e8400-e29b-41d4-a716-446655440000');
    expect(report).toEqual(example);
  });
});

describe('the screening-group example (no is_expired, decision maker, correlation id or threshold)', () => {
  const text = fixture('screening-group.json');
  const example = JSON.parse(text) as Record<string, unknown>;

  it('parses: is_report_expired is the last of its two values, null', () => {
    expect(example.is_report_expired).toBeNull();
    const group = screeningGroupSchema.parse(example);
    expect(group).toEqual(example);
    expect(group.is_expired).toBeUndefined();
    expect(group.decision_maker_display_name).toBeUndefined();
  });

  it('is what screeningGroups.retrieve returns, and its report link is read', async () => {
    const id = '905963d4-0649-4046-8f39-7997a9e45ed4';
    const url = json('screening-group-report-url.json');
    expect(screeningGroupReportUrlSchema.parse(url)).toEqual(url);
    const { server, client } = await serve({
      [`GET /api/v1/screening_groups/${id}`]: () => ({ body: text }),
      [`GET /api/v1/screening_groups/${id}/report`]: () => ({ body: url }),
    });
    expect(await client.screeningGroups.retrieve(id)).toEqual(example);
    expect(await client.screeningGroups.reportUrl(id)).toEqual(url);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/v1/tenants/auth',
      `GET /api/v1/screening_groups/${id}`,
      `GET /api/v1/screening_groups/${id}/report`,
    ]);
  });

  it('screening-group create takes correlation_id, sent as given', async () => {
    const { server, client } = await serve({
      'POST /api/v1/screening_groups': () => ({ body: text }),
    });
    await client.screeningGroups.create({
      applicants: [
        {
          applicant_first_name: 'John',
          applicant_last_name: 'Smith',
          applicant_email: 'john.smith@example.com',
        },
      ],
      property: {
        name: 'Test Property',
        street_address: '1234 Pike St.',
        city: 'Seattle',
        state: 'Washington',
        zip_code: '98101',
      },
      is_decision_maker_paying: true,
      decision_maker_display_name: 'Test PM',
      monthly_rent: 2000,
      correlation_id: 'UNIT-101',
    });
    expect(JSON.parse(server.to('/api/v1/screening_groups')[0]?.body ?? '{}')).toMatchObject({
      correlation_id: 'UNIT-101',
      monthly_rent: 2000,
    });
  });
});

describe('the older report data (its start, as the pages show it)', () => {
  const individual = {
    total_net_income: 12000.5,
    two_month_avg_monthly_net_income: 2000,
    three_month_avg_monthly_net_income: 2000,
    six_month_avg_monthly_net_income: 2000,
    nine_month_avg_monthly_net_income: null,
    twelve_month_avg_monthly_net_income: null,
    total_non_recurring_deposits: 150,
    summary_timespan_length: 239,
    bank_connections: [
      {
        accounts: [{ name: 'Checking', type: 'Checking', available_balance: null, current_balance: 812.4 }],
        income: {
          total_net_income: 12000.5,
          income_streams: [
            { name: 'ACME', transactions: [{ amount: 1000, name: 'ACME PAYROLL', date: '11/15/2019' }] },
          ],
        },
      },
    ],
    a_field_added_later: true,
  };

  it('individual and combined shapes parse, unknown fields kept', () => {
    const one = screeningReportDataSchema.parse(individual);
    expect(one).toEqual(individual);
    expect(isCombinedScreeningReport(one)).toBe(false);
    const combined = {
      total_net_income: 24001,
      summary_timespan_length: 239,
      screenings: [individual, individual],
    };
    const both = screeningReportDataSchema.parse(combined);
    expect(both).toEqual(combined);
    expect(isCombinedScreeningReport(both)).toBe(true);
  });
});

describe('the webhook examples', () => {
  it('each unwraps to its code', () => {
    const lines = fixture('webhooks.jsonl').trim().split('\n');
    const codes = lines.map((line) => {
      const headers = { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(line, SECRET_KEY) };
      return unwrapWebhook(line, headers, SECRET_KEY).code;
    });
    expect(codes).toEqual([
      'VERIFICATION_STARTED',
      'VERIFICATION_COMPLETED',
      'REPORT_READY',
      'BEGIN_SCREENING',
      'SCREENING_GROUP_COMPLETED',
    ]);
  });
});
