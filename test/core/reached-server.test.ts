/**
 * The core's side of a create (src/core/call/reached-server.ts): an attempt that may have reached the
 * server is handed back, never resent by the core, with the retry delay its backoff would use and
 * the call's attempts and deadline, which the creates layer continues. Against small node:http
 * servers, counted from what the server got; and a create's body is checked once.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Call, HttpCore } from '../../src/core/call/http.js';
import { MayHaveReachedServerError } from '../../src/core/call/reached-server.js';
import { fetchTransport } from '../../src/core/transport/transport.js';
import { InternalServerError, RateLimitError } from '../../src/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { type RecordingClock, recordingClock } from '../support/clock.js';
import { bareCore } from '../support/core.js';
import {
  closeAfterEach,
  type Route,
  serverWithClient,
  startServer,
  type TestServer,
} from '../support/http-server.js';

const track = closeAfterEach();
const THINGS = '/api/v1/things';

/** A core on `server` that allows `maxRetries` retries, waiting on `clock`. */
function coreOn(server: TestServer, clock: RecordingClock, maxRetries: number): HttpCore {
  return bareCore(
    'token-for-the-reached-server-tests',
    server.url,
    { transport: fetchTransport(() => fetch) },
    { maxRetries, clock },
  );
}

const create: Call<z.ZodUnknown> = {
  method: 'POST',
  path: THINGS,
  body: { name: 'thing' },
  schema: z.unknown(),
  safety: 'create',
};

/** What `pending` rejects with, as a {@link MayHaveReachedServerError}. */
async function handedBack(pending: Promise<unknown>): Promise<MayHaveReachedServerError> {
  const error = await pending.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(MayHaveReachedServerError);
  return error as MayHaveReachedServerError;
}

async function serve(route: Route): Promise<TestServer> {
  return track(await startServer({ [`POST ${THINGS}`]: route, [`GET ${THINGS}`]: route }));
}

describe('the core hands back a create that may have reached the server', () => {
  it('a 429 with budget left: the delay the server asked for, one attempt sent, nothing resent', async () => {
    const server = await serve(() => ({ status: 429, headers: { 'retry-after-ms': '300' }, body: {} }));
    const clock = recordingClock();
    const error = await handedBack(coreOn(server, clock, 2).execute(create));
    expect(error.next).toEqual({ kind: 'resendable', delayMs: 300, replay: false });
    expect(error.cause).toBeInstanceOf(RateLimitError);
    expect(error.context.attempts).toBe(1);
    expect(error.context.maxAttempts).toBe(3);
    expect(error.context.progress()).toMatch(/^attempt 1 of 3, /);
    expect(server.to(THINGS)).toHaveLength(1);
    // The core waited for nothing: the wait is the creates layer's, after its lookup.
    expect(clock.waits).toEqual([]);
  });

  it('a 429 on the last attempt: resendable, but with no delay (out of attempts)', async () => {
    const server = await serve(() => ({ status: 429, body: {} }));
    const error = await handedBack(coreOn(server, recordingClock(), 0).execute(create));
    expect(error.next).toEqual({ kind: 'resendable', delayMs: undefined, replay: false });
    expect(server.to(THINGS)).toHaveLength(1);
  });

  it('a 503: ambiguous, never resent, whatever the retries allow', async () => {
    const server = await serve(() => ({ status: 503, body: {} }));
    const error = await handedBack(coreOn(server, recordingClock(), 3).execute(create));
    expect(error.next).toEqual({ kind: 'ambiguous' });
    expect(error.cause).toBeInstanceOf(InternalServerError);
    expect(server.to(THINGS)).toHaveLength(1);
  });

  it('sent again on the context it handed back, the attempts go on from there', async () => {
    const server = await serve(() => ({ status: 429, headers: { 'retry-after-ms': '300' }, body: {} }));
    const core = coreOn(server, recordingClock(), 1);
    const first = await handedBack(core.execute(create));
    const noTrace = { attempt() {}, retry() {}, lookup() {}, measure: <R>(_: number, p: Promise<R>) => p };
    const second = await handedBack(core.send(create, noTrace, first.context));
    expect(second.context).toBe(first.context);
    expect(second.context.attempts).toBe(2);
    // The second attempt was the last of two: no delay left to offer.
    expect(second.next).toEqual({ kind: 'resendable', delayMs: undefined, replay: false });
    expect(server.to(THINGS)).toHaveLength(2);
  });

  it('a read is the core’s alone: retried after its backoff, never handed back', async () => {
    const server = await serve((_, count) =>
      count === 1 ? { status: 503, body: {} } : { body: { ok: true } },
    );
    const clock = recordingClock();
    const read = { method: 'GET' as const, path: THINGS, schema: z.unknown() };
    await expect(coreOn(server, clock, 1).execute(read)).resolves.toMatchObject({ data: { ok: true } });
    expect(server.to(THINGS)).toHaveLength(2);
    expect(clock.waits).toHaveLength(1);
  });
});

describe("a create's body is checked once", () => {
  const withClient = serverWithClient({ maxRetries: 0, createGraceWindow: 0 });

  /** A create body whose `decision_maker_display_name` counts its reads. */
  function countingBody(correlationId: string) {
    const body = groupCreateBody('ana.silva@example.com', correlationId);
    const reads = { count: 0 };
    const name = body.decision_maker_display_name;
    Object.defineProperty(body, 'decision_maker_display_name', {
      get: () => {
        reads.count++;
        return name;
      },
      enumerable: true,
    });
    return { body, reads };
  }

  it.each([
    ['with a correlation id (through the create gate)', 'checked-once'],
    ['without one', undefined],
  ])('%s', async (_, correlationId) => {
    const { server, client } = await withClient({
      'POST /api/v1/applicant_groups': () => ({ status: 500, body: {} }),
    });
    const { body, reads } = countingBody(correlationId ?? 'unused');
    if (correlationId === undefined) delete body.correlation_id;
    await client.applicantGroups.create(body).catch(() => undefined);
    expect(server.to('/api/v1/applicant_groups').filter((request) => request.method === 'POST')).toHaveLength(
      1,
    );
    expect(reads.count).toBe(1);
  });
});
