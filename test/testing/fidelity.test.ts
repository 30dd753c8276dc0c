/**
 * The mock against the words of docs/wire-contract.md (quoted in each test): expiry, the shape
 * of seeded data, the rent rule, report generation and the household REPORT_READY event. In
 * process over `mock.fetch`: the behaviour is the core's, whatever the adapter.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applicantGroupListResponseSchema,
  applicantGroupSchema,
  screeningGroupListResponseSchema,
  screeningGroupSchema,
} from '../../src/schemas/index.js';
import { createMockApi, type MockApi } from '../../src/testing/index.js';
import { applicantGroupBody, screeningGroupBody } from './helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

const DAY = 86_400_000;

describe('mock fidelity to docs/wire-contract.md', () => {
  let mock: MockApi;
  let bearer = '';

  async function call(method: string, path: string, body?: unknown) {
    const response = await mock.fetch(`${mock.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }
  async function login() {
    const response = await mock.fetch(`${mock.baseUrl}/api/v1/tenants/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: mock.clientId, secret_key: mock.secretKey }),
    });
    bearer = (response.headers.get('authorization') ?? '').replace(/^Bearer /, '');
  }
  const createGroup = async (overrides: Record<string, unknown> = {}) =>
    applicantGroupSchema.parse(
      (await call('POST', '/api/v1/applicant_groups', applicantGroupBody(overrides))).body,
    );
  const listGroups = async () => {
    await login();
    return applicantGroupListResponseSchema.parse((await call('GET', '/api/v1/applicant_groups')).body)
      .applicant_groups;
  };

  beforeEach(async () => {
    mock = createMockApi({ seed: 11 });
    await login();
  });
  afterEach(async () => {
    await mock.close();
  });

  describe('"a request not fully completed within 14 days expires; is_expired then reports true"', () => {
    it('applicant group: completing it after the 14 days leaves it expired; a re-open starts over', async () => {
      const group = await createGroup();
      mock.clock.advance(14 * DAY);
      expect((await listGroups())[0]?.is_expired).toBe(true);
      for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
      const [completed] = await listGroups();
      expect([completed?.status, completed?.is_expired]).toEqual(['completed', true]);
      mock.applicants.reopen(group.applicants[0]?.id ?? '');
      const [reopened] = await listGroups();
      expect([reopened?.status, reopened?.is_expired]).toEqual(['in_progress', false]);
    });

    it('applicant group: completed within the 14 days, it never expires', async () => {
      const group = await createGroup();
      mock.clock.advance(14 * DAY - 1);
      for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
      mock.clock.advance(30 * DAY);
      expect((await listGroups())[0]?.is_expired).toBe(false);
    });

    it('screening group: the same rule', async () => {
      const created = screeningGroupSchema.parse(
        (await call('POST', '/api/v1/screening_groups', screeningGroupBody())).body,
      );
      mock.clock.advance(15 * DAY);
      for (const screening of created.screenings ?? []) mock.applicants.complete(screening.id);
      expect(mock.groups.screeningGroup(created.id)).toMatchObject({ status: 'completed', is_expired: true });
      mock.applicants.reopen(created.screenings?.[1]?.id ?? '');
      expect(mock.groups.screeningGroup(created.id)).toMatchObject({
        status: 'in_progress',
        is_expired: false,
      });
    });
  });

  it('"phone_number | string": absent, not null, when the applicant gave none', async () => {
    const group = await createGroup();
    const [listed] = await listGroups();
    expect(group.applicants[0]?.phone_number).toBe('+14155550123');
    expect(group.applicants[1]).not.toHaveProperty('phone_number');
    expect(listed?.applicants[1]).not.toHaveProperty('phone_number');
  });

  it('"is_report_expired: False when no report exists. A list response sample also carries null."', async () => {
    const created = (await call('POST', '/api/v1/screening_groups', screeningGroupBody())).body;
    expect(created).toMatchObject({ is_report_expired: false });
    const list = async () =>
      screeningGroupListResponseSchema.parse((await call('GET', '/api/v1/screening_groups')).body)
        .screening_groups;
    expect((await list())[0]?.is_report_expired).toBeNull();
    const id = screeningGroupSchema.parse(created).id;
    mock.applicants.complete(screeningGroupSchema.parse(created).screenings?.[0]?.id ?? '');
    expect((await list())[0]?.is_report_expired).toBe(false);
    mock.reports.expire(id);
    expect((await list())[0]?.is_report_expired).toBe(true);
  });

  describe('"monthly_rent | number, integer | yes | Dollars."', () => {
    it.each([
      ['a fraction of a dollar', 1850.5, 'whole number'],
      ['an absurd amount (cents sent as dollars)', 185_000, 'at most 100000'],
      ['zero', 0, 'positive'],
      ['a negative amount', -5, 'positive'],
    ])(
      'refuses %s with 400 naming monthly_rent, in both families, storing nothing',
      async (_name, rent, words) => {
        for (const [path, body] of [
          ['/api/v1/applicant_groups', applicantGroupBody({ monthly_rent: rent })],
          ['/api/v1/screening_groups', screeningGroupBody({ monthly_rent: rent })],
        ] as const) {
          const answer = await call('POST', path, body);
          expect(answer.status).toBe(400);
          expect(answer.body).toMatchObject({
            fields: [{ field: 'monthly_rent', message: expect.stringContaining(words) }],
          });
        }
        expect(mock.state.applicantGroups).toHaveLength(0);
        expect(mock.state.screeningGroups).toHaveLength(0);
        expect(mock.outbox.count()).toBe(0);
      },
    );

    it('accepts whole dollars up to the ceiling, stored as exact cents', async () => {
      const group = await createGroup({ monthly_rent: 100_000 });
      expect(group.monthly_rent_cents).toBe(10_000_000);
    });
  });

  describe('reports follow what the group asked for', () => {
    const completeAll = async (overrides: Record<string, unknown>, applicants: Record<string, unknown>[]) => {
      const group = await createGroup({ ...overrides, applicants });
      for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
      return mock.reports
        .forGroup(group.id)
        .filter((r) => r.kind === 'individual')
        .flatMap((r) => r.data.reports ?? []);
    };
    const people = (verifications: unknown[]) =>
      Array.from({ length: 8 }, (_, i) => ({
        first_name: `Applicant${i}`,
        last_name: 'Tester',
        email: `applicant${i}@example.com`,
        verifications,
      }));

    it('"allowed_income_sources" [payroll] on an identity verification: payroll data only, no bank, no documents', async () => {
      const entries = await completeAll(
        {},
        people([{ type: 'identity_verification', allowed_income_sources: ['payroll'] }]),
      );
      expect(entries).toHaveLength(8);
      for (const entry of entries) {
        expect(entry.bank_connections).toEqual([]);
        expect(entry.uploaded_documents).toEqual([]);
        expect(entry.payroll_connections).toHaveLength(1);
        expect(entry.income_sources).toEqual([{ source: 'payroll' }]);
      }
    });

    it('"allowed_income_sources" [bank]: bank data, no payroll connection', async () => {
      const entries = await completeAll(
        {},
        people([{ type: 'payroll_income_verification', allowed_income_sources: ['bank'] }]),
      );
      expect(entries).toHaveLength(8);
      for (const entry of entries) {
        expect(entry.bank_connections).toHaveLength(1);
        expect(entry.bank_connections?.[0]?.accounts?.length).toBeGreaterThan(0);
        expect(entry.payroll_connections).toEqual([]);
        expect(entry.uploaded_documents).toEqual([]);
      }
    });

    it('verification type asset_verification: bank accounts only', async () => {
      const entries = await completeAll({}, people([{ type: 'asset_verification' }]));
      expect(entries).toHaveLength(8);
      for (const entry of entries) {
        expect(entry.bank_connections).toHaveLength(1);
        expect(entry.bank_connections?.[0]?.accounts?.length).toBeGreaterThan(0);
        expect(entry.payroll_connections).toEqual([]);
      }
    });

    it('"config: block_business_accounts": no business account when true; some appear when false', async () => {
      const business = (entries: Awaited<ReturnType<typeof completeAll>>) =>
        entries
          .flatMap((entry) => entry.bank_connections ?? [])
          .flatMap((connection) => connection.accounts ?? [])
          .filter((account) => account.holder_category === 'business');
      const verifications = [{ type: 'payroll_income_verification' }];
      const blocked = await completeAll({ config: { block_business_accounts: true } }, people(verifications));
      expect(blocked.flatMap((entry) => entry.bank_connections ?? [])).toHaveLength(8);
      expect(business(blocked)).toEqual([]);
      const allowed = await completeAll(
        { config: { block_business_accounts: false } },
        people(verifications),
      );
      expect(business(allowed).length).toBeGreaterThan(0);
    });
  });

  it('"monthly_rent ... used for the net income to rent multiplier" against income_multiplier_threshold', async () => {
    const recommendation = async (threshold: number) => {
      const created = screeningGroupSchema.parse(
        (
          await call(
            'POST',
            '/api/v1/screening_groups',
            screeningGroupBody({ income_multiplier_threshold: threshold }),
          )
        ).body,
      );
      for (const screening of created.screenings ?? []) mock.applicants.complete(screening.id, 'finished');
      const held = mock.state.screeningGroups.find((g) => g.id === created.id);
      const income = (held?.screenings ?? []).reduce((sum, s) => sum + (s.monthlyIncomeCents ?? 0), 0);
      return { income, view: mock.groups.screeningGroup(created.id) };
    };
    // Each finished screening finds at least $1,500 a month: two of them pass 1x a $2,400 rent.
    const low = await recommendation(1);
    expect(low.income).toBeGreaterThanOrEqual(2 * 1_500_00);
    expect(low.view).toMatchObject({ approval_recommendation: 'approve', income_multiplier_threshold: 1 });
    // And at most $9,000 each: 10x the rent is out of reach.
    const high = await recommendation(10);
    expect(high.view).toMatchObject({ approval_recommendation: 'decline', income_multiplier_threshold: 10 });
    // Without a threshold, the documented default of 2.5 applies and shows in the answer.
    const plain = screeningGroupSchema.parse(
      (await call('POST', '/api/v1/screening_groups', screeningGroupBody())).body,
    );
    expect(plain.income_multiplier_threshold).toBe(2.5);
  });

  describe('"applicant_id: Present only for individual reports; absent for household reports."', () => {
    let receiver: Receiver;
    beforeEach(async () => {
      receiver = await startReceiver();
    });
    afterEach(async () => {
      await receiver.close();
    });

    it('the household REPORT_READY event carries no applicant_id; individual ones name theirs', async () => {
      const group = await createGroup({ webhook_url: receiver.url });
      for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
      await mock.deliveries.settled();
      const ready = receiver.received
        .map((r) => JSON.parse(r.body) as Record<string, unknown>)
        .filter((event) => event.code === 'REPORT_READY');
      const household = mock.reports.forGroup(group.id).find((r) => r.kind === 'household');
      expect(ready.map((event) => event.applicant_id)).toEqual([
        group.applicants[0]?.id,
        group.applicants[1]?.id,
        undefined,
      ]);
      expect(ready[2]).toEqual({
        code: 'REPORT_READY',
        applicant_group_id: group.id,
        report_id: household?.id,
        report_type: 'income',
      });
    });
  });
});
