/**
 * One scenario table, three adapters around the same core: the node:http server (global fetch
 * over loopback), `mock.fetch` (in process, no sockets) and the msw handlers (global fetch
 * intercepted by msw's setupServer). Every scenario uses only HTTP: the API and `/__mock/*`.
 */
import { VerificationClient } from 'applicant-verification';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  applicantGroupListResponseSchema,
  applicantGroupReportsSchema,
  applicantGroupSchema,
  reportDetailSchema,
} from '../../src/schemas/index.js';
import {
  createMockApi,
  createMockServer,
  DEFAULT_START_TIME,
  type MockApi,
} from '../../src/testing/index.js';
import { createMockApi as createMswMockApi } from '../../src/testing/msw.js';
import { applicantGroupBody } from './helpers.js';

/** What a scenario gets: a base URL, the fetch to reach it with, and the mock's credentials. */
interface Target {
  base: string;
  fetch: typeof fetch;
  clientId: string;
  secretKey: string;
}

interface Adapter {
  name: string;
  start(): Promise<{ target: Target; stop(): Promise<void> }>;
}

const adapters: Adapter[] = [
  {
    name: 'node:http (createMockServer)',
    async start() {
      const mock = await createMockServer({ now: DEFAULT_START_TIME });
      return {
        target: {
          base: mock.url,
          fetch: globalThis.fetch,
          clientId: mock.clientId,
          secretKey: mock.secretKey,
        },
        stop: () => mock.close(),
      };
    },
  },
  {
    name: 'mock.fetch (createMockApi, no sockets)',
    async start() {
      const mock = createMockApi({ now: DEFAULT_START_TIME });
      return {
        target: { base: mock.baseUrl, fetch: mock.fetch, clientId: mock.clientId, secretKey: mock.secretKey },
        stop: () => mock.close(),
      };
    },
  },
  {
    name: 'msw handlers (testing/msw + setupServer)',
    async start() {
      const mock = createMswMockApi({ now: DEFAULT_START_TIME });
      const server = setupServer(...mock.handlers);
      server.listen({ onUnhandledRequest: 'error' });
      return {
        target: {
          base: mock.baseUrl,
          fetch: globalThis.fetch,
          clientId: mock.clientId,
          secretKey: mock.secretKey,
        },
        async stop() {
          server.close();
          await mock.close();
        },
      };
    },
  },
];

/** JSON over the target's fetch. */
async function json(
  target: Target,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await target.fetch(path.startsWith('http') ? path : `${target.base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? null : JSON.stringify(options.body),
  });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('application/json') && text !== '';
  return {
    status: response.status,
    headers: response.headers,
    body: isJson ? (JSON.parse(text) as unknown) : text,
  };
}

async function token(target: Target): Promise<string> {
  const response = await target.fetch(`${target.base}/api/v1/tenants/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: target.clientId, secret_key: target.secretKey }),
  });
  expect(response.status).toBe(204);
  return (response.headers.get('authorization') ?? '').replace(/^Bearer /, '');
}

