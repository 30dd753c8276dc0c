/** Every call of the SDK against the mock server over real loopback HTTP. */
import { describe, expect, it } from 'vitest';
import {
  type ApplicantGroupCreateInDollars,
  BadRequestError,
  isIncomeReport,
  NotFoundError,
  ReportExpiredError,
  RequestValidationError,
  type VerificationClient,
} from '../../src/index.js';
import { applicantGroupSchema, reportDetailSchema, screeningGroupSchema } from '../../src/schemas/index.js';
import type { MockServer } from '../../src/testing/index.js';
import { caught } from '../support/exposure.js';
import { mockWithClient } from '../support/mock-client.js';

let mock: MockServer;
let client: VerificationClient;
mockWithClient((pair) => ({ mock, client } = pair), { mock: { seed: 11, pageSize: 20 } });

function body(
  tag: string,
  overrides: Partial<ApplicantGroupCreateInDollars> = {},
): ApplicantGroupCreateInDollars {
  return {
    applicants: [
      {
        first_name: 'Ada',
        last_name: `Lovelace ${tag}`,
        email: `ada.${tag}@example.com`,
        phone_number: '+14155550100',
      },
      { first_name: 'Alan', last_name: `Turing ${tag}`, email: `alan.${tag}@example.com` },
    ],
    property: {
      name: `Analytical Arms ${tag}`,
      street_address: '1 Engine Way',
      city: 'Boston',
      state: 'Massachusetts',
      zip_code: '02110',
      unit: '7',
    },
    decision_maker_display_name: 'Engine Holdings',
    monthly_rent: 2400,
    correlation_id: `corr-${tag}`,
    ...overrides,
  };
}

const lastRequest = (route: string) =>
  mock.stats
    .log()
    .filter((entry) => entry.route === route)
    .at(-1);

