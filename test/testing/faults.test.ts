import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applicantGroupListResponseSchema, applicantGroupSchema } from '../../src/schemas/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { applicantGroupBody, call, expectError, expectOk, login, screeningGroupBody } from './helpers.js';

// Runs `total` tasks with at most `concurrency` in flight, like a client's request pool.
async function pool<T>(
  total: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(total);
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

/** Raw requests to a mock with a token: what these tests send, aimed at one mock. */
function requestsTo(mock: MockServer, token: string) {
  return {
    list: () => call(mock.url, 'GET', '/api/v1/applicant_groups', { token }),
    createWith: (correlationId: string) =>
      call(mock.url, 'POST', '/api/v1/applicant_groups', {
        token,
        body: applicantGroupBody({ correlation_id: correlationId }),
      }),
    /** How many groups a `correlation_id` lookup lists. */
    byCorrelation: async (correlationId: string): Promise<number> => {
      const answer = await call(
        mock.url,
        'GET',
        `/api/v1/applicant_groups?correlation_id=${encodeURIComponent(correlationId)}`,
        { token },
      );
      return expectOk(answer, applicantGroupListResponseSchema).total_count ?? 0;
    },
  };
}

describe('mock fault injection', () => {
  let mock: MockServer;
  let token: string;
  const create = () =>
    call(mock.url, 'POST', '/api/v1/applicant_groups', { token, body: applicantGroupBody() });
  const list = () => requestsTo(mock, token).list();

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
    // Held for a minute (the mock's close ends the hold), against a 100 ms client timeout: the
    // only way the call can end within the test's time is the client giving up, with no bound on
    // how long that took. The group exists by then: it was processed before the hold.
    mock.faults.next(1, { delayAfterMs: 60_000 });
    const attempt = request(`${mock.url}/api/v1/applicant_groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(applicantGroupBody()),
      signal: AbortSignal.timeout(100),
    });
    await expect(attempt).rejects.toThrow(/abort|timeout/i);
    expect(mock.groups.applicant()).toHaveLength(1);
    // The fault was used up by that request: the next one is answered at once.
    expectOk(await list(), applicantGroupListResponseSchema);
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

  describe('create-policy faults', () => {
    const createWith = (correlationId: string) => requestsTo(mock, token).createWith(correlationId);
    const byCorrelation = (correlationId: string) => requestsTo(mock, token).byCorrelation(correlationId);

    it('commitDelayMs: a client that times out first leaves no group; the group appears once the hold ends', async () => {
      mock.faults.next(1, { commitDelayMs: 400 });
      const attempt = request(`${mock.url}/api/v1/applicant_groups`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(applicantGroupBody({ correlation_id: 'held-1' })),
        signal: AbortSignal.timeout(100),
      });
      await expect(attempt).rejects.toThrow(/abort|timeout/i);
      expect(mock.groups.applicant()).toHaveLength(0);
      expect(mock.outbox.count()).toBe(0);
      await vi.waitFor(() => expect(mock.groups.applicant()).toHaveLength(1), {
        timeout: 2000,
        interval: 20,
      });
      expect(mock.groups.applicant()[0]?.correlation_id).toBe('held-1');
      expect(mock.outbox.count()).toBe(3);
      expect(await byCorrelation('held-1')).toBe(1);
    });

    it('commitDelayMs: a patient client gets the normal answer after the hold', async () => {
      mock.faults.next(1, { commitDelayMs: 60 });
      const group = expectOk(await createWith('held-2'), applicantGroupSchema);
      expect(mock.groups.applicant().map((g) => g.id)).toEqual([group.id]);
      expect(mock.faults.pending()).toEqual([]);
    });

    it('listLagMs: the created group is missing from list answers (correlation_id included) until the lag passes', async () => {
      mock.faults.next(1, { listLagMs: 300 });
      // Only a group create takes a list-lag fault: this list passes it by.
      expectOk(await list(), applicantGroupListResponseSchema);
      expect(mock.faults.pending()).toHaveLength(1);
      const group = expectOk(await createWith('lagging'), applicantGroupSchema);
      expect(mock.faults.pending()).toEqual([]);
      expect(await byCorrelation('lagging')).toBe(0);
      expect(expectOk(await list(), applicantGroupListResponseSchema).total_count).toBe(0);
      expect(mock.groups.applicantGroup(group.id)?.id).toBe(group.id);
      await vi.waitFor(async () => expect(await byCorrelation('lagging')).toBe(1), {
        timeout: 2000,
        interval: 25,
      });
      // Groups created without the fault are listed at once.
      expectOk(await createWith('prompt'), applicantGroupSchema);
      expect(await byCorrelation('prompt')).toBe(1);
    });

    it('listLagMs: screening groups lag the same way', async () => {
      mock.faults.next(1, { listLagMs: 300 }, { path: '/api/v1/screening_groups' });
      const created = await call(mock.url, 'POST', '/api/v1/screening_groups', {
        token,
        body: screeningGroupBody(),
      });
      expect(created.status).toBe(200);
      const listed = () => call(mock.url, 'GET', '/api/v1/screening_groups', { token });
      expect((await listed()).json).toMatchObject({ total_count: 0, screening_groups: [] });
      expect(mock.groups.screening()).toHaveLength(1);
      await vi.waitFor(async () => expect((await listed()).json).toMatchObject({ total_count: 1 }), {
        timeout: 2000,
        interval: 25,
      });
    });

    it('status with afterCommit: the group and its invitations exist, the client gets the status', async () => {
      mock.faults.next(1, { status: 503, afterCommit: true });
      mock.faults.next(1, { status: 429, retryAfter: 2, afterCommit: true });
      mock.faults.next(1, { status: 401, afterCommit: true });
      expect(expectError(await createWith('c-503'), 503).error).toBe('service_unavailable');
      const limited = await createWith('c-429');
      expectError(limited, 429);
      expect(limited.headers['retry-after']).toBe('2');
      expectError(await createWith('c-401'), 401);
      expect(mock.groups.applicant().map((g) => g.correlation_id)).toEqual(['c-503', 'c-429', 'c-401']);
      expect(mock.outbox.count()).toBe(9);
      for (const id of ['c-503', 'c-429', 'c-401']) expect(await byCorrelation(id)).toBe(1);
    });
  });
});

// Each with a mock of its own, side by side: most of their time is the mock's real-time holds.
// A generous bound on a loaded machine, where 200 creates alone take seconds; nothing here times the SDK.
describe.concurrent('200 creates, 16 at a time, over node:http', { timeout: 120_000 }, () => {
  const total = 200;
  const run = <T>(send: (index: number) => Promise<T>) => pool(total, 16, send);
  const ownMock = async (onTestFinished: (close: () => Promise<void>) => void) => {
    const mock = await createMockServer();
    onTestFinished(() => mock.close());
    const token = await login(mock);
    return { mock, token, ...requestsTo(mock, token) };
  };

  it('status afterCommit: every create answers 503, every group exists once', async ({
    expect,
    onTestFinished,
  }) => {
    const { mock, createWith } = await ownMock(onTestFinished);
    mock.faults.next(total, { status: 503, retryAfter: 1, afterCommit: true }, { method: 'POST' });
    const answers = await run((i) => createWith(`bulk-${i}`));
    expect(answers.map((a) => a.status)).toEqual(new Array(total).fill(503));
    const ids = mock.groups.applicant().map((g) => g.correlation_id);
    expect(new Set(ids).size).toBe(total);
    expect(mock.outbox.count()).toBe(total * 3);
  });

  it('listLagMs: no create is listed right after it returns; all are listed once the lag passes', async ({
    expect,
    onTestFinished,
  }) => {
    const { mock, createWith, byCorrelation, list } = await ownMock(onTestFinished);
    // On the mock clock, which only the test moves: however long a loaded machine takes between a
    // create's answer and its lookup, the lag has not passed until the test says so.
    mock.faults.next(total, { listLagMs: 1000, clock: 'mock' });
    const seen = await run(async (i) => {
      expectOk(await createWith(`lag-${i}`), applicantGroupSchema);
      return byCorrelation(`lag-${i}`);
    });
    expect(seen).toEqual(new Array(total).fill(0));
    const listed = async () => expectOk(await list(), applicantGroupListResponseSchema).total_count;
    mock.clock.advance(999);
    expect(await listed()).toBe(0);
    mock.clock.advance(1);
    expect(await listed()).toBe(total);
  });

  it('commitDelayMs: clients that give up first leave every group created afterwards', async ({
    expect,
    onTestFinished,
  }) => {
    const { mock, token } = await ownMock(onTestFinished);
    mock.faults.next(total, { commitDelayMs: 300 }, { method: 'POST' });
    // Each client gives up as soon as the mock has its request (a query tells the requests apart
    // in the mock's log), not on a timer: a timer could fire before a loaded machine even sent
    // the request, and a request the mock never got creates nothing. The hold (300 ms) began
    // when the mock logged the request, before this poll's next turn, so the poll's timer is due
    // first and the client always gives up before the answer.
    const arrived = new Set<string>();
    const hasArrived = (url: string): boolean => {
      if (mock.stats.count() !== arrived.size) for (const entry of mock.stats.log()) arrived.add(entry.url);
      return arrived.has(url);
    };
    let createdBeforeGivingUp = 0;
    const outcomes = await run(async (i) => {
      const path = `/api/v1/applicant_groups?attempt=${i}`;
      const giveUp = new AbortController();
      const attempt = request(`${mock.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(applicantGroupBody({ correlation_id: `slow-${i}` })),
        signal: giveUp.signal,
      }).then(
        () => 'answered',
        () => 'gave up',
      );
      await vi.waitFor(() => expect(hasArrived(path)).toBe(true), { timeout: 20_000, interval: 5 });
      giveUp.abort();
      // Synchronously with giving up, before the hold can end: the group is not there yet.
      createdBeforeGivingUp += mock.groups.applicant().filter((g) => g.correlation_id === `slow-${i}`).length;
      return attempt;
    });
    expect(outcomes).toEqual(new Array(total).fill('gave up'));
    expect(createdBeforeGivingUp).toBe(0);
    await vi.waitFor(() => expect(mock.groups.applicant()).toHaveLength(total), {
      timeout: 20_000,
      interval: 25,
    });
    expect(mock.outbox.count()).toBe(total * 3);
  });
});
