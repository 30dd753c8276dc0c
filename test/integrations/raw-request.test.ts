/**
 * Raw requests (`client.request`, `client.get`, `client.post`) go through the same core as the
 * resource methods: auth, the create policy, timeouts, validation, logging. Against the mock over
 * loopback, and against a small recording server for what goes on the wire.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKOFF } from '../../src/core/call/retry.js';
import {
  APIConnectionTimeoutError,
  GroupMayHaveBeenCreatedError,
  NotFoundError,
  RequestOutcomeUnknownError,
  RequestValidationError,
  ResponseValidationError,
  VerificationClient,
} from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { backoffBefore, type RecordingClock, recordingClock } from '../support/clock.js';
import { caught, exposeError } from '../support/exposure.js';
import { authRoute, CLIENT_ID, capturingLogger, SECRET_KEY, startServer } from '../support/http-server.js';
import { clientFor } from '../support/mock-client.js';

const GROUPS = '/api/v1/applicant_groups';
const CREATE = `POST ${GROUPS}`;

const groupBody = (key: string) => groupCreateBody(`ana.${key}@example.com`, `raw-${key}`);

/** The fields this test reads of a list page: a schema of the caller's own. */
const groupListSchema = z.object({
  applicant_groups: z.array(
    z.object({ id: z.string(), correlation_id: z.string().nullable(), status: z.string() }),
  ),
  total_count: z.number(),
});