describe('applicant groups', () => {
  it('create sends the body once and returns what the server stored', async () => {
    const before = mock.stats.count('POST /api/v1/applicant_groups');
    const group = await client.applicantGroups.create(body('create'));
    expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(before + 1);
    expect(lastRequest('POST /api/v1/applicant_groups')).toMatchObject({
      method: 'POST',
      url: '/api/v1/applicant_groups',
      authorized: true,
    });
    const stored = mock.groups.applicantGroup(group.id);
    expect(stored).toEqual(group);
    expect(applicantGroupSchema.parse(stored)).toEqual(group);
    expect(group).toMatchObject({
      monthly_rent_cents: 240_000,
      correlation_id: 'corr-create',
      decision_maker_display_name: 'Engine Holdings',
      property: { name: 'Analytical Arms create', state: 'Massachusetts', zip_code: '02110' },
    });
    expect(group.applicants.map((applicant) => applicant.email)).toEqual([
      'ada.create@example.com',
      'alan.create@example.com',
    ]);
    expect(
      mock.outbox
        .forGroup(group.id)
        .map((entry) => entry.channel)
        .sort(),
    ).toEqual(['email', 'email', 'sms']);
  });

  it('create with is_invitation_disabled sends no invitation', async () => {
    const group = await client.applicantGroups.create(body('quiet', { is_invitation_disabled: true }));
    expect(mock.outbox.forGroup(group.id)).toEqual([]);
  });

  it('rejects an invalid body before any I/O, naming each path', async () => {
    const before = mock.stats.count();
    const bad = body('bad');
    bad.applicants[1] = {
      first_name: 'Alan',
      last_name: 'T',
      email: 'not-an-email',
      phone_number: '555-0100',
    };
    const error = await caught(client.applicantGroups.create({ ...bad, monthly_rent: -5 }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['applicants[1].email', 'applicants[1].phone_number', 'monthly_rent']),
    );
    expect(mock.stats.count()).toBe(before);
  });

  it('a nonexistent email domain is a 400 from the server and nothing is stored', async () => {
    const count = mock.groups.applicant().length;
    const bad = body('invalid-domain');
    bad.applicants = [{ first_name: 'No', last_name: 'Body', email: 'nobody@nowhere.invalid' }];
    await expect(client.applicantGroups.create(bad)).rejects.toBeInstanceOf(BadRequestError);
    expect(mock.groups.applicant()).toHaveLength(count);
  });

  it('list sends the filters and returns matching groups', async () => {
    await client.applicantGroups.create(body('filter-a'));
    const since = new Date(mock.clock.now() - 1000);
    const page = await client.applicantGroups.list({
      search: 'filter-a',
      statuses: ['not_started', 'in_progress'],
      created_after: since,
      correlation_id: 'corr-filter-a',
    });
    expect(page.items.map((group) => group.correlation_id)).toEqual(['corr-filter-a']);
    const url = new URL(lastRequest('GET /api/v1/applicant_groups')?.url ?? '', 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      search: 'filter-a',
      statuses: 'not_started,in_progress',
      created_after: String(Math.floor(since.getTime() / 1000)),
      correlation_id: 'corr-filter-a',
      page: '1',
    });
  });

  it('for await walks 47 groups served 20 a page, each exactly once', async () => {
    for (let i = 0; i < 47; i++)
      await client.applicantGroups.create(body(`walk-${i}`, { is_invitation_disabled: true }));
    const seen: string[] = [];
    for await (const group of client.applicantGroups.list({ search: 'Analytical Arms walk-' }))
      seen.push(group.id);
    expect(seen).toHaveLength(47);
    expect(new Set(seen).size).toBe(47);
  });

  it('findById and findByCorrelationId find a group, and undefined otherwise', async () => {
    const group = await client.applicantGroups.create(body('find'));
    expect((await client.applicantGroups.findByCorrelationId('corr-find'))?.id).toBe(group.id);
    expect(await client.applicantGroups.findByCorrelationId('corr-none')).toBeUndefined();
    expect((await client.applicantGroups.findById(group.id, group))?.id).toBe(group.id);
    expect((await client.applicantGroups.findById(group.id))?.id).toBe(group.id);
  });

  it('listReports of an unknown group is NotFoundError', async () => {
    await expect(
      client.applicantGroups.listReports('00000000-0000-4000-8000-000000000000'),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('life cycle, reports and PDFs', () => {
  it('reports appear as applicants complete; retrieve is typed; the PDF is fetched without Authorization', async () => {
    const group = await client.applicantGroups.create(body('reports'));
    const [ada, alan] = group.applicants;
    mock.applicants.start(ada!.id);
    mock.applicants.complete(ada!.id, 'finished');
    let reports = await client.applicantGroups.listReports(group.id);
    expect(reports.individual_reports.map((report) => report.applicant_id)).toEqual([ada!.id]);
    expect(reports.household_reports).toEqual([]);
    mock.applicants.complete(alan!.id, 'finished');
    reports = await client.applicantGroups.listReports(group.id);
    expect(reports.individual_reports).toHaveLength(2);
    expect(reports.household_reports).toHaveLength(1);
    expect(lastRequest('GET /api/v1/applicant_groups/:id/reports')?.url).toBe(
      `/api/v1/applicant_groups/${group.id}/reports`,
    );

    const detail = await client.reports.retrieve(reports.household_reports[0]!.id);
    expect(reportDetailSchema.parse(detail)).toEqual(detail);
    expect(isIncomeReport(detail)).toBe(true);
    if (!isIncomeReport(detail)) return;
    expect(detail.applicant_group_id).toBe(group.id);
    expect(detail.data.reports).toHaveLength(2);
    expect(detail.data.property_monthly_rent_cents).toBe(240_000);

    const pdf = await client.reports.downloadPdf(detail);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
    const download = mock.stats
      .log()
      .filter((entry) => entry.url.includes('.pdf'))
      .at(-1);
    expect(download?.authorized).toBe(false);

    const done = await client.applicantGroups.waitForCompletion(group, { pollInterval: 1 });
    expect(done.status).toBe('completed');
  });

  it('a PDF link older than two hours is refreshed once by retrieving the report again', async () => {
    const group = await client.applicantGroups.create(
      body('stale', { applicants: [body('stale').applicants[1]!] }),
    );
    mock.applicants.complete(group.applicants[0]!.id, 'finished');
    const [summary] = (await client.applicantGroups.listReports(group.id)).individual_reports;
    const detail = await client.reports.retrieve(summary!.id);
    mock.clock.advance(2 * 60 * 60_000 + 1);
    // The token expired too (30 minutes): let one call refresh it so the counts below are exact.
    await client.applicantGroups.listReports(group.id);
    const retrievals = mock.stats.count('GET /api/v1/reports/:id');
    const downloads = () => mock.stats.log().filter((entry) => entry.url.startsWith('/files/')).length;
    const downloadsBefore = downloads();
    // The detail is fresh to the SDK's clock, so it tries the link first; the mock refuses it (403).
    const pdf = await client.reports.downloadPdf(detail);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
    expect(mock.stats.count('GET /api/v1/reports/:id')).toBe(retrievals + 1);
    expect(downloads()).toBe(downloadsBefore + 2);
  });

  it('expired report data is ReportExpiredError (410); a missing report is NotFoundError', async () => {
    const group = await client.applicantGroups.create(
      body('expired', { applicants: [body('expired').applicants[0]!] }),
    );
    mock.applicants.complete(group.applicants[0]!.id, 'finished');
    const [summary] = (await client.applicantGroups.listReports(group.id)).individual_reports;
    mock.reports.expire(summary!.id);
    await expect(client.reports.retrieve(summary!.id)).rejects.toBeInstanceOf(ReportExpiredError);
    await expect(client.reports.retrieve('00000000-0000-4000-8000-00000000dead')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('a group left incomplete 14 days is expired, and waitForCompletion returns it', async () => {
    const group = await client.applicantGroups.create(body('fortnight'));
    mock.clock.advance(14 * 24 * 60 * 60_000 + 1);
    const changes: string[] = [];
    const polls: string[] = [];
    const expired = await client.applicantGroups.waitForCompletion(group, {
      pollInterval: 1,
      onStatusChange: (current) => changes.push(`${current.status}/${current.is_expired}`),
      onPoll: (current) => polls.push(current.id),
    });
    expect(expired.is_expired).toBe(true);
    expect(changes).toEqual(['not_started/true']);
    // onPoll sees every read group (one poll here: it was settled at once).
    expect(polls).toEqual([group.id]);
  });
});

describe('screening groups', () => {
  const screening = (i: number) => ({
    applicants: [
      {
        applicant_first_name: 'Grace',
        applicant_last_name: `Hopper ${i}`,
        applicant_email: `grace.${i}@example.com`,
      },
    ],
    property: {
      name: 'Cobol Court',
      street_address: '9 Bug St',
      city: 'Arlington',
      state: 'Virginia',
      zip_code: '22201',
      unit: '3',
    },
    is_decision_maker_paying: true,
    decision_maker_display_name: 'Compiler LLC',
    monthly_rent: 1800,
  });

  it('create returns the stored group; list walks 25 a page', async () => {
    const created = await client.screeningGroups.create(screening(0));
    expect(screeningGroupSchema.parse(created)).toEqual(created);
    expect(created.screenings?.[0]?.applicant_email).toBe('grace.0@example.com');
    expect(mock.outbox.forGroup(created.id)).toHaveLength(1);
    for (let i = 1; i < 30; i++) await client.screeningGroups.create(screening(i));
    const first = await client.screeningGroups.list();
    expect(first.items).toHaveLength(25);
    expect(first.totalCount).toBe(30);
    expect(await client.screeningGroups.list().toArray()).toHaveLength(30);
    expect(lastRequest('GET /api/v1/screening_groups')?.url).toBe('/api/v1/screening_groups?page=2');
  });

  it('a two-letter state is rejected before I/O, suggesting the full name', async () => {
    const before = mock.stats.count();
    const bad = screening(99);
    const error = await caught(
      client.screeningGroups.create({ ...bad, property: { ...bad.property, state: 'VA' } }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]).toMatchObject({ path: 'property.state' });
    expect((error as Error).message).toContain('Virginia');
    expect(mock.stats.count()).toBe(before);
  });
});