const scenarios: { name: string; run(target: Target): Promise<void> }[] = [
  {
    name: 'walks a group from invitation to a downloaded PDF with the API and /__mock/ only',
    async run(target) {
      const bearer = await token(target);
      const created = await json(target, 'POST', '/api/v1/applicant_groups', {
        token: bearer,
        body: applicantGroupBody(),
      });
      const group = applicantGroupSchema.parse(created.body);
      const outbox = await json(target, 'GET', `/__mock/outbox?group_id=${group.id}`);
      expect(outbox.body).toHaveLength(3);
      for (const applicant of group.applicants) {
        const done = await json(target, 'POST', `/__mock/applicants/${applicant.id}/complete`, {
          body: { reason: 'finished' },
        });
        expect(done.body).toMatchObject({
          status: 'completed',
          reasonCompleted: 'finished',
          groupId: group.id,
        });
      }
      const reports = applicantGroupReportsSchema.parse(
        (await json(target, 'GET', `/api/v1/applicant_groups/${group.id}/reports`, { token: bearer })).body,
      );
      expect([reports.individual_reports.length, reports.household_reports.length]).toEqual([2, 1]);
      const householdId = reports.household_reports[0]?.id ?? '';
      const detail = reportDetailSchema.parse(
        (await json(target, 'GET', `/api/v1/reports/${householdId}`, { token: bearer })).body,
      );
      const pdf = await target.fetch(detail.pdf_url);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString('latin1'),
      ).toBe('%PDF-');
    },
  },
  {
    name: 'control API: clock advance expires a group; reset goes back to the seeded state',
    async run(target) {
      const bearer = await token(target);
      const first = applicantGroupSchema.parse(
        (
          await json(target, 'POST', '/api/v1/applicant_groups', {
            token: bearer,
            body: applicantGroupBody(),
          })
        ).body,
      );
      const advanced = await json(target, 'POST', '/__mock/clock/advance', { body: { ms: 14 * 86_400_000 } });
      expect(advanced.body).toEqual({ now: Date.UTC(2026, 0, 29, 12), iso: '2026-01-29T12:00:00.000Z' });
      const fresh = await token(target);
      const listed = applicantGroupListResponseSchema.parse(
        (await json(target, 'GET', '/api/v1/applicant_groups', { token: fresh })).body,
      );
      expect(listed.applicant_groups.map((g) => [g.id, g.is_expired])).toEqual([[first.id, true]]);

      expect((await json(target, 'POST', '/__mock/reset')).body).toEqual({
        reset: true,
        now: Date.UTC(2026, 0, 15, 12),
      });
      expect((await json(target, 'GET', '/__mock/outbox')).body).toEqual([]);
      const again = await token(target);
      const empty = applicantGroupListResponseSchema.parse(
        (await json(target, 'GET', '/api/v1/applicant_groups', { token: again })).body,
      );
      expect(empty.total_count).toBe(0);
      // Seeded state: the same seed gives the same first id again.
      const recreated = applicantGroupSchema.parse(
        (await json(target, 'POST', '/api/v1/applicant_groups', { token: again, body: applicantGroupBody() }))
          .body,
      );
      expect(recreated.id).toBe(first.id);
    },
  },
  {
    name: 'faults over the control API: a 503 after commit leaves the group created',
    async run(target) {
      const bearer = await token(target);
      const added = await json(target, 'POST', '/__mock/faults', {
        body: {
          count: 1,
          fault: { status: 503, afterCommit: true, retryAfter: 1 },
          match: { method: 'POST', path: '/api/v1/applicant_groups' },
        },
      });
      expect(added.status).toBe(201);
      const answer = await json(target, 'POST', '/api/v1/applicant_groups', {
        token: bearer,
        body: applicantGroupBody(),
      });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      const held = await json(target, 'GET', '/__mock/groups');
      expect(held.body).toMatchObject({
        applicant_groups: [{ decision_maker_display_name: 'Acme Property Management' }],
      });
      expect(await json(target, 'GET', '/__mock/faults')).toMatchObject({ body: [] });
    },
  },
  {
    name: "an injected reset is a network error (fetch rejects with TypeError), and the group exists after 'after'",
    async run(target) {
      const bearer = await token(target);
      await json(target, 'POST', '/__mock/faults', {
        body: { fault: { reset: 'after' }, match: { method: 'POST' } },
      });
      await expect(
        json(target, 'POST', '/api/v1/applicant_groups', { token: bearer, body: applicantGroupBody() }),
      ).rejects.toThrow(TypeError);
      expect(((await json(target, 'GET', '/__mock/outbox')).body as unknown[]).length).toBe(3);
    },
  },
  {
    name: 'a truncated body is a network error by the time the body is read',
    async run(target) {
      const bearer = await token(target);
      await json(target, 'POST', '/__mock/faults', {
        body: { fault: { truncated: true }, match: { method: 'GET' } },
      });
      await expect(json(target, 'GET', '/api/v1/applicant_groups', { token: bearer })).rejects.toThrow(
        TypeError,
      );
    },
  },
  {
    name: 'a 2 MB body gets 413, and the mock keeps serving',
    async run(target) {
      const bearer = await token(target);
      const big = JSON.stringify({ ...applicantGroupBody(), padding: 'x'.repeat(2 * 1024 * 1024) });
      const answer = await target.fetch(`${target.base}/api/v1/applicant_groups`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: big,
      });
      expect(answer.status).toBe(413);
      expect(await answer.json()).toMatchObject({ error: 'payload_too_large' });
      expect((await json(target, 'GET', '/__mock/groups')).body).toEqual({
        applicant_groups: [],
        screening_groups: [],
      });
      const ok = await json(target, 'POST', '/api/v1/applicant_groups', {
        token: bearer,
        body: applicantGroupBody(),
      });
      expect(ok.status).toBe(200);
    },
  },
  {
    name: 'control errors: unknown applicant 404, a bad reason 400 with fields, a bad fault 400',
    async run(target) {
      const missing = await json(target, 'POST', '/__mock/applicants/nope/start');
      expect(missing).toMatchObject({
        status: 404,
        body: { message: 'No applicant or screening with id nope' },
      });
      const reason = await json(target, 'POST', '/__mock/applicants/nope/complete', {
        body: { reason: 'done' },
      });
      expect(reason).toMatchObject({ status: 400, body: { fields: [{ field: 'reason' }] } });
      const fault = await json(target, 'POST', '/__mock/faults', { body: { fault: { statuss: 500 } } });
      expect(fault).toMatchObject({ status: 400, body: { fields: [{ field: 'fault' }] } });
      expect((await json(target, 'GET', '/__mock/faults')).body).toEqual([]);
    },
  },
];

