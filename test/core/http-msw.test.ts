import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApplicantGroup,
  ResponseTooLargeError,
  ResponseValidationError,
  VerificationClient,
  VerificationError,
} from '../../src/index.js';
import { loadFixture } from '../fixtures/load.js';
import { caught } from '../support/exposure.js';
import { CLIENT_ID, capturingLogger, mintToken, SECRET_KEY } from '../support/http-server.js';

const BASE = 'https://api.verification.test';
const GROUPS = `${BASE}/api/v1/applicant_groups`;
const template = loadFixture('applicant-group') as ApplicantGroup;

function group(index: number): ApplicantGroup {
  return { ...template, id: `group-${index}`, correlation_id: `corr-${index}` };
}

const server = setupServer(
  http.post(`${BASE}/api/v1/tenants/auth`, async () => {
    const token = await mintToken();
    return new HttpResponse(null, { status: 204, headers: { authorization: `Bearer ${token}` } });
  }),
);
const seen: URL[] = [];
server.events.on('request:start', ({ request }) => {
  seen.push(new URL(request.url));
});

// The client is built before msw starts listening: fetch must be looked up at call time.
const client = new VerificationClient({
  baseURL: BASE,
  clientId: CLIENT_ID,
  secretKey: SECRET_KEY,
  fetch: globalThis.fetch,
  logLevel: 'off',
  maxRetries: 0,
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  seen.length = 0;
});
afterAll(() => server.close());

function serveGroups(total: number, pageSize: number) {
  server.use(
    http.get(GROUPS, ({ request }) => {
      const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
      const start = (page - 1) * pageSize;
      const items = Array.from({ length: Math.max(0, Math.min(pageSize, total - start)) }, (_, i) =>
        group(start + i),
      );
      return HttpResponse.json({ applicant_groups: items, total_count: total });
    }),
  );
}

describe('HTTP core over fetch (msw in-process)', () => {
  it('walks 47 groups served 20 a page, each exactly once, lazily', async () => {
    serveGroups(47, 20);
    const ids: string[] = [];
    for await (const item of client.applicantGroups.list({ statuses: ['in_progress', 'completed'] }))
      ids.push(item.id);
    expect(ids).toHaveLength(47);
    expect(new Set(ids).size).toBe(47);
    const pages = seen.filter((url) => url.pathname === '/api/v1/applicant_groups');
    expect(pages.map((url) => url.searchParams.get('page'))).toEqual(['1', '2', '3']);
    expect(pages.every((url) => url.searchParams.get('statuses') === 'in_progress,completed')).toBe(true);
  });

  it('gives a Page with totalCount, hasNextPage and getNextPage', async () => {
    serveGroups(47, 20);
    const first = await client.applicantGroups.list();
    expect(first.items).toHaveLength(20);
    expect(first.totalCount).toBe(47);
    expect(first.page).toBe(1);
    expect(first.hasNextPage()).toBe(true);
    const third = await (await first.getNextPage()).getNextPage();
    expect(third.items).toHaveLength(7);
    expect(third.hasNextPage()).toBe(false);
  });

  it('collects with toArray({ limit }) without fetching pages it does not need', async () => {
    serveGroups(47, 20);
    const items = await client.applicantGroups.list().toArray({ limit: 5 });
    expect(items.map((item) => item.id)).toEqual(['group-0', 'group-1', 'group-2', 'group-3', 'group-4']);
    expect(seen.filter((url) => url.pathname === '/api/v1/applicant_groups')).toHaveLength(1);
  });

  it('stops on an empty page even when total_count promises more', async () => {
    server.use(
      http.get(GROUPS, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        return HttpResponse.json({ applicant_groups: page === 1 ? [group(0)] : [], total_count: 99 });
      }),
    );
    expect(await client.applicantGroups.list().toArray()).toHaveLength(1);
  });

  it('sends created_after as Unix seconds and rejects page 0 before any I/O', async () => {
    serveGroups(0, 20);
    await client.applicantGroups.list({ created_after: new Date('2026-01-01T00:00:00Z'), search: 'Harbor' });
    const url = seen.find((u) => u.pathname === '/api/v1/applicant_groups');
    expect(url?.searchParams.get('created_after')).toBe('1767225600');
    expect(url?.searchParams.get('search')).toBe('Harbor');
    seen.length = 0;
    await expect(client.applicantGroups.list({ page: 0 })).rejects.toMatchObject({
      name: 'RequestValidationError',
      issues: [{ path: 'page' }],
    });
    expect(seen).toHaveLength(0);
  });

  it('turns a non-JSON body into ResponseValidationError, never a SyntaxError', async () => {
    server.use(
      http.get(
        GROUPS,
        () => new HttpResponse('{"applicant_groups": [', { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const error = await caught(client.applicantGroups.list());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.code).toBe('invalid_json');
  });

  it('rejects a schema-invalid body with the issues and the body', async () => {
    const bad = { applicant_groups: [{ ...template, monthly_rent_cents: 'lots' }], total_count: 1 };
    server.use(http.get(GROUPS, () => HttpResponse.json(bad)));
    const error = (await caught(client.applicantGroups.list())) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((issue) => issue.path)).toContain('applicant_groups[0].monthly_rent_cents');
    expect(error.body).toEqual(bad);
  });

  it("in validation: 'warn' mode logs and returns the body as received", async () => {
    const capture = capturingLogger();
    const lenient = new VerificationClient({
      baseURL: BASE,
      clientId: CLIENT_ID,
      secretKey: SECRET_KEY,
      fetch: true,
      validation: 'warn',
      logger: capture.logger,
    });
    const bad = { applicant_groups: [{ ...template, monthly_rent_cents: 'lots' }], total_count: 1 };
    server.use(http.get(GROUPS, () => HttpResponse.json(bad)));
    const page = await lenient.applicantGroups.list();
    expect(page.items[0]?.monthly_rent_cents).toBe('lots');
    expect(capture.lines.some((line) => line.startsWith('warn') && line.includes('monthly_rent_cents'))).toBe(
      true,
    );
  });

  it('refuses a body over maxResponseBytes', async () => {
    const small = new VerificationClient({
      baseURL: BASE,
      clientId: CLIENT_ID,
      secretKey: SECRET_KEY,
      fetch: true,
      logLevel: 'off',
      maxResponseBytes: 1024,
    });
    serveGroups(30, 30);
    const error = await caught(small.applicantGroups.list());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(VerificationError);
  });
});
