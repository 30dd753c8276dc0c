/**
 * Hostile servers, written here with node:http: huge Retry-After values, a megabyte of error
 * message, a lying total_count, odd PDF links and redirects, dot-segment ids, an echoed secret.
 * Each gets a clear, typed error or a bounded result; nothing is sent twice; nothing hangs.
 */
import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { BACKOFF } from '../../src/core/call/retry.js';
import { DEFAULT_TOKEN_LIFETIME_MS, REFRESH_MARGIN_MS } from '../../src/core/token/auth.js';
import {
  APIConnectionError,
  APIError,
  BadRequestError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  VerificationClient,
} from '../../src/index.js';
import { loadFixture } from '../fixtures/load.js';
import { recordingClock } from '../support/clock.js';
import { caught, exposeError } from '../support/exposure.js';
import {
  authRoute,
  CLIENT_ID,
  capturingLogger,
  closeAfterEach,
  mintToken,
  type Route,
  SECRET_KEY,
  serverWithClient,
  startServer,
} from '../support/http-server.js';

const GROUP = '0d6e3a8e-2f43-4f55-9a35-3f1c4a9c1e01';
const REPORTS_PATH = `/api/v1/applicant_groups/${GROUP}/reports`;
const GROUPS_PATH = '/api/v1/applicant_groups';
const REPORT = 'c0ffee00-1111-4222-8333-444455556666';
const empty = { household_reports: [], individual_reports: [] };

// For the tests that build their server or client by hand (no auth route, a static token, a logger).
const track = closeAfterEach();

const setup = serverWithClient();

const rateLimited =
  (headers: Record<string, string>): Route =>
  () => ({
    status: 429,
    headers,
    body: { error: 'rate_limited' },
  });

describe('Retry-After from a hostile server', () => {
  it.each([
    ['36000 seconds', { 'retry-after': '36000' }, 36_000],
    ['2^31 seconds', { 'retry-after': String(2 ** 31) }, 2 ** 31],
    ['2^31 + 1 ms', { 'retry-after-ms': String(2 ** 31 + 1) }, (2 ** 31 + 1) / 1000],
  ])(
    'Retry-After %s: RateLimitError at once, one request, retryAfter kept',
    async (_name, headers, seconds) => {
      const { server, client } = await setup({ [`GET ${REPORTS_PATH}`]: rateLimited(headers) });
      const error = await caught(client.applicantGroups.listReports(GROUP));
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfter).toBe(seconds);
      expect(server.to(REPORTS_PATH)).toHaveLength(1);
    },
  );

  it('an HTTP date 10 hours ahead fails at once', async () => {
    const far = new Date(Date.now() + 10 * 3600_000).toUTCString();
    const { server, client } = await setup({ [`GET ${REPORTS_PATH}`]: rateLimited({ 'retry-after': far }) });
    const error = await caught(client.applicantGroups.listReports(GROUP));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(9 * 3600);
    expect(server.to(REPORTS_PATH)).toHaveLength(1);
  });

  it('an HTTP date 2 s ahead is waited out, within the cap', async () => {
    const clock = recordingClock();
    const { server, client } = await setup(
      {
        [`GET ${REPORTS_PATH}`]: (request, count) =>
          count === 1
            ? rateLimited({ 'retry-after': new Date(Date.now() + 2_000).toUTCString() })(request, count)
            : { status: 200, body: empty },
      },
      { clock },
    );
    await expect(client.applicantGroups.listReports(GROUP)).resolves.toEqual(empty);
    expect(server.to(REPORTS_PATH)).toHaveLength(2);
    // HTTP dates have whole seconds: what is left of the 2 s, never more. The wait is computed a
    // moment before the sleep starts, so on a busy machine the sleep can end a millisecond short
    // of the date and the rest is waited out: the waits add up to the date, whatever their number.
    const waited = clock.waits.reduce((sum, ms) => sum + ms, 0);
    expect(clock.waits[0]).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(2_000);
    expect(clock.waits.slice(1).every((ms) => ms > 0 && ms <= 50)).toBe(true);
  });

  it('Retry-After: 0 still waits the backoff floor before each retry', async () => {
    const clock = recordingClock();
    const { server, client } = await setup(
      { [`GET ${REPORTS_PATH}`]: rateLimited({ 'retry-after': '0' }) },
      { clock, maxRetries: 4 },
    );
    expect(await caught(client.applicantGroups.listReports(GROUP))).toBeInstanceOf(RateLimitError);
    expect(server.to(REPORTS_PATH)).toHaveLength(5);
    // One wait per retry, each the floor; the client-wide pause a 429 starts ends with it.
    expect(clock.waits).toEqual(Array(4).fill(BACKOFF.floorMs));
  });

  it('a 10-hour Retry-After does not freeze the client: that call fails, and nothing pauses', async () => {
    const clock = recordingClock();
    const { server, client } = await setup(
      {
        [`GET ${REPORTS_PATH}`]: (request, count) =>
          count === 1
            ? rateLimited({ 'retry-after': '36000' })(request, count)
            : { status: 200, body: empty },
      },
      { clock, maxConcurrency: 4, timeout: 10 * BACKOFF.maxRetryAfterMs, maxRetries: 0 },
    );
    expect(await caught(client.applicantGroups.listReports(GROUP))).toBeInstanceOf(RateLimitError);
    // A Retry-After above the cap pauses nothing: the next call goes out at once.
    await expect(client.applicantGroups.listReports(GROUP)).resolves.toBeDefined();
    expect(server.to(REPORTS_PATH)).toHaveLength(2);
    expect(clock.waits).toEqual([]);
  });
});

