import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screeningGroupListResponseSchema, screeningGroupSchema } from '../../src/schemas/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { expectError, expectOk, screeningGroupBody, session } from './helpers.js';

describe('mock screening groups', () => {
  let mock: MockServer;
  let api: ReturnType<typeof session>;
  const create = (body: Record<string, unknown>) => api('POST', '/api/v1/screening_groups', { body });
  const list = async (query = '') =>
    expectOk(await api('GET', `/api/v1/screening_groups${query}`), screeningGroupListResponseSchema);

  beforeEach(async () => {
    mock = await createMockServer();
    api = session(mock);
  });
  afterEach(async () => {
    await mock.close();
  });

  it('creates a group per docs/wire-contract.md §2.6: unit appended on create, separate on list, defaults', async () => {
    const created = expectOk(
      await create(screeningGroupBody({ correlation_id: 'lease-9' })),
      screeningGroupSchema,
    );
    expect(created).toMatchObject({
      status: 'not_started',
      property_name: 'Oak Plaza',
      property_street_address: '500 Oak Avenue, 12',
      unit_number: '12',
      monthly_rent_cents: 240_000,
      approval_recommendation: 'unavailable',
      is_decision_maker_paying: true,
      is_expired: false,
      is_report_expired: false,
      decision_maker_display_name: 'Oak Rentals LLC',
      income_multiplier_threshold: 2.5,
      correlation_id: 'lease-9',
    });
    // A millisecond-scale timestamp with a fraction, as the vendor's sample.
    expect(Math.floor(created.created_at_timestamp ?? 0)).toBe(mock.clock.now());
    expect(
      (created.screenings ?? []).map((s) => [s.applicant_email, s.screening_status, s.reason_completed]),
    ).toEqual([
      ['grace@example.com', 'not_started', 'not_completed'],
      ['alan@example.com', 'not_started', 'not_completed'],
    ]);
    const listed = (await list()).screening_groups[0];
    expect(listed?.property_street_address).toBe('500 Oak Avenue');
    expect(listed?.unit_number).toBe('12');
    expect(mock.outbox.forGroup(created.id).map((e) => [e.channel, e.family])).toEqual([
      ['email', 'screening_group'],
      ['sms', 'screening_group'],
      ['email', 'screening_group'],
    ]);
  });

  it('keeps a given income_multiplier_threshold and sends nothing when invitations are disabled', async () => {
    const created = expectOk(
      await create(screeningGroupBody({ income_multiplier_threshold: 3, is_invitation_disabled: true })),
      screeningGroupSchema,
    );
    expect(created.income_multiplier_threshold).toBe(3);
    expect(created.correlation_id).toBeNull();
    expect(mock.outbox.count()).toBe(0);
  });

  it('answers 400 naming each bad field; a two-letter state suggests the full name', async () => {
    const body = screeningGroupBody({
      applicants: [{ applicant_first_name: 'G', applicant_email: 'g@', applicant_phone_number: '0044 20' }],
      property: { name: 'P', street_address: 'S', city: 'C', state: 'TX', zip_code: '1' },
      is_decision_maker_paying: undefined,
      monthly_rent: 0,
    });
    const error = expectError(await create(body), 400);
    expect(error.fields?.map((f) => f.field)).toEqual([
      'applicants[0].applicant_last_name',
      'applicants[0].applicant_email',
      'applicants[0].applicant_phone_number',
      'property.state',
      'is_decision_maker_paying',
      'monthly_rent',
    ]);
    expect(error.fields?.find((f) => f.field === 'property.state')?.message).toContain('"Texas"');
    expect(mock.groups.screening()).toEqual([]);
  });

  it('refuses a nonexistent (.invalid) email with 400 and stores nothing', async () => {
    const body = screeningGroupBody({
      applicants: [
        { applicant_first_name: 'A', applicant_last_name: 'B', applicant_email: 'a@b.example.invalid' },
      ],
    });
    const error = expectError(await create(body), 400);
    expect(error.fields).toEqual([
      { field: 'applicants[0].applicant_email', message: 'email address a@b.example.invalid does not exist' },
    ]);
    expect(mock.groups.screening()).toEqual([]);
    expect(mock.outbox.count()).toBe(0);
  });

  it('pages by 25 with total_count', async () => {
    for (let i = 0; i < 30; i++) await create(screeningGroupBody({ is_invitation_disabled: true }));
    const first = await list();
    const second = await list('?page=2');
    expect([first.screening_groups.length, second.screening_groups.length]).toEqual([25, 5]);
    expect([first.total_count, second.total_count]).toEqual([30, 30]);
    expect(new Set([...first.screening_groups, ...second.screening_groups].map((g) => g.id)).size).toBe(30);
    expectError(await api('GET', '/api/v1/screening_groups?page=0'), 400);
  });

  it('moves through the life cycle: status, recommendation, expiry, report expiry', async () => {
    // A threshold low enough that any finished screening's income passes.
    const group = expectOk(
      await create(screeningGroupBody({ income_multiplier_threshold: 0.1 })),
      screeningGroupSchema,
    );
    const [grace, alan] = (group.screenings ?? []).map((s) => s.id);
    mock.applicants.start(grace ?? '');
    expect(mock.groups.screeningGroup(group.id)?.status).toBe('in_progress');
    mock.applicants.complete(grace ?? '', 'finished');
    expect(mock.groups.screeningGroup(group.id)?.approval_recommendation).toBe('unavailable');
    mock.applicants.complete(alan ?? '', 'no_income');
    const done = (await list()).screening_groups[0];
    expect(done).toMatchObject({
      status: 'completed',
      approval_recommendation: 'approve',
      is_report_expired: false,
    });
    expect(done?.screenings?.map((s) => [s.screening_status, s.reason_completed])).toEqual([
      ['completed', 'finished'],
      ['completed', 'no_income'],
    ]);
    mock.reports.expire(group.id);
    expect((await list()).screening_groups[0]?.is_report_expired).toBe(true);

    mock.applicants.reopen(alan ?? '');
    expect(mock.applicants.get(alan ?? '')).toMatchObject({
      status: 'in_progress',
      reasonCompleted: 'not_completed',
    });
    mock.clock.advance(14 * 24 * 60 * 60_000);
    expect((await list()).screening_groups[0]).toMatchObject({ status: 'in_progress', is_expired: true });
  });
});
