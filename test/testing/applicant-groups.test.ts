import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applicantGroupListResponseSchema, applicantGroupSchema } from '../../src/schemas/index.js';
import { createMockServer, DEFAULT_START_TIME, type MockServer } from '../../src/testing/index.js';
import { applicantGroupBody, expectError, expectOk, session } from './helpers.js';

describe('mock applicant groups', () => {
  let mock: MockServer;
  let api: ReturnType<typeof session>;
  const create = (body: Record<string, unknown>) => api('POST', '/api/v1/applicant_groups', { body });
  const list = async (query = '') =>
    expectOk(await api('GET', `/api/v1/applicant_groups${query}`), applicantGroupListResponseSchema);

  beforeEach(async () => {
    mock = await createMockServer({ now: DEFAULT_START_TIME });
    api = session(mock);
  });
  afterEach(async () => {
    await mock.close();
  });

  it('creates a group with the fields of docs/wire-contract.md §2.1 and sends one email per applicant plus one text per phone', async () => {
    const group = expectOk(
      await create(
        applicantGroupBody({ correlation_id: 'app-1', unit_id: '7d1c6f3e-2b4a-4c8e-9f00-1a2b3c4d5e6f' }),
      ),
      applicantGroupSchema,
    );
    expect(group).toMatchObject({
      decision_maker_display_name: 'Acme Property Management',
      property: { name: 'Elm Court', street_address: '12 Elm Street', state: 'Illinois', zip_code: '62701' },
      status: 'not_started',
      monthly_rent_cents: 185_000,
      unit_number: '4B',
      unit_id: '7d1c6f3e-2b4a-4c8e-9f00-1a2b3c4d5e6f',
      is_free: false,
      is_decision_maker_paying: true,
      correlation_id: 'app-1',
      verification_types: ['payroll_income_verification'],
      is_expired: false,
    });
    expect(group.created_at_timestamp).toBeCloseTo(mock.clock.now() / 1000, 2);
    expect(group.applicants).toHaveLength(2);
    expect(group.applicants[0]).toMatchObject({
      first_name: 'Ada',
      email: 'ada@example.com',
      phone_number: '+14155550123',
      created_at: '2026-01-15T12:00:00.000Z',
      verifications: [{ type: 'payroll_income_verification', status: 'not_started' }],
    });
    // "phone_number | string": absent (not null) when none was given.
    expect(group.applicants[1]).not.toHaveProperty('phone_number');

    const sent = mock.outbox.forGroup(group.id);
    expect(sent.map((e) => [e.channel, e.to])).toEqual([
      ['email', 'ada@example.com'],
      ['sms', '+14155550123'],
      ['email', 'charles@example.com'],
    ]);
    expect(sent[0]).toMatchObject({ family: 'applicant_group', applicantId: group.applicants[0]?.id });
    expect(mock.outbox.count('sms')).toBe(1);
    expect(mock.groups.applicant()).toEqual([group]);
  });

  it('defaults unit_id to null, keeps requested verification kinds, and sends nothing when invitations are disabled', async () => {
    const body = applicantGroupBody({
      is_invitation_disabled: true,
      applicants: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'ada@example.com',
          phone_number: '+14155550123',
          verifications: [
            { type: 'payroll_income_verification', allowed_income_sources: ['payroll'] },
            { type: 'identity_verification' },
          ],
        },
      ],
    });
    const group = expectOk(await create(body), applicantGroupSchema);
    expect(group.unit_id).toBeNull();
    expect(group.correlation_id).toBeNull();
    expect(group.verification_types).toEqual(['payroll_income_verification', 'identity_verification']);
    expect(group.applicants[0]?.verifications.map((v) => v.type)).toEqual(group.verification_types);
    expect(mock.outbox.count()).toBe(0);
  });

  it('answers 400 naming each bad field, and stores nothing', async () => {
    const answer = await create({
      applicants: [
        { first_name: 'Ada', last_name: '', email: 'not-an-email', phone_number: '555-1234' },
        { last_name: 'B', email: 'b@example.com' },
      ],
      property: { name: 'P', street_address: 'S', city: 'C', state: 'Illinois' },
      decision_maker_display_name: 'D',
      monthly_rent: -5,
      webhook_url: 'ftp://example.com/hook',
    });
    const body = expectError(answer, 400);
    expect(body.error).toBe('invalid_request');
    expect(body.fields?.map((f) => f.field)).toEqual([
      'applicants[0].last_name',
      'applicants[0].email',
      'applicants[0].phone_number',
      'applicants[1].first_name',
      'property.zip_code',
      'monthly_rent',
      'webhook_url',
    ]);
    expectError(await create({ ...applicantGroupBody(), applicants: [] }), 400);
    expect(expectError(await create(applicantGroupBody({ property: undefined })), 400).fields).toEqual([
      { field: 'property', message: 'property is required' },
    ]);
    const notJson = await api('POST', '/api/v1/applicant_groups', {
      headers: { 'content-type': 'application/json' },
    });
    expectError(notJson, 400);
    expect(mock.groups.applicant()).toEqual([]);
    expect(mock.outbox.count()).toBe(0);
  });

  it('refuses an email whose domain ends in .invalid with 400, storing and sending nothing', async () => {
    const body = applicantGroupBody();
    const applicants = body.applicants as Record<string, unknown>[];
    applicants[1] = { ...applicants[1], email: 'ghost@nowhere.invalid' };
    const error = expectError(await create(body), 400);
    expect(error.error).toBe('invalid_email');
    expect(error.fields).toEqual([
      { field: 'applicants[1].email', message: 'email address ghost@nowhere.invalid does not exist' },
    ]);
    expect(mock.groups.applicant()).toHaveLength(0);
    expect(mock.outbox.all()).toEqual([]);
  });

  describe('list filters', () => {
    const ids: Record<string, string> = {};
    let start: number;
    beforeEach(async () => {
      start = mock.clock.now();
      const add = async (name: string, overrides: Record<string, unknown>) => {
        ids[name] = expectOk(await create(applicantGroupBody(overrides)), applicantGroupSchema).id;
        mock.clock.advance(60 * 60_000);
      };
      await add('elm', { correlation_id: 'corr-elm' });
      await add('oak', {
        correlation_id: 'corr-oak',
        decision_maker_display_name: 'Oakwood Homes',
        property: {
          name: 'Oak Tower',
          street_address: '9 Oak Road',
          city: 'Dayton',
          state: 'Ohio',
          zip_code: '45402',
        },
        applicants: [{ first_name: 'Zelda', last_name: 'Fitzgerald', email: 'zelda@example.org' }],
      });
      await add('pine', {
        property: { name: 'Pine', street_address: '1 Pine Way', city: 'X', state: 'Y', zip_code: 'Z' },
      });
      const pine = mock.groups.applicantGroup(ids.pine ?? '');
      for (const applicant of pine?.applicants ?? []) mock.applicants.complete(applicant.id);
      const oak = mock.groups.applicantGroup(ids.oak ?? '');
      mock.applicants.start(oak?.applicants[0]?.id ?? '');
    });
    const idsOf = async (query: string) => (await list(query)).applicant_groups.map((g) => g.id);

    it('search: case-insensitive substring over names, emails, property and decision maker', async () => {
      expect(await idsOf('?search=zELDa')).toEqual([ids.oak]);
      expect(await idsOf('?search=FITZGERALD')).toEqual([ids.oak]);
      expect(await idsOf('?search=zelda%40example.org')).toEqual([ids.oak]);
      expect(await idsOf('?search=oak%20road')).toEqual([ids.oak]);
      expect(await idsOf('?search=oakwood')).toEqual([ids.oak]);
      expect(await idsOf('?search=ada%20lovelace')).toEqual([ids.elm, ids.pine]);
      expect(await idsOf('?search=elm%20court')).toEqual([ids.elm]);
      expect(await idsOf('?search=nobody')).toEqual([]);
    });

    it('statuses: comma-separated', async () => {
      expect(await idsOf('?statuses=completed')).toEqual([ids.pine]);
      expect(await idsOf('?statuses=not_started,in_progress')).toEqual([ids.elm, ids.oak]);
      expect(await idsOf('?statuses=in_progress')).toEqual([ids.oak]);
    });

    it('correlation_id: exact match', async () => {
      expect(await idsOf('?correlation_id=corr-oak')).toEqual([ids.oak]);
      expect(await idsOf('?correlation_id=corr')).toEqual([]);
    });

    it('created_after / created_before: Unix seconds, exclusive', async () => {
      const hour = 3600;
      const t0 = Math.floor(start / 1000);
      expect(await idsOf(`?created_after=${t0 + hour / 2}`)).toEqual([ids.oak, ids.pine]);
      expect(await idsOf(`?created_before=${t0 + hour / 2}`)).toEqual([ids.elm]);
      expect(await idsOf(`?created_after=${t0 + hour / 2}&created_before=${t0 + 1.5 * hour}`)).toEqual([
        ids.oak,
      ]);
      // Exclusive: a bound equal to a creation time (whole seconds + sub-ms fraction) excludes below it.
      expect(await idsOf(`?created_before=${t0}`)).toEqual([]);
      expectError(await api('GET', '/api/v1/applicant_groups?created_after=yesterday'), 400);
    });

    it('combines filters and counts all matches in total_count', async () => {
      const page = await list('?search=ada&statuses=not_started');
      expect(page.applicant_groups.map((g) => g.id)).toEqual([ids.elm]);
      expect(page.total_count).toBe(1);
    });
  });

  it('paginates oldest first with total_count (47 groups, pageSize 20: 20/20/7) and rejects page < 1', async () => {
    await mock.close();
    mock = await createMockServer({ pageSize: 20 });
    api = session(mock);
    const created: string[] = [];
    for (let i = 0; i < 47; i++) {
      const body = applicantGroupBody({ correlation_id: `c-${i}`, is_invitation_disabled: true });
      created.push(expectOk(await create(body), applicantGroupSchema).id);
    }
    const pages = [await list(), await list('?page=2'), await list('?page=3'), await list('?page=4')];
    expect(pages.map((p) => p.applicant_groups.length)).toEqual([20, 20, 7, 0]);
    expect(pages.map((p) => p.total_count)).toEqual([47, 47, 47, 47]);
    expect(pages.flatMap((p) => p.applicant_groups.map((g) => g.id))).toEqual(created);
    for (const bad of ['0', '-1', '1.5', 'two']) {
      const error = expectError(await api('GET', `/api/v1/applicant_groups?page=${bad}`), 400);
      expect(error.fields?.[0]?.field).toBe('page');
    }
  });

  it('reports is_expired once 14 days pass without completion, but not for a completed group', async () => {
    const open = expectOk(await create(applicantGroupBody()), applicantGroupSchema);
    const done = expectOk(await create(applicantGroupBody()), applicantGroupSchema);
    for (const applicant of done.applicants) mock.applicants.complete(applicant.id);
    mock.clock.advance(14 * 24 * 60 * 60_000 - 1);
    expect((await list()).applicant_groups.map((g) => g.is_expired)).toEqual([false, false]);
    mock.clock.advance(1);
    const after = (await list()).applicant_groups;
    expect(after.map((g) => [g.id, g.is_expired, g.status])).toEqual([
      [open.id, true, 'not_started'],
      [done.id, false, 'completed'],
    ]);
  });
});