describe('huge and echoing error bodies', () => {
  it('a 1 MB message is capped at about 2 KB, with its size noted, in message, JSON and inspect', async () => {
    const message = `${'a'.repeat(600_000)}@${'eyJ-'.repeat(100_000)}${'x%40'.repeat(10_000)}`;
    const { client } = await setup({
      [`GET ${REPORTS_PATH}`]: () => ({ status: 400, body: { error: 'bad_request', message } }),
    });
    const error = await caught(client.applicantGroups.listReports(GROUP));
    expect(error).toBeInstanceOf(BadRequestError);
    const text = (error as Error).message;
    expect(text.length).toBeLessThan(2_500);
    expect(text).toContain('truncated');
    expect(text).toContain(String(JSON.stringify({ error: 'bad_request', message }).length));
    const shown = [JSON.stringify(error), inspect(error, { depth: 10 })];
    for (const form of shown) expect(form.length).toBeLessThan(10_000);
    // console.error goes through the same inspect hook.
    expect(inspect(error)).toContain('BadRequestError');
  });

  // Error bodies up to 64 KB are parsed; a larger one is kept as a 2,000-byte excerpt.
  const wrapping = JSON.stringify({ message: '' }).length;
  const bodyOf = (size: number) => ({ message: 'm'.repeat(size - wrapping) });
  it.each([
    ['at the 64 KB parse limit: parsed', 64 * 1024, (size: number) => bodyOf(size)],
    [
      'of 1 MB: kept unparsed as a 2 KB excerpt with its size',
      1024 * 1024,
      (size: number) =>
        expect.toSatisfy(
          (kept: unknown) =>
            typeof kept === 'string' &&
            kept.length < 2_100 &&
            kept.endsWith(`[truncated: ${size} bytes in all]`),
          'a 2 KB excerpt noting the size',
        ),
    ],
  ])('a JSON error body %s; capped in message and JSON', async (_name, size, expectedBody) => {
    const body = bodyOf(size);
    expect(JSON.stringify(body).length).toBe(size);
    const { client } = await setup({ [`GET ${REPORTS_PATH}`]: () => ({ status: 422, body }) });
    const error = (await caught(client.applicantGroups.listReports(GROUP))) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.body).toEqual(expectedBody(size));
    expect(error.message.length).toBeLessThan(2_500);
    const json = JSON.stringify(error);
    expect(json.length).toBeLessThan(5_000);
    expect(json).toContain('truncated');
  });

  it('a server echoing the secret key and the token: neither appears in errors or logs', async () => {
    const tokens: string[] = [];
    const { logger, lines } = capturingLogger();
    const server = track(
      await startServer({
        'POST /api/v1/tenants/auth': authRoute(1800, tokens),
        [`GET ${REPORTS_PATH}`]: (request) => ({
          status: 400,
          body: {
            message: `You sent ${request.headers.authorization} with key ${SECRET_KEY}`,
            echo: { authorization: request.headers.authorization, note: `key=${SECRET_KEY}` },
          },
        }),
        [`POST ${GROUPS_PATH}`]: (request) => ({ status: 503, body: `echo: ${request.body} ${SECRET_KEY}` }),
      }),
    );
    const client = track(
      new VerificationClient({
        baseURL: server.url,
        clientId: CLIENT_ID,
        secretKey: SECRET_KEY,
        logger,
        logLevel: 'debug',
        maxRetries: 0,
      }),
    );
    const error = await caught(client.applicantGroups.listReports(GROUP));
    expect(error).toBeInstanceOf(BadRequestError);
    const token = tokens[0] ?? '';
    expect(token.length).toBeGreaterThan(20);
    const shown = [
      (error as Error).message,
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
      JSON.stringify((error as APIError).body),
      ...lines,
    ].join('\n');
    expect(shown).not.toContain(SECRET_KEY);
    expect(shown).not.toContain(token);
    expect(shown).toContain('[REDACTED]');
  });

  it('an auth endpoint echoing the credentials back in a 400: the error holds no secret', async () => {
    const server = track(
      await startServer({
        'POST /api/v1/tenants/auth': (request) => ({
          status: 400,
          body: { message: `bad request ${request.body}` },
        }),
      }),
    );
    const client = track(
      new VerificationClient({
        baseURL: server.url,
        clientId: CLIENT_ID,
        secretKey: SECRET_KEY,
        logLevel: 'off',
      }),
    );
    const error = await caught(client.applicantGroups.listReports(GROUP));
    expect(error).toBeInstanceOf(BadRequestError);
    const shown = [(error as Error).message, JSON.stringify(error), inspect(error, { depth: 10 })].join('\n');
    expect(shown).not.toContain(SECRET_KEY);
  });

  it('a token whose exp is before its iat logs one warning, and is used for 30 minutes', async () => {
    const { logger, lines } = capturingLogger();
    const backwards = await mintToken(-600);
    const server = track(
      await startServer({
        'POST /api/v1/tenants/auth': () => ({
          status: 204,
          headers: { authorization: `Bearer ${backwards}` },
        }),
        [`GET ${REPORTS_PATH}`]: () => ({ status: 200, body: empty }),
      }),
    );
    const client = track(
      new VerificationClient({
        baseURL: server.url,
        clientId: CLIENT_ID,
        secretKey: SECRET_KEY,
        logger,
      }),
    );
    // The token's lifetime is read from Date.now(): only Date is faked, and time moves by hand.
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    try {
      for (let i = 0; i < 3; i++) await client.applicantGroups.listReports(GROUP);
      // Renewed a minute early (REFRESH_MARGIN_MS): still the same token a second before that.
      vi.setSystemTime(start + DEFAULT_TOKEN_LIFETIME_MS - REFRESH_MARGIN_MS - 1_000);
      await client.applicantGroups.listReports(GROUP);
      expect(server.to('/api/v1/tenants/auth')).toHaveLength(1);
      vi.setSystemTime(start + DEFAULT_TOKEN_LIFETIME_MS - REFRESH_MARGIN_MS);
      await client.applicantGroups.listReports(GROUP);
      expect(server.to('/api/v1/tenants/auth')).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
    expect(DEFAULT_TOKEN_LIFETIME_MS).toBe(30 * 60_000);
    expect(server.to(REPORTS_PATH)).toHaveLength(5);
    // One warning in all, at warn level, though the second token is as wrong as the first.
    const warnings = lines.filter((line) => line.includes('claims look wrong'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warn .*exp is not after its iat; assuming 30 minutes/);
  });
});

describe('lists that never end', () => {
  const group = (id: string) => ({ ...(loadFixture('applicant-group') as Record<string, unknown>), id });

  it('a total_count of 1e9 over the same two items every page: the walk ends after page 2', async () => {
    const { server, client } = await setup({
      [`GET ${GROUPS_PATH}`]: () => ({
        status: 200,
        body: { applicant_groups: [group('g-1'), group('g-2')], total_count: 1e9 },
      }),
    });
    const ids = (await client.applicantGroups.list().toArray()).map((item) => item.id);
    expect(ids).toEqual(['g-1', 'g-2']);
    expect(server.to(GROUPS_PATH)).toHaveLength(2);
  });
});

describe('PDF links', () => {
  const reportWith = (pdfUrl: string) => ({ ...(loadFixture('income-report') as object), pdf_url: pdfUrl });

  it.each(['file:///etc/passwd', 'data:application/pdf;base64,JVBERi0=', 'ftp://files.example.com/r.pdf'])(
    'refuses %s without a request or a retry',
    async (link) => {
      const { server, client } = await setup({
        [`GET /api/v1/reports/${REPORT}`]: () => ({ status: 200, body: reportWith(link) }),
      });
      const error = await caught(client.reports.downloadPdf(REPORT));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).issues[0]?.path).toBe('pdf_url');
      expect(server.to(`/api/v1/reports/${REPORT}`)).toHaveLength(1);
      expect(server.requests.filter((request) => !request.path.startsWith('/api/'))).toEqual([]);
    },
  );

  it('sends none of the caller headers to the file host, and follows no redirect (fetch transport too)', async () => {
    for (const transport of ['undici', 'fetch'] as const) {
      const { server, client } = await setup(
        {
          [`GET /api/v1/reports/${REPORT}`]: () => ({
            status: 200,
            body: reportWith('/files/report.pdf?sig=1'),
          }),
          'GET /files/report.pdf': () => ({ status: 307, headers: { location: '/files/elsewhere.pdf' } }),
          'GET /files/elsewhere.pdf': () => ({ status: 200, body: '%PDF-1.4' }),
        },
        {
          defaultHeaders: { 'x-api-key': 'caller-credential' },
          ...(transport === 'fetch' ? { fetch: globalThis.fetch } : {}),
        },
      );
      const error = await caught(client.reports.downloadPdf(REPORT, { headers: { 'x-tenant': 'acme' } }));
      expect(error, transport).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(307);
      expect((error as Error).message).toContain('follows no redirects');
      const downloads = server.requests.filter((request) => request.path.startsWith('/files/'));
      expect(downloads.map((request) => request.path)).toEqual(['/files/report.pdf']);
      expect(downloads[0]?.headers['x-api-key']).toBeUndefined();
      expect(downloads[0]?.headers['x-tenant']).toBeUndefined();
      expect(downloads[0]?.headers.authorization).toBeUndefined();
      // The API itself got the caller's headers.
      expect(server.to(`/api/v1/reports/${REPORT}`)[0]?.headers['x-api-key']).toBe('caller-credential');
    }
  });
});

