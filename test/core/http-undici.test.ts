import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { BACKOFF } from '../../src/core/call/retry.js';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  RateLimitError,
  VerificationClient,
} from '../../src/index.js';
import { backoffBefore, recordingClock } from '../support/clock.js';
import { caught } from '../support/exposure.js';
import {
  authRoute,
  CLIENT_ID,
  capturingLogger,
  mintToken,
  type Reply,
  type Route,
  SECRET_KEY,
  serverWithClient,
} from '../support/http-server.js';

const GROUP = '0d6e3a8e-2f43-4f55-9a35-3f1c4a9c1e01';
const REPORTS_PATH = `/api/v1/applicant_groups/${GROUP}/reports`;
const reportsBody = {
  household_reports: [],
  individual_reports: [
    {
      id: 'b1f0c0de-0000-4000-8000-000000000001',
      report_name: 'income',
      is_expired: false,
      created_at: '2026-01-15T12:00:00Z',
      applicant_group_id: GROUP,
      applicant_id: 'a0000000-0000-4000-8000-000000000001',
      path: '/reports/b1f0c0de-0000-4000-8000-000000000001',
    },
  ],
};
const ok: Route = () => ({ status: 200, body: reportsBody, headers: { 'x-request-id': 'req_42' } });

const setup = serverWithClient();

