/**
 * The create policy against small node:http servers: what is resent, what is looked up first,
 * what is polled over the grace window and what is reported, counted from what the server got.
 * The escape hatch for fields newer than the SDK (`extraBody`, `extraQuery`) is checked here too.
 */
import { describe, expect, it } from 'vitest';
import { BACKOFF } from '../../src/core/call/retry.js';
import {
  APIError,
  APIUserAbortError,
  type ApplicantGroupCreateParams,
  type ClientOptions,
  GroupMayHaveBeenCreatedError,
  RateLimitError,
  RequestValidationError,
} from '../../src/index.js';
import { createTestClock } from '../../src/testing/index.js';
import { createClock } from '../../src/testing/state/clock.js';
import { loadFixture } from '../fixtures/load.js';
import { backoffBefore, CLOCK_RESOLUTION_SLACK_MS, recordingClock } from '../support/clock.js';
import { caught } from '../support/exposure.js';
import {
  capturingLogger,
  type Reply,
  type Route,
  serverWithClient,
  type TestServer,
} from '../support/http-server.js';

const GROUPS = '/api/v1/applicant_groups';
// The group a create of `body()` makes: the same household, created whenever it is listed (a
// recovered group must be this household, created since the call began).
const stored = loadFixture('applicant-group') as Record<string, unknown>;
Object.defineProperty(stored, 'created_at_timestamp', { get: () => Date.now() / 1000, enumerable: true });
const body = (correlationId?: string): ApplicantGroupCreateParams => ({
  applicants: [
    { first_name: 'Maya', last_name: 'Okafor', email: 'Maya.Okafor@example.com' },
    { first_name: 'Daniel', last_name: 'Reyes', email: 'daniel.reyes@example.com' },
  ],
  property: {
    name: 'P',
    street_address: '1 Main St',
    city: 'Springfield',
    state: 'Illinois',
    zip_code: '62701',
    unit: '4B',
  },
  decision_maker_display_name: 'Acme',
  monthly_rent: 2850,
  ...(correlationId ? { correlation_id: correlationId } : {}),
});
const listOf = (...groups: unknown[]) => ({ applicant_groups: groups, total_count: groups.length });

// Tests that wait pass a recording clock: the grace window and every backoff pass on it, not in real time.
const setup = serverWithClient({ createGraceWindow: 5_000 });

/** The methods the server saw on the groups path, in order: `POST`, `GET`, ... */
const sequence = (server: TestServer) => server.to(GROUPS).map((request) => request.method);

/** The server with these routes, and a client whose waits go on a recording clock. */
async function onRecordingClock(routes: Record<string, Route>, options: Partial<ClientOptions> = {}) {
  const clock = recordingClock();
  return { clock, ...(await setup(routes, { ...options, clock })) };
}