describe('a file host that answers something other than a PDF', () => {
  const reportWith = (pdfUrl: string) => ({ ...(loadFixture('income-report') as object), pdf_url: pdfUrl });

  it.each([
    ['an HTML page', '<!doctype html><title>Sign in to the Wi-Fi</title>'],
    ['a JSON error', '{"error":"AccessDenied"}'],
    ['nothing', ''],
  ])(
    'refuses %s answered with 200: ResponseValidationError, no bytes returned as a PDF',
    async (_what, body) => {
      const { server, client } = await setup({
        [`GET /api/v1/reports/${REPORT}`]: () => ({
          status: 200,
          body: reportWith('/files/report.pdf?sig=1'),
        }),
        'GET /files/report.pdf': () => ({
          status: 200,
          body,
          headers: { 'content-type': 'application/pdf' },
        }),
      });
      const error = await caught(client.reports.downloadPdf(REPORT));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as Error).message).toMatch(/Expected a PDF/);
      // Refused once; a wrong answer is not a stale link, so the report is not retrieved again.
      expect(server.requests.filter((request) => request.path.startsWith('/files/'))).toHaveLength(1);
      expect(server.to(`/api/v1/reports/${REPORT}`)).toHaveLength(1);
    },
  );

  it('refuses the same for a screening report PDF', async () => {
    const { server, client } = await setup({
      'GET /api/v1/screening_groups/sg-1/report': () => ({
        status: 200,
        body: { url: '/files/screening.pdf?sig=1' },
      }),
      'GET /files/screening.pdf': () => ({ status: 200, body: '<html>expired</html>' }),
    });
    const error = await caught(client.screeningGroups.downloadReportPdf('sg-1'));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/Expected a PDF/);
    expect(server.requests.filter((request) => request.path.startsWith('/files/'))).toHaveLength(1);
  });

  it('takes a PDF whose header follows a byte-order mark or whitespace, as PDF readers do', async () => {
    const { client } = await setup({
      [`GET /api/v1/reports/${REPORT}`]: () => ({ status: 200, body: reportWith('/files/report.pdf?sig=1') }),
      'GET /files/report.pdf': () => ({ status: 200, body: '\ufeff\n  %PDF-1.7\n%%EOF' }),
    });
    const bytes = await client.reports.downloadPdf(REPORT);
    expect(new TextDecoder().decode(bytes)).toContain('%PDF-1.7');
  });
});

