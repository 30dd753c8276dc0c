import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isIncomeReport } from '../../src/index.js';
import {
  type ApplicantGroup,
  applicantGroupListResponseSchema,
  applicantGroupReportsSchema,
  applicantGroupSchema,
  reportDetailSchema,
} from '../../src/schemas/index.js';
import { createMockServer, DEFAULT_START_TIME, type MockServer } from '../../src/testing/index.js';
import { applicantGroupBody, call, expectError, expectOk, session } from './helpers.js';

describe('mock life cycle, reports and PDF links', () => {
  let mock: MockServer;
  let api: ReturnType<typeof session>;
  let group: ApplicantGroup;
  let ada: string;
  let charles: string;
  const reportsOf = async (id: string) =>
    expectOk(await api('GET', `/api/v1/applicant_groups/${id}/reports`), applicantGroupReportsSchema);
  const retrieve = async (id: string) =>
    expectOk(await api('GET', `/api/v1/reports/${id}`), reportDetailSchema);

  beforeEach(async () => {
    mock = await createMockServer({ now: DEFAULT_START_TIME });
    api = session(mock);
    group = expectOk(
      await api('POST', '/api/v1/applicant_groups', { body: applicantGroupBody() }),
      applicantGroupSchema,
    );
    ada = group.applicants[0]?.id ?? '';
    charles = group.applicants[1]?.id ?? '';
  });
  afterEach(async () => {
    await mock.close();
  });

  it('moves applicants not_started -> in_progress -> completed -> in_progress, with group status following', async () => {
    const current = () => mock.groups.applicantGroup(group.id);
    expect(current()?.status).toBe('not_started');
    mock.clock.advance(1000);
    mock.applicants.start(ada);
    expect(current()?.status).toBe('in_progress');
    expect(current()?.applicants[0]?.verifications[0]?.status).toBe('in_progress');
    expect(current()?.applicants[0]?.updated_at).toBe('2026-01-15T12:00:01.000Z');
    expect(() => mock.applicants.start(ada)).toThrow(/only a not_started one can start/);
    mock.applicants.complete(ada);
    expect(current()?.status).toBe('in_progress');
    mock.applicants.complete(charles, 'no_bank'); // not started: starts, then completes
    expect(current()?.status).toBe('completed');
    expect(mock.applicants.get(charles)).toMatchObject({ status: 'completed', reasonCompleted: 'no_bank' });
    expect(() => mock.applicants.complete(charles)).toThrow(/already completed/);
    mock.applicants.reopen(charles);
    expect(current()?.status).toBe('in_progress');
    expect(current()?.applicants[1]?.verifications[0]?.status).toBe('in_progress');
    expect(() => mock.applicants.reopen(charles)).toThrow(/only a completed one can re-open/);
    expect(() => mock.applicants.start('nope')).toThrow(/No applicant or screening/);
    const listed = expectOk(await api('GET', '/api/v1/applicant_groups'), applicantGroupListResponseSchema);
    expect(listed.applicant_groups).toEqual([current()]);
  });

  it('creates an individual report per completion and a household report when all are completed', async () => {
    expect(await reportsOf(group.id)).toEqual({ household_reports: [], individual_reports: [] });
    mock.clock.advance(60_000);
    mock.applicants.complete(ada);
    let reports = await reportsOf(group.id);
    expect(reports.household_reports).toEqual([]);
    expect(reports.individual_reports).toHaveLength(1);
    const first = reports.individual_reports[0];
    expect(first).toMatchObject({
      report_name: 'Income',
      is_expired: false,
      created_at: '2026-01-15T12:01:00.000Z',
      applicant_group_id: group.id,
      applicant_id: ada,
      path: `/reports/${first?.id}`,
    });

    mock.applicants.complete(charles, 'no_income');
    reports = await reportsOf(group.id);
    expect(reports.individual_reports.map((r) => r.applicant_id)).toEqual([ada, charles]);
    expect(reports.household_reports).toHaveLength(1);
    expect(reports.household_reports[0]?.applicant_id).toBeUndefined();

    const individual = await retrieve(first?.id ?? '');
    expect(individual).toMatchObject({ report_id: first?.id, report_type: 'income', applicant_id: ada });
    if (!isIncomeReport(individual)) throw new Error('expected an income report');
    expect(individual.data.applicant_group_id).toBe(group.id);
    expect(individual.data.reports?.map((r) => r.identity?.full_name)).toEqual(['Ada Lovelace']);

    const household = await retrieve(reports.household_reports[0]?.id ?? '');
    expect(household.applicant_id).toBeUndefined();
    if (!isIncomeReport(household)) throw new Error('expected an income report');
    expect(household.data.reports?.map((r) => r.identity?.full_name)).toEqual([
      'Ada Lovelace',
      'Charles Babbage',
    ]);
    expect(household.data.property_monthly_rent_cents).toBe(185_000);

    // Re-open and complete again: a new individual report and a new household report.
    mock.applicants.reopen(ada);
    mock.applicants.complete(ada);
    reports = await reportsOf(group.id);
    expect([reports.individual_reports.length, reports.household_reports.length]).toEqual([3, 2]);
    expect(mock.reports.forGroup(group.id)).toHaveLength(5);
  });

  it('answers 404 for unknown groups and reports, 410 after expire()', async () => {
    expect(expectError(await api('GET', '/api/v1/applicant_groups/unknown/reports'), 404).error).toBe(
      'not_found',
    );
    expectError(await api('GET', '/api/v1/reports/unknown'), 404);
    mock.applicants.complete(ada);
    const [report] = mock.reports.forGroup(group.id);
    mock.reports.expire(report?.id ?? '');
    expect(expectError(await api('GET', `/api/v1/reports/${report?.id}`), 410).error).toBe('report_expired');
    expect((await reportsOf(group.id)).individual_reports[0]?.is_expired).toBe(true);
    expect(() => mock.reports.expire('missing')).toThrow(/No report or screening group/);
  });

  it('serves the PDF without auth for 2 hours, refuses an Authorization header, tampering and stale links', async () => {
    mock.applicants.complete(ada);
    const [report] = mock.reports.forGroup(group.id);
    const detail = await retrieve(report?.id ?? '');
    const link = new URL(detail.pdf_url);
    expect(link.origin).toBe(mock.url);
    expect(link.pathname).toBe(`/files/reports/${report?.id}.pdf`);
    expect(Number(link.searchParams.get('expires'))).toBe(mock.clock.now() + 2 * 60 * 60_000);

    const pdf = await call(mock.url, 'GET', detail.pdf_url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(Buffer.from(pdf.bytes).toString('latin1')).toContain('Ada Lovelace');

    expectError(await call(mock.url, 'GET', detail.pdf_url, { headers: { authorization: 'Bearer x' } }), 403);
    const tampered = detail.pdf_url.replace(/expires=\d+/, `expires=${mock.clock.now() + 10 * 60 * 60_000}`);
    expectError(await call(mock.url, 'GET', tampered), 403);

    mock.clock.advance(2 * 60 * 60_000);
    expect((await call(mock.url, 'GET', detail.pdf_url)).status).toBe(200);
    mock.clock.advance(1);
    expect(expectError(await call(mock.url, 'GET', detail.pdf_url), 403).message).toMatch(/expired/);
    // Each retrieval mints a fresh link.
    const again = await retrieve(report?.id ?? '');
    expect(again.pdf_url).not.toBe(detail.pdf_url);
    expect((await call(mock.url, 'GET', again.pdf_url)).status).toBe(200);
  });
});
