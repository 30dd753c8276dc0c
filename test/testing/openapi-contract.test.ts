/**
 * The mock against openapi.json: a tour through every endpoint and the states its answers take
 * (groups not started, in progress, completed; household and individual reports; an expired
 * report; screening groups; errors from validation, auth, unknown ids and injected faults), each
 * answer checked by ajv in `call()` (test/testing/helpers.ts), which the other testing-kit suites
 * use too. And the check itself: it fails answers that drift from the document.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApplicantGroup } from '../../src/schemas/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { contractProblems } from '../support/openapi-contract.js';
import { applicantGroupBody, call, screeningGroupBody, session } from './helpers.js';

const JSON_TYPE = 'application/json';

describe('the contract check', () => {
  it('fails a body that drifted from the document, an undocumented status, and an undeclared route', () => {
    const report = { report_id: 'r', applicant_group_id: 'g', pdf_url: 'https://x', report_type: 'income' };
    expect(contractProblems('GET', '/api/v1/reports/r', 200, JSON_TYPE, report)).toEqual([
      "GET /api/v1/reports/{reportId} 200: (body) must have required property 'data'",
      "GET /api/v1/reports/{reportId} 200: (body) must have required property 'data'",
      // The identity and asset branches: another type, and no data either.
      'GET /api/v1/reports/{reportId} 200: /report_type must be equal to one of the allowed values',
      "GET /api/v1/reports/{reportId} 200: (body) must have required property 'data'",
      'GET /api/v1/reports/{reportId} 200: /report_type must be equal to one of the allowed values',
      "GET /api/v1/reports/{reportId} 200: (body) must have required property 'data'",
      'GET /api/v1/reports/{reportId} 200: /report_type must NOT be valid',
      'GET /api/v1/reports/{reportId} 200: (body) must match exactly one schema in oneOf',
    ]);
    expect(contractProblems('GET', '/api/v1/reports/r', 200, JSON_TYPE, { ...report, data: {} })).toEqual([]);
    // An income report carries income data (the open shape excludes `income`), as the SDK requires.
    expect(
      contractProblems('GET', '/api/v1/reports/r', 200, JSON_TYPE, { ...report, data: { recurring: 'n/a' } }),
    ).toContain('GET /api/v1/reports/{reportId} 200: /data/recurring must be object');
    const identity = { ...report, report_type: 'identity', data: {} };
    expect(contractProblems('GET', '/api/v1/reports/r', 200, JSON_TYPE, identity)).toEqual([]);
    // A known type carries its type's data: an identity report's is an object, whatever its fields.
    expect(
      contractProblems('GET', '/api/v1/reports/r', 200, JSON_TYPE, { ...identity, data: 'n/a' }),
    ).toContain('GET /api/v1/reports/{reportId} 200: /data must be object');
    expect(
      contractProblems('GET', '/api/v1/reports/r', 200, JSON_TYPE, { ...identity, pdf_url: 'reports/r.pdf' }),
    ).toContain('GET /api/v1/reports/{reportId} 200: /pdf_url must match format "uri"');
    // Error answers: the documented ones (a range included) carry the Error body; others are undocumented.
    const error = { error: 'service_unavailable', message: 'down' };
    expect(contractProblems('GET', '/api/v1/reports/r', 503, JSON_TYPE, error)).toEqual([]);
    expect(contractProblems('GET', '/api/v1/reports/r', 410, JSON_TYPE, { ...error, message: 1 })).toEqual([
      'GET /api/v1/reports/{reportId} 410: /message must be string',
    ]);
    expect(contractProblems('GET', '/api/v1/reports/r', 403, JSON_TYPE, error)).toEqual([
      'GET /api/v1/reports/r: status 403 is not in openapi.json',
    ]);
    expect(
      contractProblems('GET', '/api/v1/applicant_groups', 200, JSON_TYPE, { applicant_groups: [{ id: 7 }] }),
    ).not.toEqual([]);
    expect(contractProblems('GET', '/api/v1/applicant_groups', 201, JSON_TYPE, {})).toEqual([
      'GET /api/v1/applicant_groups: status 201 is not in openapi.json',
    ]);
    expect(contractProblems('GET', '/api/v1/unknown', 200, JSON_TYPE, {})).toEqual([
      'GET /api/v1/unknown: 200 from a route openapi.json does not declare',
    ]);
    expect(contractProblems('GET', '/api/v1/unknown', 404, JSON_TYPE, { message: 42 })).toEqual([
      'GET /api/v1/unknown 404: /message must be string',
    ]);
    // Outside the API (PDF links, the control API): not the document's business.
    expect(contractProblems('GET', '/files/r.pdf', 200, 'application/pdf', undefined)).toEqual([]);
  });
});

describe('a tour of the mock, every answer checked against openapi.json', () => {
  let mock: MockServer;
  let api: ReturnType<typeof session>;
  beforeEach(async () => {
    mock = await createMockServer({ seed: 5, pageSize: 3 });
    api = session(mock);
  });
  afterEach(async () => {
    await mock.close();
  });

  it('applicant groups through their life cycle, with their reports', async () => {
    const created = await api('POST', '/api/v1/applicant_groups', {
      body: applicantGroupBody({ correlation_id: 'tour-1', is_invitation_disabled: false }),
    });
    expect(created.status).toBe(200);
    const group = created.json as ApplicantGroup;
    const [ada, charles] = group.applicants.map((applicant) => applicant.id);
    mock.applicants.start(ada ?? '');
    expect((await api('GET', '/api/v1/applicant_groups', { body: undefined })).status).toBe(200);
    mock.applicants.complete(ada ?? '');
    mock.applicants.complete(charles ?? '', 'no_bank');
    for (const path of [
      '/api/v1/applicant_groups?page=1',
      '/api/v1/applicant_groups?page=2',
      '/api/v1/applicant_groups?page=99',
      '/api/v1/applicant_groups?statuses=completed,in_progress',
      '/api/v1/applicant_groups?correlation_id=tour-1',
      `/api/v1/applicant_groups/${group.id}/reports`,
    ]) {
      expect((await api('GET', path)).status).toBe(200);
    }
    const reports = mock.reports.forGroup(group.id);
    expect(reports.length).toBeGreaterThanOrEqual(2);
    for (const report of reports) expect((await api('GET', `/api/v1/reports/${report.id}`)).status).toBe(200);
    mock.reports.expire(reports[0]?.id ?? '');
    expect((await api('GET', `/api/v1/reports/${reports[0]?.id}`)).status).toBeGreaterThanOrEqual(400);
    expect((await api('GET', `/api/v1/applicant_groups/${group.id}/reports`)).status).toBe(200);
  });

  it('screening groups, then errors: validation, auth, unknown ids, injected faults', async () => {
    expect((await api('POST', '/api/v1/screening_groups', { body: screeningGroupBody() })).status).toBe(200);
    expect((await api('GET', '/api/v1/screening_groups')).status).toBe(200);
    expect((await api('GET', '/api/v1/screening_groups?page=2')).status).toBe(200);

    expect((await api('POST', '/api/v1/applicant_groups', { body: { applicants: [] } })).status).toBe(400);
    expect((await api('POST', '/api/v1/screening_groups', { body: 'not json' })).status).toBe(400);
    expect((await api('GET', '/api/v1/reports/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await api('GET', '/api/v1/applicant_groups/nope/reports')).status).toBe(404);
    expect((await api('GET', '/api/v1/no-such-route')).status).toBe(404);
    expect((await call(mock.url, 'GET', '/api/v1/applicant_groups', { token: 'not-a-token' })).status).toBe(
      401,
    );
    expect(
      (await call(mock.url, 'POST', '/api/v1/tenants/auth', { body: { client_id: 'x', secret_key: 'y' } }))
        .status,
    ).toBe(401);

    mock.faults.next(1, { status: 429, retryAfter: 1 });
    expect((await api('GET', '/api/v1/applicant_groups')).status).toBe(429);
    mock.faults.next(1, { status: 503 });
    expect((await api('POST', '/api/v1/screening_groups', { body: screeningGroupBody() })).status).toBe(503);
  });
});
