/**
 * The earlier family's reads against the mock over loopback HTTP: a screening group by id, its
 * report link (2 hours on the mock clock) and its data, through not ready (404), ready and
 * expired (410).
 */
import { describe, expect, it } from 'vitest';
import {
  isCombinedScreeningReport,
  NotFoundError,
  ReportExpiredError,
  type ScreeningGroupCreateParams,
  type VerificationClient,
} from '../../src/index.js';
import type { MockServer } from '../../src/testing/index.js';
import { oakCourtBody } from '../support/bodies.js';
import { caught } from '../support/exposure.js';
import { mockWithClient } from '../support/mock-client.js';

let mock: MockServer;
let client: VerificationClient;
mockWithClient((pair) => ({ mock, client } = pair), { mock: { seed: 24 } });

function body(tag: string, people: number): ScreeningGroupCreateParams {
  return oakCourtBody(
    tag,
    Array.from({ length: people }, (_, index) => ({
      applicant_first_name: 'Sam',
      applicant_last_name: `Lee ${index}`,
      applicant_email: `sam.${tag}.${index}@example.com`,
    })),
  );
}

describe('screeningGroups.retrieve', () => {
  it('returns the group as created; an unknown id is NotFoundError', async () => {
    const created = await client.screeningGroups.create(body('retrieve', 1));
    const group = await client.screeningGroups.retrieve(created.id);
    expect(group.id).toBe(created.id);
    expect(group.correlation_id).toBe('oak-retrieve');
    expect(group.monthly_rent_cents).toBe(180_000);
    expect(mock.stats.count('GET /api/v1/screening_groups/:id')).toBeGreaterThan(0);
    expect(await caught(client.screeningGroups.retrieve('no-such-group'))).toBeInstanceOf(NotFoundError);
  });
});

describe('the report: not ready, ready, expired', () => {
  it('one applicant: 404 before, an individual report and a 2-hour link after, 410 once expired', async () => {
    const group = await client.screeningGroups.create(body('one', 1));
    const notReady = await caught(client.screeningGroups.reportUrl(group.id));
    expect(notReady).toBeInstanceOf(NotFoundError);
    expect(await caught(client.screeningGroups.reportData(group.id))).toBeInstanceOf(NotFoundError);

    const screening = group.screenings?.[0]?.id ?? '';
    mock.applicants.start(screening);
    mock.applicants.complete(screening, 'finished');

    const { url } = await client.screeningGroups.reportUrl(group.id);
    const pdf = await fetch(url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
    // The link lives 2 hours on the mock clock.
    mock.clock.advance(2 * 60 * 60_000 + 1000);
    expect((await fetch(url)).status).toBe(403);
    const fresh = await client.screeningGroups.reportUrl(group.id);
    expect((await fetch(fresh.url)).status).toBe(200);

    const data = await client.screeningGroups.reportData(group.id);
    expect(isCombinedScreeningReport(data)).toBe(false);
    expect(data.summary_timespan_length).toBe(180);
    expect(data.three_month_avg_monthly_net_income).toBeGreaterThan(0);

    mock.reports.expire(group.id);
    expect(await caught(client.screeningGroups.reportUrl(group.id))).toBeInstanceOf(ReportExpiredError);
    expect(await caught(client.screeningGroups.reportData(group.id))).toBeInstanceOf(ReportExpiredError);
    expect((await fetch(fresh.url)).status).toBe(410);
  });

  it('several applicants: a combined report with one individual report per screening', async () => {
    const group = await client.screeningGroups.create(body('two', 2));
    for (const screening of group.screenings ?? []) {
      mock.applicants.start(screening.id);
      mock.applicants.complete(screening.id, 'finished');
    }
    const data = await client.screeningGroups.reportData(group.id);
    if (!isCombinedScreeningReport(data)) throw new Error('expected a combined report');
    expect(data.screenings).toHaveLength(2);
    const sum = data.screenings.reduce(
      (total, one) => total + (one.three_month_avg_monthly_net_income ?? 0),
      0,
    );
    expect(data.three_month_avg_monthly_net_income).toBeCloseTo(sum, 2);
    expect(
      data.screenings[0]?.bank_connections?.[0]?.income?.income_streams?.[0]?.transactions?.[0]?.date,
    ).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  });
});
