/**
 * Prism, an independent OpenAPI validator, as a proxy in front of the strict mock
 * (`createMockServer({ strict: true })`), reading the repository's openapi.json from disk:
 *
 * - with `--errors`, the SDK's main flows (the examples': create, list, find by correlation id,
 *   reports, screening groups, PDFs) pass through it with no request or response violation (the
 *   PDF links the mock mints point at its own origin, so the two downloads reach it directly:
 *   the document has no PDF operation); Prism
 *   reports them in an `sl-violations` header and in its log; with `--errors` a response
 *   violation would also turn the answer into its 500);
 * - a scripted set of invalid requests gets the mock's own answer, a 4xx the document lists for
 *   the operation, with the documented error body and no response violation. Prism with
 *   `--errors` answers a request it finds invalid itself (a 422 of its own; Prism 5 never
 *   forwards one), so the requests the document refuses go through a second proxy without
 *   `--errors`, which forwards them and still validates both sides: it must flag the request
 *   and find nothing wrong with the answer. Requests only the mock refuses (unknown ids, bad
 *   tokens, expired reports) go through the `--errors` proxy.
 */
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerificationClient } from '../../src/index.js';
import { createMockServer, createTestClock, type MockServer } from '../../src/testing/index.js';
import { contractProblems } from '../support/openapi-contract.js';
import { applicantGroupBody, screeningGroupBody } from '../testing/helpers.js';
import { DOCUMENT, type PrismProxy, startPrismProxy } from './prism.js';

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
}

const document: OpenApiDocument = JSON.parse(readFileSync(DOCUMENT, 'utf8'));

/** The document's operation for a concrete method and path, if it has one. */
function operationOf(method: string, path: string) {
  for (const [template, item] of Object.entries(document.paths)) {
    if (new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(path))
      return item[method.toLowerCase()];
  }
  return undefined;
}

/** One answer seen through a proxy. */
interface Seen {
  method: string;
  path: string;
  status: number;
  contentType: string;
  violations: string | undefined;
}

// Create bodies for the SDK (typed where they are written).
const property = {
  name: 'Oak',
  street_address: '500 Oak Ave',
  city: 'Austin',
  state: 'Texas',
  zip_code: '73301',
};
const groupCreate = () => ({
  applicants: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }],
  property,
  decision_maker_display_name: 'Oak Rentals',
  monthly_rent: 1850,
});
const screeningCreate = () => ({
  applicants: [
    { applicant_first_name: 'Grace', applicant_last_name: 'Hopper', applicant_email: 'grace@example.com' },
  ],
  property,
  is_decision_maker_paying: true,
  decision_maker_display_name: 'Oak Rentals',
  monthly_rent: 2400,
});

let mock: MockServer;
let checking: PrismProxy; // --errors
let forwarding: PrismProxy; // no --errors: forwards requests it finds invalid, still validates
beforeAll(async () => {
  mock = await createMockServer({ strict: true, seed: 7 });
  [checking, forwarding] = await Promise.all([
    startPrismProxy(mock.url, { errors: true }),
    startPrismProxy(mock.url, { errors: false }),
  ]);
});
afterAll(async () => {
  await Promise.all([checking?.stop(), forwarding?.stop()]);
  await mock?.close();
});