describe('create policy', () => {
  it('an ambiguous 503 with a correlation_id: polled over the grace window, never resent, then reported', async () => {
    const { clock, server, client } = await onRecordingClock({
      [`POST ${GROUPS}`]: () => ({ status: 503, body: { error: 'unavailable' } }),
      [`GET ${GROUPS}`]: () => ({ status: 200, body: listOf() }),
    });
    const started = clock.now();
    const error = await caught(client.applicantGroups.create(body('lease-1')));
    expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect((error as GroupMayHaveBeenCreatedError).correlationId).toBe('lease-1');
    expect((error as Error).message).toContain('"lease-1"');
    const seen = sequence(server);
    expect(seen.filter((method) => method === 'POST')).toHaveLength(1);
    expect((error as Error).message).toMatch(/within the 5 s grace window \(\d+ lookups/);
    const lookups = Number(/grace window \((\d+) lookups/.exec((error as Error).message)?.[1]);
    // Every lookup reached the server, the last one at the window's end too.
    expect(seen.filter((method) => method === 'GET')).toHaveLength(lookups);
    expect(lookups).toBeGreaterThanOrEqual(2);
    // A lookup after every wait; the waits grow as the backoff does, the last one cut to the
    // window's end; the window was used to its end, and no further.
    expect(lookups).toBe(clock.waits.length + 1);
    const last = clock.waits.length - 1;
    expect(clock.waits.slice(0, last)).toEqual(
      clock.waits.slice(0, last).map((_, poll) => backoffBefore(poll)),
    );
    expect(clock.waits[last]).toBeLessThanOrEqual(Math.min(BACKOFF.initialMs * 2 ** last, BACKOFF.maxMs));
    // The last wait is cut to the window's end, a difference of epoch-millisecond times: the sum
    // may land a rounding past the end (0.00007 ms was seen).
    expect(clock.waits.reduce((sum, wait) => sum + wait, 0)).toBeLessThanOrEqual(
      5_000 + CLOCK_RESOLUTION_SLACK_MS,
    );
    expect(clock.now() - started).toBeGreaterThanOrEqual(5_000);
    expect(
      server
        .to(GROUPS)
        .find((request) => request.method === 'GET')
        ?.query.get('correlation_id'),
    ).toBe('lease-1');
  });

  it.each([
    [
      'a 503',
      { status: 503, body: { error: 'unavailable', message: 'try later' } },
      '503 POST /api/v1/applicant_groups: try later (HOST, attempt 1 of 3, ELAPSED)',
    ],
    [
      'a reset',
      { destroy: true },
      'POST /api/v1/applicant_groups on HOST failed: other side closed (UND_ERR_SOCKET) (attempt 1 of 3, ELAPSED)',
    ],
  ])(
    'the warning that starts the lookups after %s is a line of whole sentences, its cause included',
    async (_name, reply, cause) => {
      const { logger, lines } = capturingLogger();
      const { server, client } = await onRecordingClock(
        {
          [`POST ${GROUPS}`]: () => reply,
          [`GET ${GROUPS}`]: () => ({
            status: 200,
            body: listOf({ ...stored, correlation_id: 'lease-log' }),
          }),
        },
        { logger, logLevel: 'warn' },
      );
      await client.applicantGroups.create(body('lease-log'));
      const host = new URL(server.url).host;
      const line = `warn [applicant-verification] POST /api/v1/applicant_groups on HOST failed ambiguously: ${cause}. Looking the group up by correlation_id for up to 5 s; it is not resent. `;
      const pattern = line
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replaceAll('HOST', host.replaceAll('.', '\\.'))
        .replace('ELAPSED', '\\d+ ms elapsed');
      expect(lines[0]).toMatch(new RegExp(`^${pattern}$`));
      expect(lines[1]).toContain('recovered the group the failed attempt created (lookup 1).');
      expect(lines).toHaveLength(2);
    },
  );

  it("the lookup at the window's end is a full one: a group that shows up only then is returned", async () => {
    const clock = recordingClock();
    let windowEnd = Number.POSITIVE_INFINITY;
    const { server, client } = await setup(
      {
        [`POST ${GROUPS}`]: () => ({ status: 503, body: { error: 'unavailable' } }),
        // A lookup takes 20 ms to answer: one given only the time left in the window would time out.
        [`GET ${GROUPS}`]: () => ({
          status: 200,
          body: clock.now() >= windowEnd ? listOf(stored) : listOf(),
          delayMs: 20,
        }),
      },
      { clock },
    );
    windowEnd = clock.now() + 5_000;
    const group = await client.applicantGroups.create(body(String(stored.correlation_id)));
    expect(group.id).toBe(stored.id);
    expect(sequence(server).filter((method) => method === 'POST')).toHaveLength(1);
    expect(clock.now()).toBeGreaterThanOrEqual(windowEnd);
  });

  it('a deadline you set ends the polling: no lookup starts past it', async () => {
    const { clock, server, client } = await onRecordingClock({
      [`POST ${GROUPS}`]: () => ({ status: 503, body: { error: 'unavailable' } }),
      [`GET ${GROUPS}`]: () => ({ status: 200, body: listOf() }),
    });
    const started = clock.now();
    const error = await caught(client.applicantGroups.create(body('lease-2'), { deadline: 2_000 }));
    expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    const lookups = Number(/grace window \((\d+) lookups/.exec((error as Error).message)?.[1]);
    expect((error as Error).message).not.toMatch(/timed out after 1 ms/);
    expect(sequence(server).filter((method) => method === 'GET')).toHaveLength(lookups);
    // Differences of epoch-millisecond times, as above: a few 2^-12 ms past the deadline at most.
    expect(clock.waits.reduce((sum, wait) => sum + wait, 0)).toBeLessThanOrEqual(
      2_000 + CLOCK_RESOLUTION_SLACK_MS,
    );
    expect(clock.now() - started).toBeLessThan(5_000);
  });

  it('a timeout whose group shows up on a later lookup: returned, with one POST', async () => {
    const { clock, server, client } = await onRecordingClock(
      {
        [`POST ${GROUPS}`]: () => ({ status: 200, body: stored, delayMs: 300 }),
        [`GET ${GROUPS}`]: (_request, count) => ({
          status: 200,
          body: count < 3 ? listOf() : listOf(stored),
        }),
      },
      { timeout: 100 },
    );
    const group = await client.applicantGroups.create(body(String(stored.correlation_id)));
    expect(group.id).toBe(stored.id);
    expect(sequence(server)).toEqual(['POST', 'GET', 'GET', 'GET']);
    expect(clock.waits).toEqual([backoffBefore(0), backoffBefore(1)]);
  });

  it('an ambiguous failure without a correlation_id throws at once: no lookup, no resend', async () => {
    const { clock, server, client } = await onRecordingClock({
      [`POST ${GROUPS}`]: () => ({ status: 503, body: { error: 'unavailable' } }),
    });
    const error = await caught(client.applicantGroups.create(body()));
    expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect((error as Error).message).toContain('Pass a correlation_id');
    expect(sequence(server)).toEqual(['POST']);
    expect(clock.waits).toEqual([]);
  });

  it('a 429 with a correlation_id: looked up before the resend', async () => {
    const { clock, server, client } = await onRecordingClock({
      [`POST ${GROUPS}`]: (_request, count) =>
        count === 1
          ? { status: 429, headers: { 'retry-after': '0' }, body: {} }
          : { status: 200, body: stored },
      [`GET ${GROUPS}`]: () => ({ status: 200, body: listOf() }),
    });
    await expect(client.applicantGroups.create(body('lease-2'))).resolves.toMatchObject({ id: stored.id });
    expect(sequence(server)).toEqual(['POST', 'GET', 'POST']);
    expect(clock.waits).toEqual([BACKOFF.floorMs]);
  });

  it('a 429 after which the group exists (the server lied): returned, not resent', async () => {
    const { clock, server, client } = await onRecordingClock({
      [`POST ${GROUPS}`]: () => ({ status: 429, headers: { 'retry-after': '0' }, body: {} }),
      [`GET ${GROUPS}`]: () => ({ status: 200, body: listOf(stored) }),
    });
    await expect(client.applicantGroups.create(body(String(stored.correlation_id)))).resolves.toMatchObject({
      id: stored.id,
    });
    expect(sequence(server)).toEqual(['POST', 'GET']);
    expect(clock.waits).toEqual([BACKOFF.floorMs]);
  });

  it('a 429 without a correlation_id is resent as is: the server refused it before processing', async () => {
    const { clock, server, client } = await onRecordingClock({
      [`POST ${GROUPS}`]: (_request, count) =>
        count === 1
          ? { status: 429, headers: { 'retry-after': '0' }, body: {} }
          : { status: 200, body: stored },
    });
    await expect(client.applicantGroups.create(body())).resolves.toMatchObject({ id: stored.id });
    expect(sequence(server)).toEqual(['POST', 'POST']);
    expect(clock.waits).toEqual([BACKOFF.floorMs]);
  });
});

/** A reply the server never sends: the request stays open until the client gives up on it. */
const never = () => new Promise<never>(() => {});

/**
 * A client on a frozen clock that moves only with the SDK's own waits, whose server runs `routes`;
 * `clock.advance` lets a route spend the caller's time (its deadline) without real waiting.
 */
async function onFrozenClock(routes: Record<string, Route>, options: Partial<ClientOptions> = {}) {
  const clock = createClock();
  return { clock, ...(await setup(routes, { clock: createTestClock(clock), ...options })) };
}

/** The error a create ended in, as a GroupMayHaveBeenCreatedError. */
async function unresolvedOf(pending: Promise<unknown>): Promise<GroupMayHaveBeenCreatedError> {
  const error = await caught(pending);
  expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
  return error as GroupMayHaveBeenCreatedError;
}

describe('create recovery: lookups that fail, and what the error then says', () => {
  it('an ambiguous failure without a correlation_id: the error names the call and its one attempt, and keeps the failure as its cause', async () => {
    const { server, client } = await onFrozenClock({
      [`POST ${GROUPS}`]: () => ({ status: 503, body: { error: 'unavailable' } }),
    });
    const error = await unresolvedOf(client.applicantGroups.create(body()));
    expect(error.path).toBe(GROUPS);
    expect(error.cause).toBeInstanceOf(APIError);
    expect((error.cause as APIError).status).toBe(503);
    expect(error.message).toMatch(
      new RegExp(
        `^POST ${GROUPS} on ${new URL(server.url).host.replaceAll('.', '\\.')} \\(1 attempt, \\d+ ms\\) failed after`,
      ),
    );
  });

  it('a create refused once (429) and then failing ambiguously: the error counts both attempts', async () => {
    const { server, client } = await onFrozenClock({
      [`POST ${GROUPS}`]: (_request, count) =>
        count === 1
          ? { status: 429, headers: { 'retry-after': '0' }, body: {} }
          : { status: 503, body: { error: 'unavailable' } },
      [`GET ${GROUPS}`]: () => ({ status: 200, body: listOf() }),
    });
    const error = await unresolvedOf(client.applicantGroups.create(body('lease-twice')));
    expect(error.message).toMatch(
      new RegExp(`^POST ${GROUPS} on \\S+ \\(2 attempts, \\d+ ms\\) failed after`),
    );
    expect(sequence(server).filter((method) => method === 'POST')).toHaveLength(2);
  });

  it('recovery lookups that all fail: GroupMayHaveBeenCreatedError says how the last one failed, and nothing is resent', async () => {
    const { server, client } = await onFrozenClock({
      [`POST ${GROUPS}`]: () => ({ status: 503, body: { error: 'unavailable' } }),
      [`GET ${GROUPS}`]: () => ({ status: 500, body: { error: 'internal', message: 'list is down' } }),
    });
    const error = await unresolvedOf(client.applicantGroups.create(body('lease-down')));
    expect(error.correlationId).toBe('lease-down');
    expect((error.cause as APIError).status).toBe(503);
    const gets = sequence(server).filter((method) => method === 'GET').length;
    expect(gets).toBeGreaterThanOrEqual(2);
    expect(error.message).toContain(
      `it did not appear within the 5 s grace window (${gets} lookups; the last lookup failed: 500 GET ${GROUPS}?correlation_id=lease-down&`,
    );
    expect(error.message).toMatch(
      /: list is down \(127\.0\.0\.1:\d+, attempt 1 of 1, \d+ ms elapsed\)\)\. Later/,
    );
    expect(sequence(server).filter((method) => method === 'POST')).toHaveLength(1);
  });

  it('a recovery lookup that failed and a later one that answered: the group is not there, and no failure is claimed for the last lookup', async () => {
    const { server, client } = await onFrozenClock({
      [`POST ${GROUPS}`]: () => ({ status: 503, body: { error: 'unavailable' } }),
      [`GET ${GROUPS}`]: (_request, count) =>
        count === 1 ? { status: 500, body: { error: 'internal' } } : { status: 200, body: listOf() },
    });
    const error = await unresolvedOf(client.applicantGroups.create(body('lease-flaky')));
    const gets = sequence(server).filter((method) => method === 'GET').length;
    expect(gets).toBeGreaterThanOrEqual(2);
    expect(error.message).toContain(`it did not appear within the 5 s grace window (${gets} lookups).`);
  });

  it("recovery lookups carry the caller's per-call headers", async () => {
    const { server, client } = await onFrozenClock({
      [`POST ${GROUPS}`]: () => ({ status: 503, body: { error: 'unavailable' } }),
      [`GET ${GROUPS}`]: () => ({ status: 200, body: listOf(stored) }),
    });
    const group = await client.applicantGroups.create(body(String(stored.correlation_id)), {
      headers: { 'x-request-source': 'intake-form' },
    });
    expect(group.id).toBe(stored.id);
    const requests = server.to(GROUPS);
    expect(requests.map((request) => [request.method, request.headers['x-request-source']])).toEqual([
      ['POST', 'intake-form'],
      ['GET', 'intake-form'],
    ]);
  });
});

describe("create recovery: the caller's signal and deadline reach every lookup", () => {
  const refusals = {
    'a recovery lookup (after a 503)': { status: 503, body: { error: 'unavailable' } },
    'the lookup before a resend (after a 429)': { status: 429, headers: { 'retry-after': '0' }, body: {} },
  } satisfies Record<string, Reply>;

  it.each(Object.entries(refusals))(
    "the caller's abort during %s: APIUserAbortError, though the lookup's answer would have found the group",
    async (_name, failure) => {
      const controller = new AbortController();
      const { server, client } = await onFrozenClock({
        [`POST ${GROUPS}`]: () => failure,
        // The caller gives up while the lookup is on the server; the answer it would get finds the group.
        [`GET ${GROUPS}`]: () => {
          controller.abort(new Error('the user left the page'));
          return { status: 200, body: listOf(stored) };
        },
      });
      const error = await caught(
        client.applicantGroups.create(body(String(stored.correlation_id)), { signal: controller.signal }),
      );
      expect(error).toBeInstanceOf(APIUserAbortError);
      expect((error as Error).message).toContain('the user left the page');
      expect(sequence(server)).toEqual(['POST', 'GET']);
    },
  );

  it.each([
    [
      'a recovery lookup',
      refusals['a recovery lookup (after a 503)'],
      // One lookup, given the 30 ms left rather than the 5 s timeout; at the deadline no other starts.
      /\(1 lookup; the last lookup failed: GET \S+ on \S+ timed out after 30 ms/,
      ['POST', 'GET'],
    ],
    [
      'the lookup before a resend',
      refusals['the lookup before a resend (after a 429)'],
      /the lookup before resending failed \(GET \S+ on \S+ timed out after 30 ms/,
      // The 429 paused the client for longer than the 30 ms left: the lookup ran out of time queued.
      ['POST'],
    ],
  ])("%s is cut to the caller's deadline", async (_name, failure, said, seen) => {
    const deadline = 10_000;
    const { clock, server, client } = await onFrozenClock(
      {
        // The create spends all but 30 ms of the deadline before it fails.
        [`POST ${GROUPS}`]: () => {
          clock.advance(deadline - 30);
          return failure;
        },
        [`GET ${GROUPS}`]: never,
      },
      { timeout: 5_000 },
    );
    const error = await unresolvedOf(client.applicantGroups.create(body('lease-late'), { deadline }));
    expect(error.message).toMatch(said);
    expect(sequence(server)).toEqual(seen);
  });
});

describe('create recovery: the lookup before a resend', () => {
  it('a 429 whose lookup before the resend fails: GroupMayHaveBeenCreatedError, the create not sent again', async () => {
    const { server, client } = await onFrozenClock({
      [`POST ${GROUPS}`]: (_request, count) =>
        count === 1
          ? { status: 429, headers: { 'retry-after': '0' }, body: {} }
          : { status: 200, body: stored },
      [`GET ${GROUPS}`]: () => ({ status: 500, body: { error: 'internal', message: 'list is down' } }),
    });
    const error = await unresolvedOf(client.applicantGroups.create(body('lease-429')));
    expect(sequence(server)).toEqual(['POST', 'GET']);
    expect(error.correlationId).toBe('lease-429');
    expect(error.cause).toBeInstanceOf(RateLimitError);
    expect(error.message).toMatch(
      new RegExp(
        `^POST ${GROUPS} on \\S+ \\(1 attempt, \\d+ ms\\) failed after it may have reached the server`,
      ),
    );
    expect(error.message).toContain(
      `Looked up by correlation_id "lease-429": the lookup before resending failed (500 GET ${GROUPS}?correlation_id=lease-429&`,
    );
    expect(error.message).toMatch(
      /: list is down \(127\.0\.0\.1:\d+, attempt 1 of 1, \d+ ms elapsed\)\)\. Later/,
    );
  });

  it('a 429 whose lookup finds nothing: resent once, without claiming the group exists', async () => {
    const { logger, lines } = capturingLogger();
    const { server, client } = await onFrozenClock(
      {
        [`POST ${GROUPS}`]: (_request, count) =>
          count === 1
            ? { status: 429, headers: { 'retry-after': '0' }, body: {} }
            : { status: 200, body: stored },
        [`GET ${GROUPS}`]: () => ({ status: 200, body: listOf() }),
      },
      { logger, logLevel: 'warn' },
    );
    await expect(client.applicantGroups.create(body('lease-429-empty'))).resolves.toMatchObject({
      id: stored.id,
    });
    expect(sequence(server)).toEqual(['POST', 'GET', 'POST']);
    expect(lines.filter((line) => line.includes('the group exists'))).toEqual([]);
  });

  it('a 429 after which the group exists: returned, with a warning that says so', async () => {
    const { logger, lines } = capturingLogger();
    const { server, client } = await onFrozenClock(
      {
        [`POST ${GROUPS}`]: () => ({ status: 429, headers: { 'retry-after': '0' }, body: {} }),
        [`GET ${GROUPS}`]: () => ({ status: 200, body: listOf(stored) }),
      },
      { logger, logLevel: 'warn' },
    );
    const group = await client.applicantGroups.create(body(String(stored.correlation_id)));
    expect(group.id).toBe(stored.id);
    expect(sequence(server)).toEqual(['POST', 'GET']);
    expect(lines).toContainEqual(
      expect.stringContaining(
        `POST ${GROUPS} on ${new URL(server.url).host}: the group exists although the server refused the create; returning it.`,
      ),
    );
  });
});

describe('extraBody and extraQuery: fields newer than the SDK', () => {
  it('are merged into the wire body and query after validation', async () => {
    const { server, client } = await setup({
      [`POST ${GROUPS}`]: () => ({ status: 200, body: stored }),
      [`GET ${GROUPS}`]: () => ({ status: 200, body: listOf(stored) }),
    });
    await client.applicantGroups.create(body(), { extraBody: { screening_profile: 'standard' } });
    const sent = JSON.parse(server.to(GROUPS)[0]?.body ?? '{}') as Record<string, unknown>;
    expect(sent.screening_profile).toBe('standard');
    expect(sent.monthly_rent).toBe(2850);
    await client.applicantGroups.list({ search: 'Acme' }, { extraQuery: { sort: 'created_at' } });
    const query = server.to(GROUPS)[1]?.query;
    expect(query?.get('sort')).toBe('created_at');
    expect(query?.get('search')).toBe('Acme');
  });

  it('may not replace a field the SDK validates: refused before any I/O', async () => {
    const { server, client } = await setup({});
    const error = await caught(
      client.applicantGroups.create(body(), { extraBody: { monthly_rent: 185_000 } }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toBe('extraBody.monthly_rent');
    const listError = await caught(
      client.applicantGroups.list({ search: 'x' }, { extraQuery: { search: 'y' } }),
    );
    expect(listError).toBeInstanceOf(RequestValidationError);
    expect(server.requests).toEqual([]);
  });
});