describe('path parameters', () => {
  it.each(['..', '.', '', ' ', ' .. '])('refuses the id %j before any request', async (id) => {
    const { server, client } = await setup({});
    expect(await caught(client.applicantGroups.listReports(id))).toBeInstanceOf(RequestValidationError);
    expect(await caught(client.reports.retrieve(id))).toBeInstanceOf(RequestValidationError);
    expect(await caught(client.reports.downloadPdf(id))).toBeInstanceOf(RequestValidationError);
    expect(server.requests).toEqual([]);
  });
});

describe('one retry budget per call', () => {
  it('a token endpoint answering 500 gets maxRetries + 1 calls, not (maxRetries + 1)^2', async () => {
    const clock = recordingClock();
    const server = track(
      await startServer({
        'POST /api/v1/tenants/auth': () => ({ status: 500, body: { error: 'auth down' } }),
      }),
    );
    const client = track(
      new VerificationClient({
        baseURL: server.url,
        clientId: CLIENT_ID,
        secretKey: SECRET_KEY,
        logLevel: 'off',
        clock,
      }),
    );
    const error = await caught(
      client.applicantGroups.create({
        applicants: [{ first_name: 'A', last_name: 'B', email: 'a.b@example.com' }],
        property: { name: 'P', street_address: '1 St', city: 'C', state: 'Ohio', zip_code: '43004' },
        decision_maker_display_name: 'D',
        monthly_rent: 1000,
        correlation_id: 'budget-1',
      }),
    );
    // Nothing was sent: a connection error that says so, not GroupMayHaveBeenCreatedError.
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).requestNotSent).toBe(true);
    expect((error as Error).message).toContain('nothing was sent');
    expect((error as Error).message).toContain('attempt 3 of 3');
    expect(server.to('/api/v1/tenants/auth')).toHaveLength(3);
    expect(server.to(GROUPS_PATH)).toHaveLength(0);
  });

  it('a deadline ends the call, waits included', async () => {
    const clock = recordingClock();
    const { server, client } = await setup(
      { [`GET ${REPORTS_PATH}`]: rateLimited({ 'retry-after': '5' }) },
      { clock, maxRetries: 10 },
    );
    const error = await caught(client.applicantGroups.listReports(GROUP, { deadline: 12_000 }));
    expect(error).toBeInstanceOf(RateLimitError);
    // 5 s waits fit twice into 12 s, so three attempts, not eleven.
    expect(server.to(REPORTS_PATH)).toHaveLength(3);
    expect(clock.waits).toEqual([5_000, 5_000]);
    exposeError(error);
  });
});