describe('the SDK’s flows through Prism --errors in front of the strict mock', () => {
  it('create, list, find, reports, PDF and screening groups: every answer passes, no violation logged', async () => {
    const seen: Seen[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      seen.push({
        method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
        path: url.pathname,
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        violations: response.headers.get('sl-violations') ?? undefined,
      });
      return response;
    };
    const client = new VerificationClient({
      baseURL: checking.url,
      clientId: mock.clientId,
      secretKey: mock.secretKey,
      fetch: recording,
      clock: createTestClock(mock.clock),
    });
    try {
      const group = await client.applicantGroups.create({
        applicants: [
          {
            first_name: 'Lena',
            last_name: 'Fischer',
            email: 'lena.fischer@example.com',
            phone_number: '+15035550100',
            verifications: [
              { type: 'payroll_income_verification', allowed_income_sources: ['bank', 'payroll'] },
            ],
          },
          { first_name: 'Omar', last_name: 'Haddad', email: 'omar.haddad@example.com' },
        ],
        property,
        decision_maker_display_name: 'Oak Rentals',
        monthly_rent: 2200,
        correlation_id: 'prism-flow-1',
        webhook_url: 'https://hooks.example.com/verification',
      });
      const found = await client.applicantGroups.findByCorrelationId('prism-flow-1');
      expect(found?.id).toBe(group.id);
      const listed = [];
      for await (const item of client.applicantGroups.list({ statuses: ['not_started', 'in_progress'] }))
        listed.push(item.id);
      expect(listed).toContain(group.id);

      for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
      const reports = await client.applicantGroups.listReports(group.id);
      const summaries = [...reports.individual_reports, ...reports.household_reports];
      expect(summaries.length).toBeGreaterThanOrEqual(3);
      for (const summary of summaries) {
        const report = await client.reports.retrieve(summary.id);
        expect(report.report_id).toBe(summary.id);
      }
      const household = reports.household_reports[0];
      if (!household) throw new Error('no household report');
      const pdf = await client.reports.downloadPdf(household.id);
      expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');

      const screening = await client.screeningGroups.create(screeningCreate());
      expect((await client.screeningGroups.retrieve(screening.id)).id).toBe(screening.id);
      const screenings = [];
      for await (const item of client.screeningGroups.list()) screenings.push(item.id);
      expect(screenings).toContain(screening.id);
      for (const member of screening.screenings ?? []) mock.applicants.complete(member.id);
      const link = await client.screeningGroups.reportUrl(screening.id);
      expect(link.url).toMatch(/^http/);
      const data = await client.screeningGroups.reportData(screening.id);
      expect(data).toBeTypeOf('object');
      const screeningPdf = await client.screeningGroups.downloadReportPdf(screening.id);
      expect(new TextDecoder().decode(screeningPdf.subarray(0, 5))).toBe('%PDF-');
    } finally {
      await client.close();
    }

    const throughPrism = seen.filter((answer) => answer.path.startsWith('/api/'));
    const operations = new Set(throughPrism.map((answer) => `${answer.method} ${answer.path.split('/')[3]}`));
    expect(operations.size).toBeGreaterThanOrEqual(5);
    expect(throughPrism.filter((answer) => answer.violations !== undefined)).toEqual([]);
    expect(throughPrism.filter((answer) => answer.contentType.includes('problem+json'))).toEqual([]);
    expect(throughPrism.every((answer) => answer.status < 300)).toBe(true);
    // Prism's violations, and its lines logged at error level (`[CLI] ✖  error …`); not an info
    // line whose URL happens to hold the word.
    expect(
      checking.log().filter((line) => /Violation|VIOLATIONS|✖|\]\s+\S*\s*(error|fatal)\s/i.test(line)),
    ).toEqual([]);
  });
});

/** One scripted invalid request. */
interface Invalid {
  name: string;
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  path: string | (() => string);
  body?: string;
  contentType?: string;
  /** `undefined`: a valid token; `null`: none; a string: that Authorization header. */
  authorization?: string | null;
  status: number;
  /** Whether the document itself refuses the request (Prism must flag it). */
  contractInvalid: boolean;
}

const json = (value: unknown) => JSON.stringify(value);
const applicantGroups = '/api/v1/applicant_groups';
const screeningGroups = '/api/v1/screening_groups';

let expiredReport = '';
let pendingScreening = '';

