/**
 * PDF links minted while the mock clock sits at a fraction of a millisecond (a jittered backoff
 * under the test clock leaves it there) download through the SDK: over HTTP, in process, and
 * through msw set up as docs/testing.md shows.
 */
import { createHmac } from 'node:crypto';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VerificationClient } from '../../src/index.js';
import { createMockApi, createMockServer, DEFAULT_START_TIME } from '../../src/testing/index.js';
import { createMockApi as createMswMockApi } from '../../src/testing/msw.js';
import { groupCreateBody, oakCourtBody } from '../support/bodies.js';

const decoder = new TextDecoder();

interface Mocked {
  clock: { now(): number; set(time: number): void };
  applicants: { complete(id: string, reason?: 'finished'): unknown };
}

/** A group whose applicant completed: the id of its individual report. */
async function completedReport(client: VerificationClient, mock: Mocked, correlationId: string) {
  const group = await client.applicantGroups.create(groupCreateBody('ana@example.com', correlationId));
  mock.applicants.complete(group.applicants[0]?.id ?? '');
  const reports = await client.applicantGroups.listReports(group.id);
  const id = reports.individual_reports[0]?.id;
  if (id === undefined) throw new Error('no individual report');
  return id;
}

function expectPdf(bytes: Uint8Array): void {
  expect(decoder.decode(bytes.slice(0, 5))).toBe('%PDF-');
  expect(decoder.decode(bytes.slice(-5))).toBe('%%EOF');
}

describe('PDF links at fractional mock times', () => {
  it('over HTTP: the link minted at a fractional millisecond downloads, and its expires is whole', async () => {
    const mock = await createMockServer({ now: DEFAULT_START_TIME });
    try {
      const client = mock.client({ logLevel: 'off' });
      const reportId = await completedReport(client, mock, 'pdf-frac-http');
      mock.clock.set(mock.clock.now() + 0.375);
      const detail = await client.reports.retrieve(reportId);
      const expires = new URL(detail.pdf_url).searchParams.get('expires');
      expect(expires).toBe(String(DEFAULT_START_TIME + 2 * 60 * 60 * 1000));
      expectPdf(await client.reports.downloadPdf(detail));
      expectPdf(await client.reports.downloadPdf(reportId));
      expect(mock.stats.count('GET /files/reports/:file')).toBe(2);

      // Whatever the fraction a link carries, it verifies against its own text: a link signed
      // (as the mock signs) with a fractional expiry downloads.
      const expiresText = String(mock.clock.now() + 60_000.125);
      const sig = createHmac('sha256', `pdf-link:${mock.secretKey}`)
        .update(`${reportId}:${expiresText}`)
        .digest('hex');
      const forged = await fetch(
        `${mock.url}/files/reports/${reportId}.pdf?expires=${expiresText}&sig=${sig}`,
      );
      expect(forged.status).toBe(200);
      const tampered = await fetch(
        `${mock.url}/files/reports/${reportId}.pdf?expires=${expiresText}0&sig=${sig}`,
      );
      expect(tampered.status).toBe(403);
    } finally {
      await mock.close();
    }
  });

  it('in process: after a jittered backoff on the test clock, the report and its PDF come through', async () => {
    const mock = createMockApi({ now: DEFAULT_START_TIME });
    try {
      const client = mock.client({ logLevel: 'off' });
      const reportId = await completedReport(client, mock, 'pdf-frac-backoff');
      // A 503 on the report detail: the SDK backs off (a jittered, fractional wait on the mock
      // clock), then reads the detail again and mints the link there.
      mock.faults.next(1, { status: 503 }, { method: 'GET', path: `/api/v1/reports/${reportId}` });
      const before = mock.clock.now();
      const pdf = await client.reports.downloadPdf(reportId);
      expectPdf(pdf);
      expect(mock.clock.now()).toBeGreaterThan(before);
      expect(mock.stats.count('GET /api/v1/reports/:id')).toBe(2);
    } finally {
      await mock.close();
    }
  });

  it('a screening-group report link at a fractional millisecond downloads too', async () => {
    const mock = createMockApi({ now: DEFAULT_START_TIME });
    try {
      const client = mock.client({ logLevel: 'off' });
      const group = await client.screeningGroups.create(
        oakCourtBody('pdf-frac', [
          { applicant_first_name: 'Sam', applicant_last_name: 'Lee', applicant_email: 'sam@example.com' },
        ]),
      );
      mock.applicants.complete(group.screenings?.[0]?.id ?? '', 'finished');
      mock.clock.set(mock.clock.now() + 0.5);
      expectPdf(await client.screeningGroups.downloadReportPdf(group.id));
    } finally {
      await mock.close();
    }
  });
});

describe('PDF links under msw, set up as docs/testing.md shows', () => {
  const mock = createMswMockApi();
  const server = setupServer(...mock.handlers);
  let client: VerificationClient;
  beforeAll(() => {
    server.listen({ onUnhandledRequest: 'error' });
    client = new VerificationClient({
      baseURL: mock.baseUrl,
      clientId: mock.clientId,
      secretKey: mock.secretKey,
      fetch: globalThis.fetch,
      logLevel: 'off',
    });
  });
  afterEach(() => mock.reset());
  afterAll(async () => {
    await client.close();
    server.close();
    await mock.close();
  });

  it('downloads the mock https link through msw, at a whole and at a fractional millisecond', async () => {
    expect(mock.baseUrl).toBe('https://mock.verification.test');
    const reportId = await completedReport(client, mock, 'pdf-msw');
    expectPdf(await client.reports.downloadPdf(reportId));
    mock.clock.set(mock.clock.now() + 0.25);
    expectPdf(await client.reports.downloadPdf(reportId));
    expect(mock.stats.count('GET /files/reports/:file')).toBe(2);
  });
});
