import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applicantGroupListResponseSchema, applicantGroupSchema } from '../../src/schemas/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { applicantGroupBody, call, expectError, expectOk, login } from './helpers.js';

describe('mock fault injection', () => {
  let mock: MockServer;
  let token: string;
  const create = () =>
    call(mock.url, 'POST', '/api/v1/applicant_groups', { token, body: applicantGroupBody() });
  const list = () => call(mock.url, 'GET', '/api/v1/applicant_groups', { token });

  beforeEach(async () => {
    mock = await createMockServer();
    token = await login(mock);
  });
  afterEach(async () => {
    await mock.close();
  });

  it('status: answers the next n matching requests with a JSON error and Retry-After, without processing', async () => {
    mock.faults.next(2, { status: 429, retryAfter: 3, retryAfterMs: 2500 });
    const first = await create();
    expect(expectError(first, 429).error).toBe('rate_limited');
    expect(first.headers['retry-after']).toBe('3');
    expect(first.headers['retry-after-ms']).toBe('2500');
    expectError(await create(), 429);
    expect(mock.groups.applicant()).toHaveLength(0);
    expect(mock.outbox.count()).toBe(0);
    expectOk(await create(), applicantGroupSchema);
    expect(mock.faults.pending()).toEqual([]);

    mock.faults.next(1, { status: 503, body: { error: 'maintenance', message: 'Back soon' } });
    expect(expectError(await list(), 503)).toEqual({ error: 'maintenance', message: 'Back soon' });
  });

  it('match: only requests with that method and path (prefix or RegExp) take the fault', async () => {
    mock.faults.next(1, { status: 500 }, { method: 'post', path: '/api/v1/applicant_groups' });
    mock.faults.next(1, { status: 502 }, { path: /\/reports\/[^/]+$/ });
    expect(mock.faults.pending().map((p) => p.remaining)).toEqual([1, 1]);
    expectOk(await list(), applicantGroupListResponseSchema);
    expectError(await call(mock.url, 'GET', '/api/v1/reports/x', { token }), 502);
    expectError(await create(), 500);
    expectOk(await create(), applicantGroupSchema);
    mock.faults.next(3, { status: 500 });
    mock.faults.clear();
    expectOk(await list(), applicantGroupListResponseSchema);
  });

  it('latencyMs: delays the answer in real time, alone or with a status', async () => {
    mock.faults.next(1, { latencyMs: 120 });
    let started = performance.now();
    expectOk(await list(), applicantGroupListResponseSchema);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    mock.faults.next(1, { status: 504, latencyMs: 80 });
    started = performance.now();
    expectError(await list(), 504);
    expect(performance.now() - started).toBeGreaterThanOrEqual(70);
  });

  it("reset 'before': the socket dies and nothing is created", async () => {
    mock.faults.next(1, { reset: 'before' });
    await expect(create()).rejects.toThrow();
    expect(mock.groups.applicant()).toHaveLength(0);
    expect(mock.outbox.count()).toBe(0);
    expectOk(await create(), applicantGroupSchema);
  });

  it("reset 'after': the group and its invitations exist, yet the client sees a dead socket", async () => {
    mock.faults.next(1, { reset: 'after' }, { method: 'POST' });
    await expect(create()).rejects.toThrow();
    expect(mock.groups.applicant()).toHaveLength(1);
    expect(mock.outbox.count()).toBe(3);
  });

  it('delayAfterMs: processed, then held past the client timeout', async () => {
    mock.faults.next(1, { delayAfterMs: 400 });
    const attempt = request(`${mock.url}/api/v1/applicant_groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(applicantGroupBody()),
      signal: AbortSignal.timeout(100),
    });
    const started = performance.now();
    await expect(attempt).rejects.toThrow(/abort|timeout/i);
    expect(performance.now() - started).toBeLessThan(350);
    expect(mock.groups.applicant()).toHaveLength(1);
  });

  it('malformedJson: processed, then 200 with a body that is not JSON', async () => {
    mock.faults.next(1, { malformedJson: true });
    const response = await request(`${mock.url}/api/v1/applicant_groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(applicantGroupBody()),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    const text = await response.body.text();
    expect(() => JSON.parse(text)).toThrow();
    expect(text.startsWith('{"id":')).toBe(true);
    expect(mock.groups.applicant()).toHaveLength(1);
  });

  it('truncated: processed, headers with the full Content-Length, half the body, then a reset', async () => {
    mock.faults.next(1, { truncated: true });
    const response = await request(`${mock.url}/api/v1/applicant_groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(applicantGroupBody()),
    });
    expect(response.statusCode).toBe(200);
    const announced = Number(response.headers['content-length']);
    expect(announced).toBeGreaterThan(100);
    await expect(response.body.text()).rejects.toThrow();
    expect(mock.groups.applicant()).toHaveLength(1);
  });

  it('counts faulted requests in stats too', async () => {
    mock.faults.next(1, { status: 500 });
    await list();
    await list();
    expect(mock.stats.count('GET /api/v1/applicant_groups')).toBe(2);
    expect(mock.stats.routes()).toEqual({
      'POST /api/v1/tenants/auth': 1,
      'GET /api/v1/applicant_groups': 2,
    });
  });
});