describe.each(adapters)('$name', (adapter) => {
  let target: Target;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ target, stop } = await adapter.start());
  });
  beforeEach(async () => {
    await json(target, 'POST', '/__mock/reset');
  });
  afterAll(async () => {
    await stop();
  });

  it.each(scenarios)('$name', async (scenario) => {
    await scenario.run(target);
  });
});

describe('mock.fetch as the SDK client fetch option', () => {
  let mock: MockApi;
  beforeAll(() => {
    mock = createMockApi({ seed: 4 });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('creates, lists and reads reports without a socket', async () => {
    const client = new VerificationClient({
      baseURL: mock.baseUrl,
      clientId: mock.clientId,
      secretKey: mock.secretKey,
      allowInsecureHttp: true,
      fetch: mock.fetch,
    });
    try {
      const group = await client.applicantGroups.create({
        ...applicantGroupBody(),
        correlation_id: 'lease-9',
      } as Parameters<typeof client.applicantGroups.create>[0]);
      expect(mock.outbox.forGroup(group.id)).toHaveLength(3);
      for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
      const reports = await client.applicantGroups.listReports(group.id);
      expect(reports.household_reports).toHaveLength(1);
      expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('rejects with the abort reason when the caller gives up, while the mock still commits', async () => {
    mock.faults.next(1, { commitDelayMs: 150 }, { method: 'POST', path: '/api/v1/applicant_groups' });
    const before = mock.groups.applicant().length;
    const bearer = await token({
      base: mock.baseUrl,
      fetch: mock.fetch,
      clientId: mock.clientId,
      secretKey: mock.secretKey,
    });
    const attempt = mock.fetch(`${mock.baseUrl}/api/v1/applicant_groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify(applicantGroupBody()),
      signal: AbortSignal.timeout(20),
    });
    await expect(attempt).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(mock.groups.applicant()).toHaveLength(before);
    await expect.poll(() => mock.groups.applicant().length, { timeout: 2000, interval: 20 }).toBe(before + 1);
  });
});