const INVALID: Invalid[] = [
  {
    name: 'auth without secret_key, a camelCase twin instead',
    method: 'POST',
    path: '/api/v1/tenants/auth',
    body: json({ client_id: 'mock-client-id', secretKey: 'mock-secret-key' }),
    authorization: null,
    status: 400,
    contractInvalid: true,
  },
  {
    name: 'correlationId instead of correlation_id',
    method: 'POST',
    path: applicantGroups,
    body: json(applicantGroupBody({ correlationId: 'x' })),
    status: 400,
    contractInvalid: true,
  },
  {
    name: 'an unknown verification type',
    method: 'POST',
    path: applicantGroups,
    body: json(
      applicantGroupBody({
        applicants: [
          { first_name: 'A', last_name: 'B', email: 'a@example.com', verifications: [{ type: 'payroll' }] },
        ],
      }),
    ),
    status: 400,
    contractInvalid: true,
  },
  {
    name: 'null webhook_url',
    method: 'POST',
    path: applicantGroups,
    body: json(applicantGroupBody({ webhook_url: null })),
    status: 400,
    contractInvalid: true,
  },
  {
    name: 'is_decision_maker_paying as a string',
    method: 'POST',
    path: screeningGroups,
    body: json(screeningGroupBody({ is_decision_maker_paying: 'yes' })),
    status: 400,
    contractInvalid: true,
  },
  {
    name: 'no applicants',
    method: 'POST',
    path: screeningGroups,
    body: json(screeningGroupBody({ applicants: [] })),
    status: 400,
    contractInvalid: true,
  },
  {
    name: 'JSON sent as text/plain',
    method: 'POST',
    path: applicantGroups,
    body: json(applicantGroupBody()),
    contentType: 'text/plain',
    status: 415,
    contractInvalid: true,
  },
  {
    name: 'page 0',
    method: 'GET',
    path: `${applicantGroups}?page=0`,
    status: 400,
    contractInvalid: true,
  },
  {
    name: 'no token',
    method: 'GET',
    path: applicantGroups,
    authorization: null,
    status: 401,
    contractInvalid: true,
  },
  {
    name: 'DELETE on the group list',
    method: 'DELETE',
    path: applicantGroups,
    status: 405,
    contractInvalid: true,
  },
  {
    name: 'PUT on a report',
    method: 'PUT',
    path: '/api/v1/reports/rep_x',
    status: 405,
    contractInvalid: true,
  },
  {
    name: 'a token the mock never issued',
    method: 'GET',
    path: screeningGroups,
    authorization: 'Bearer not-a-token',
    status: 401,
    contractInvalid: false,
  },
  {
    name: 'an unknown report',
    method: 'GET',
    path: '/api/v1/reports/rep_missing',
    status: 404,
    contractInvalid: false,
  },
  {
    name: 'the reports of an unknown group',
    method: 'GET',
    path: `${applicantGroups}/ag_missing/reports`,
    status: 404,
    contractInvalid: false,
  },
  {
    name: 'an unknown screening group',
    method: 'GET',
    path: `${screeningGroups}/sg_missing`,
    status: 404,
    contractInvalid: false,
  },
  {
    name: 'the report of a screening still in progress',
    method: 'GET',
    path: () => `${screeningGroups}/${pendingScreening}/report`,
    status: 404,
    contractInvalid: false,
  },
  {
    name: 'an expired report',
    method: 'GET',
    path: () => `/api/v1/reports/${expiredReport}`,
    status: 410,
    contractInvalid: false,
  },
  {
    name: 'an applicant email that does not exist',
    method: 'POST',
    path: applicantGroups,
    body: json(
      applicantGroupBody({
        applicants: [{ first_name: 'A', last_name: 'B', email: 'nobody@example.invalid' }],
      }),
    ),
    status: 400,
    contractInvalid: false,
  },
];

describe('scripted invalid requests through Prism', () => {
  let token = '';
  beforeAll(async () => {
    const client = mock.client();
    try {
      const group = await client.applicantGroups.create(groupCreate());
      for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
      const reports = await client.applicantGroups.listReports(group.id);
      expiredReport = reports.individual_reports[0]?.id ?? '';
      mock.reports.expire(expiredReport);
      pendingScreening = (await client.screeningGroups.create(screeningCreate())).id;
      token = await client.auth.getToken();
    } finally {
      await client.close();
    }
  });

  async function send(proxy: PrismProxy, item: Invalid) {
    const path = typeof item.path === 'function' ? item.path() : item.path;
    const headers: Record<string, string> = {};
    if (item.body !== undefined) headers['content-type'] = item.contentType ?? 'application/json';
    if (item.authorization === undefined) headers.authorization = `Bearer ${token}`;
    else if (item.authorization !== null) headers.authorization = item.authorization;
    const response = await request(`${proxy.url}${path}`, { method: item.method, headers, body: item.body });
    const text = await response.body.text();
    const violationHeader = response.headers['sl-violations'];
    const violations: Array<{ location: string[]; message: string }> =
      typeof violationHeader === 'string' ? JSON.parse(violationHeader) : [];
    return {
      path: new URL(path, 'http://x').pathname,
      status: response.statusCode,
      contentType: String(response.headers['content-type'] ?? ''),
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
      violations,
    };
  }

  it.each(INVALID)('$name: the mock’s documented $status, the answer free of violations', async (item) => {
    const proxy = item.contractInvalid ? forwarding : checking;
    const answer = await send(proxy, item);
    expect(answer.status, JSON.stringify(answer.body)).toBe(item.status);
    expect(answer.contentType).toContain('application/json');
    // The answer is the documented error, and a status the operation lists (`default` alone does not count).
    expect(
      contractProblems(item.method, answer.path, answer.status, answer.contentType, answer.body),
    ).toEqual([]);
    const operation = operationOf(item.method, answer.path);
    if (operation) expect(Object.keys(operation.responses)).toContain(String(item.status));
    else expect(item.status).toBe(405); // no operation for this method: the path's 405
    expect(answer.violations.filter((v) => v.location[0] === 'response')).toEqual([]);
    const requestViolations = answer.violations.filter((v) => v.location[0] === 'request');
    if (item.contractInvalid && operation) expect(requestViolations.length).toBeGreaterThan(0);
    if (!item.contractInvalid) expect(requestViolations).toEqual([]);
  });
});