describe('HTTP core over undici (loopback)', () => {
  it('exchanges credentials for a token from the Authorization header and sends it as Bearer', async () => {
    const tokens: string[] = [];
    const { server, client } = await setup({
      'POST /api/v1/tenants/auth': authRoute(1800, tokens),
      [`GET ${REPORTS_PATH}`]: ok,
    });
    const { data, response } = await client.applicantGroups.listReports(GROUP).withResponse();
    expect(data.individual_reports[0]?.report_name).toBe('income');
    expect(response).toMatchObject({ status: 200, requestId: 'req_42' });
    const [auth] = server.to('/api/v1/tenants/auth');
    expect(auth?.method).toBe('POST');
    expect(JSON.parse(auth?.body ?? '')).toEqual({ client_id: CLIENT_ID, secret_key: SECRET_KEY });
    expect(auth?.headers['content-type']).toBe('application/json');
    const [call] = server.to(REPORTS_PATH);
    expect(call?.headers.authorization).toBe(`Bearer ${tokens[0]}`);
    expect(call?.headers['user-agent']).toMatch(/^applicant-verification\/\d+\.\d+\.\d+ node\/v\d+/);
  });

  it('makes exactly one auth request for 20 concurrent calls', async () => {
    const { server, client } = await setup({ [`GET ${REPORTS_PATH}`]: ok });
    await Promise.all(Array.from({ length: 20 }, () => client.applicantGroups.listReports(GROUP)));
    expect(server.to('/api/v1/tenants/auth')).toHaveLength(1);
    expect(server.to(REPORTS_PATH)).toHaveLength(20);
  });

  it('refreshes a token that is about to expire before using it', async () => {
    const tokens: string[] = [];
    // 30-second tokens are always inside the 60-second refresh margin.
    const { server, client } = await setup({
      'POST /api/v1/tenants/auth': authRoute(30, tokens),
      [`GET ${REPORTS_PATH}`]: ok,
    });
    await client.applicantGroups.listReports(GROUP);
    await client.applicantGroups.listReports(GROUP);
    expect(server.to('/api/v1/tenants/auth')).toHaveLength(2);
    expect(server.to(REPORTS_PATH)[1]?.headers.authorization).toBe(`Bearer ${tokens[1]}`);
  });

  it('reuses a fresh token', async () => {
    const { server, client } = await setup({ [`GET ${REPORTS_PATH}`]: ok });
    await client.applicantGroups.listReports(GROUP);
    await client.applicantGroups.listReports(GROUP);
    expect(server.to('/api/v1/tenants/auth')).toHaveLength(1);
  });

  it('answers a 401 with one refresh and one replay', async () => {
    const tokens: string[] = [];
    const { server, client } = await setup({
      'POST /api/v1/tenants/auth': authRoute(1800, tokens),
      [`GET ${REPORTS_PATH}`]: (_request, count) =>
        count === 1 ? { status: 401, body: { error: 'token_expired' } } : ok(_request, count),
    });
    const data = await client.applicantGroups.listReports(GROUP);
    expect(data.individual_reports).toHaveLength(1);
    expect(server.to('/api/v1/tenants/auth')).toHaveLength(2);
    const calls = server.to(REPORTS_PATH);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.headers.authorization).toBe(`Bearer ${tokens[1]}`);
  });

  it('surfaces a second 401 as AuthenticationError', async () => {
    const { server, client } = await setup({
      [`GET ${REPORTS_PATH}`]: () => ({
        status: 401,
        body: { error: 'unauthorized', message: 'Invalid token' },
      }),
    });
    const error = await caught(client.applicantGroups.listReports(GROUP));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      method: 'GET',
      path: REPORTS_PATH,
      body: { error: 'unauthorized' },
    });
    expect(server.to(REPORTS_PATH)).toHaveLength(2);
  });

  it('does not retry a 401 from the auth endpoint', async () => {
    const { server, client } = await setup({ [`GET ${REPORTS_PATH}`]: ok }, { secretKey: 'wrong' });
    await expect(client.applicantGroups.listReports(GROUP)).rejects.toBeInstanceOf(AuthenticationError);
    expect(server.to('/api/v1/tenants/auth')).toHaveLength(1);
    expect(server.to(REPORTS_PATH)).toHaveLength(0);
  });

  it('succeeds after 503 twice then 200, in three attempts', async () => {
    const clock = recordingClock();
    const { server, client } = await setup(
      {
        [`GET ${REPORTS_PATH}`]: (request, count) =>
          count <= 2
            ? { status: 503, headers: { 'retry-after-ms': '5' }, body: { error: 'unavailable' } }
            : ok(request, count),
      },
      { clock },
    );
    await expect(client.applicantGroups.listReports(GROUP)).resolves.toMatchObject({ household_reports: [] });
    expect(server.to(REPORTS_PATH)).toHaveLength(3);
    // The server's 5 ms, raised to the floor, before each retry.
    expect(clock.waits).toEqual([BACKOFF.floorMs, BACKOFF.floorMs]);
  });

  it('honours Retry-After on 429', async () => {
    const clock = recordingClock();
    const { server, client } = await setup(
      {
        [`GET ${REPORTS_PATH}`]: (request, count) =>
          count === 1
            ? { status: 429, headers: { 'retry-after': '1' }, body: { error: 'rate_limited' } }
            : ok(request, count),
      },
      { clock },
    );
    await client.applicantGroups.listReports(GROUP);
    expect(server.to(REPORTS_PATH)).toHaveLength(2);
    // The second attempt waited for the server's word (1 s), not the 0.5 s default backoff; the
    // client-wide pause the 429 started ended with that wait.
    expect(clock.waits).toEqual([1_000]);
  });

  it('gives up on 429 after maxRetries with RateLimitError carrying retryAfter', async () => {
    const clock = recordingClock();
    const { server, client } = await setup(
      {
        [`GET ${REPORTS_PATH}`]: () => ({
          status: 429,
          headers: { 'retry-after': '0' },
          body: { error: 'rate_limited' },
        }),
      },
      { clock, maxRetries: 1 },
    );
    const error = await caught(client.applicantGroups.listReports(GROUP));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(0);
    expect(server.to(REPORTS_PATH)).toHaveLength(2);
    // `Retry-After: 0` still waits the floor before the one retry; none after the last attempt.
    expect(clock.waits).toEqual([BACKOFF.floorMs]);
  });

  it('does not retry a 400', async () => {
    const { server, client } = await setup({
      [`GET ${REPORTS_PATH}`]: () => ({ status: 400, body: { error: 'bad_request', message: 'nope' } }),
    });
    await expect(client.applicantGroups.listReports(GROUP)).rejects.toBeInstanceOf(BadRequestError);
    expect(server.to(REPORTS_PATH)).toHaveLength(1);
  });

  it('maps 404 to NotFoundError with the request id', async () => {
    const { client } = await setup({
      [`GET ${REPORTS_PATH}`]: () => ({
        status: 404,
        headers: { 'x-request-id': 'req_404' },
        body: { error: 'not_found' },
      }),
    });
    const error = await caught(client.applicantGroups.listReports(GROUP));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ requestId: 'req_404', status: 404 });
  });

  it('times out an attempt with APIConnectionTimeoutError', async () => {
    // The server reads the second request and never answers. The first call, on the default
    // timeout, gets the token and opens the connection, so the timed call goes out on a socket
    // that is already open: its 50 ms cannot run out on a busy machine's connect or token exchange
    // (a failure that never reached the server), only while the server holds a request it has.
    const { server, client } = await setup(
      {
        [`GET ${REPORTS_PATH}`]: (request, count) =>
          count === 1 ? ok(request, count) : new Promise<Reply>(() => {}),
      },
      { maxRetries: 0 },
    );
    await client.applicantGroups.listReports(GROUP);
    const error = await caught(client.applicantGroups.listReports(GROUP, { timeout: 50 }));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toMatchObject({ requestNotSent: false });
    await vi.waitFor(() => expect(server.to(REPORTS_PATH)).toHaveLength(2), { timeout: 20_000 });
  });

  it('retries a GET after a timeout', async () => {
    const clock = recordingClock();
    const { server, client } = await setup(
      {
        [`GET ${REPORTS_PATH}`]: (request, count) => ({
          ...ok(request, count),
          delayMs: count === 1 ? 400 : 0,
        }),
      },
      { clock, timeout: 100 },
    );
    await expect(client.applicantGroups.listReports(GROUP)).resolves.toBeDefined();
    expect(server.to(REPORTS_PATH)).toHaveLength(2);
    // A timeout carries no Retry-After: the SDK's own backoff.
    expect(clock.waits).toEqual([backoffBefore(0)]);
  });

  it('aborts with APIUserAbortError when the caller cancels', async () => {
    const { client } = await setup({
      [`GET ${REPORTS_PATH}`]: (request, count) => ({ ...ok(request, count), delayMs: 500 }),
    });
    const controller = new AbortController();
    const pending = client.applicantGroups.listReports(GROUP, { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('rejects an empty group id before any I/O', async () => {
    const { server, client } = await setup({ [`GET ${REPORTS_PATH}`]: ok });
    await expect(client.applicantGroups.listReports('')).rejects.toMatchObject({
      name: 'RequestValidationError',
      issues: [{ path: 'groupId' }],
    });
    expect(server.requests).toHaveLength(0);
  });

  it('accepts a token in a JSON body and a static accessToken', async () => {
    const token = await mintToken();
    const { server, client } = await setup({
      'POST /api/v1/tenants/auth': () => ({ status: 200, body: { access_token: token } }),
      [`GET ${REPORTS_PATH}`]: ok,
    });
    await client.applicantGroups.listReports(GROUP);
    expect(server.to(REPORTS_PATH)[0]?.headers.authorization).toBe(`Bearer ${token}`);
    const fixed = new VerificationClient({
      baseURL: server.url,
      accessToken: 'fixed-token',
      logLevel: 'off',
    });
    await fixed.applicantGroups.listReports(GROUP);
    expect(server.to(REPORTS_PATH)[1]?.headers.authorization).toBe('Bearer fixed-token');
    expect(await fixed.auth.getToken()).toBe('fixed-token');
    await fixed.close();
  });

  it('never logs the secret or the token, even at debug level; inspect shows neither', async () => {
    const tokens: string[] = [];
    const capture = capturingLogger();
    const { client } = await setup(
      {
        'POST /api/v1/tenants/auth': authRoute(1800, tokens),
        [`GET ${REPORTS_PATH}`]: (request, count) =>
          count === 1 ? { status: 503, headers: { 'retry-after-ms': '1' } } : ok(request, count),
      },
      { logLevel: 'debug', logger: capture.logger, clock: recordingClock() },
    );
    await client.applicantGroups.listReports(GROUP);
    expect(capture.lines.some((line) => line.includes(REPORTS_PATH))).toBe(true);
    expect(capture.lines.some((line) => line.startsWith('debug'))).toBe(true);
    const everything = [
      ...capture.lines,
      inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client),
    ].join('\n');
    expect(tokens[0]).toBeDefined();
    expect(everything).not.toContain(SECRET_KEY);
    expect(everything).not.toContain(tokens[0]);
  });
});

describe('cancellation while waiting for a token', () => {
  it('an aborted call stops waiting for a token exchange that has not answered', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { server, client } = await setup({
      // The exchange answers only after the test is done: a call that kept waiting would time out.
      'POST /api/v1/tenants/auth': async (request, count) => {
        await gate;
        return authRoute()(request, count);
      },
      [`GET ${REPORTS_PATH}`]: ok,
    });
    const controller = new AbortController();
    const pending = client.applicantGroups.listReports(GROUP, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.to(REPORTS_PATH)).toHaveLength(0);
    release();
  });
});