describe('raw requests against the mock', () => {
  let mock: MockServer;
  let client: VerificationClient;
  let log: ReturnType<typeof capturingLogger>;
  let clock: RecordingClock;

  beforeEach(async () => {
    mock = await createMockServer({ seed: 11 });
    log = capturingLogger();
    clock = recordingClock();
    client = clientFor(mock, {
      logLevel: 'debug',
      logger: log.logger,
      clock,
    });
    await client.applicantGroups.create(groupBody('a'));
    await client.applicantGroups.create(groupBody('b'));
    mock.stats.reset();
  });

  afterEach(async () => {
    await client.close();
    await mock.close();
  });

  it('GET with a schema: authorised, query encoded, the result parsed by the schema', async () => {
    const { data, response } = await client
      .request({
        method: 'GET',
        path: GROUPS,
        query: {
          correlation_id: 'raw-b',
          statuses: ['not_started', 'in_progress'],
          page: 1,
          search: undefined,
        },
        schema: groupListSchema,
      })
      .withResponse();
    expect(data.total_count).toBe(1);
    expect(data.applicant_groups.map((group) => group.correlation_id)).toEqual(['raw-b']);
    // The schema's output: only the fields it names.
    expect(Object.keys(data.applicant_groups[0] ?? {}).sort()).toEqual(['correlation_id', 'id', 'status']);
    expect(response.status).toBe(200);
    const [entry] = mock.stats.log();
    expect(entry?.url).toBe(`${GROUPS}?correlation_id=raw-b&statuses=not_started%2Cin_progress&page=1`);
    expect(entry?.authorized).toBe(true);
    expect(log.lines.some((line) => line.startsWith(`debug [applicant-verification] GET ${GROUPS}?`))).toBe(
      true,
    );
  });

  it('GET without a schema gives the JSON as the server sent it', async () => {
    const data = await client.get(GROUPS, { query: { correlation_id: 'raw-a' } });
    expect(data).toEqual({ applicant_groups: [mock.groups.applicant()[0]], total_count: 1 });
  });

  it('a response the schema rejects is a ResponseValidationError naming the path', async () => {
    const error = await caught(client.get(GROUPS, { schema: z.object({ total_count: z.string() }) }));
    exposeError(error);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.path)).toEqual(['total_count']);
  });

  it('POST sends the body once and returns the created object', async () => {
    const created = await client.post(GROUPS, { body: groupBody('c'), schema: z.object({ id: z.string() }) });
    expect(mock.groups.applicantGroup(created.id)?.correlation_id).toBe('raw-c');
    expect(mock.stats.count(CREATE)).toBe(1);
  });

  it('POST without a lookup is not resent after a reset that follows the server acting, and says only that it may have reached the server', async () => {
    mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: GROUPS });
    const error = await caught(client.post(GROUPS, { body: groupBody('d') }));
    exposeError(error);
    // A raw request is not a create, even to the create path: no claim about groups or invitations.
    expect(error).toBeInstanceOf(RequestOutcomeUnknownError);
    expect(error).not.toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect((error as RequestOutcomeUnknownError).path).toBe(GROUPS);
    expect((error as Error).message).toMatch(/may have reached the server/);
    expect((error as Error).message).not.toMatch(/invitation|group may have been created/i);
    expect(mock.stats.count(CREATE)).toBe(1);
    // The server did create it, once, with its invitations once (an email and a text).
    const made = mock.groups.applicant().filter((group) => group.correlation_id === 'raw-d');
    expect(made).toHaveLength(1);
    expect(mock.outbox.forGroup(made[0]?.id ?? '')).toHaveLength(2);
  });

  it('POST with a lookup recovers the created object instead of resending', async () => {
    mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: GROUPS });
    const created = await client.post(GROUPS, {
      body: groupBody('e'),
      schema: z.object({ id: z.string(), correlation_id: z.string().nullable() }),
      lookup: async () => {
        const page = await client.get(GROUPS, {
          query: { correlation_id: 'raw-e' },
          schema: groupListSchema,
        });
        return page.applicant_groups[0];
      },
    });
    expect(created.correlation_id).toBe('raw-e');
    expect(mock.stats.count(CREATE)).toBe(1);
    expect(mock.groups.applicant().filter((group) => group.correlation_id === 'raw-e')).toHaveLength(1);
  });

  it('POST refused by the server before processing (429) is sent again', async () => {
    mock.faults.next(1, { status: 429, retryAfterMs: 10 }, { method: 'POST', path: GROUPS });
    await client.post(GROUPS, { body: groupBody('f') });
    expect(mock.stats.count(CREATE)).toBe(2);
    expect(mock.groups.applicant().filter((group) => group.correlation_id === 'raw-f')).toHaveLength(1);
    // The server's 10 ms, raised to the floor, before the resend.
    expect(clock.waits).toEqual([BACKOFF.floorMs]);
  });

  it('GET is retried after a reset and honours the timeout', async () => {
    mock.faults.next(1, { reset: 'before' }, { method: 'GET', path: GROUPS });
    await client.get(GROUPS);
    expect(mock.stats.count(`GET ${GROUPS}`)).toBe(2);
    expect(clock.waits).toEqual([backoffBefore(0)]);

    mock.faults.next(1, { latencyMs: 500 }, { method: 'GET', path: GROUPS });
    const error = await caught(client.get(GROUPS, { options: { timeout: 50, maxRetries: 0 } }));
    exposeError(error);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('an error status is the usual APIError subclass', async () => {
    const error = await caught(client.get('/api/v1/reports/00000000-0000-4000-8000-000000000000'));
    exposeError(error);
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('refuses an unusable method, path or body before any request', async () => {
    const attempts: Array<[string, () => unknown]> = [
      // @ts-expect-error a JavaScript caller can pass any method
      ['method', () => client.request({ method: 'DELETE', path: GROUPS })],
      ['path', () => client.request({ method: 'GET', path: 'https://elsewhere.test/api' })],
      ['path', () => client.request({ method: 'GET', path: '//elsewhere.test/api' })],
      ['path', () => client.request({ method: 'GET', path: `${GROUPS}?page=2` })],
      ['path', () => client.request({ method: 'GET', path: '/api/v1/../admin' })],
      ['body', () => client.request({ method: 'GET', path: GROUPS, body: {} })],
      ['body', () => client.request({ method: 'POST', path: GROUPS, body: { rent: 10n } })],
    ];
    for (const [field, attempt] of attempts) {
      const error = await caught(Promise.resolve().then(attempt));
      exposeError(error);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.path).toBe(field);
    }
    expect(mock.stats.count()).toBe(0);
  });
});

describe('raw requests on the wire', () => {
  it('sends the bearer token, JSON content type and the body as given, to the base path', async () => {
    const server = await startServer({
      'POST /api/v1/tenants/auth': authRoute(),
      'POST /api/v2/new_things': () => ({ status: 201, body: { id: 'thing-1', extra: true } }),
    });
    const client = new VerificationClient({
      baseURL: server.url,
      clientId: CLIENT_ID,
      secretKey: SECRET_KEY,
    });
    try {
      const body = { name: 'x', nested: { list: [1, 2] } };
      const data = await client.post('/api/v2/new_things', {
        body,
        options: { headers: { 'x-trace': 't1' } },
      });
      expect(data).toEqual({ id: 'thing-1', extra: true });
      const [received] = server.to('/api/v2/new_things');
      expect(received?.method).toBe('POST');
      expect(JSON.parse(received?.body ?? '')).toEqual(body);
      expect(received?.headers['content-type']).toBe('application/json');
      expect(received?.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      expect(received?.headers['x-trace']).toBe('t1');
    } finally {
      await client.close();
      await server.close();
    }
  });
});
