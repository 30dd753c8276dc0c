/**
 * Hostile-server leftovers: a Retry-After above the cap fails its call and pauses nothing; a
 * server echoing the token in an error body does not put it in the error's `body`; a header value
 * undici cannot send is refused before any I/O, naming the header (on every call while it fails,
 * from the copy taken when the client was made); a body behind a byte order mark still parses.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  GroupMayHaveBeenCreatedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { recordingClock } from '../support/clock.js';
import { caught } from '../support/exposure.js';
import { SECRET_KEY, serverWithClient } from '../support/http-server.js';

const GROUPS = '/api/v1/applicant_groups';
const REPORTS = '/api/v1/reports/r-1';
const setup = serverWithClient();
const list = { applicant_groups: [], total_count: 0 };

describe('hostile servers, leftovers', () => {
  it('Retry-After above the cap: that call fails with RateLimitError at once, the others wait for nothing', async () => {
    const clock = recordingClock();
    const { server, client } = await setup(
      {
        [`GET ${REPORTS}`]: () => ({
          status: 429,
          headers: { 'retry-after': '36000' },
          body: { error: 'slow down' },
        }),
        [`GET ${GROUPS}`]: () => ({ status: 200, body: list }),
      },
      { clock },
    );
    const error = await caught(client.reports.retrieve('r-1'));
    expect(error).toBeInstanceOf(RateLimitError);
    const page = await client.applicantGroups.list();
    expect(page.items).toEqual([]);
    // No wait at all: neither the refused call nor the next one paused.
    expect(clock.waits).toEqual([]);
    expect(server.to(GROUPS)).toHaveLength(1);
  });

  it("a token echoed in an error body (deep or not) and in a rejected 2xx body stays out of the error's body", async () => {
    let seen = '';
    const echo = (request: { headers: Record<string, unknown> }) => {
      seen = String(request.headers.authorization).replace(/^Bearer /, '');
      return seen;
    };
    const deep = (value: string, depth: number): unknown =>
      depth === 0 ? value : { inner: deep(value, depth - 1) };
    const { client } = await setup({
      [`GET ${GROUPS}`]: (request) => ({
        status: 400,
        body: { error: 'bad', token: echo(request), nested: deep(`Bearer ${seen}`, 12), secret: SECRET_KEY },
      }),
      [`GET ${REPORTS}`]: (request) => ({ status: 200, body: { unexpected: echo(request) } }),
    });
    const badRequest = await caught(client.applicantGroups.list());
    expect(badRequest).toBeInstanceOf(BadRequestError);
    const invalid = await caught(client.reports.retrieve('r-1'));
    expect(invalid).toBeInstanceOf(ResponseValidationError);
    expect(seen.length).toBeGreaterThan(20);
    for (const error of [badRequest, invalid]) {
      const body = JSON.stringify((error as { body: unknown }).body);
      expect(body).toContain('[REDACTED]');
      for (const text of [
        body,
        JSON.stringify(error),
        inspect(error, { depth: 20 }),
        JSON.stringify({ ...(error as object) }),
      ]) {
        expect(text).not.toContain(seen);
        expect(text).not.toContain(SECRET_KEY);
      }
    }
  });

  it('a header value with CR/LF: RequestValidationError naming the header, nothing sent', async () => {
    const { server, client } = await setup({ [`POST ${GROUPS}`]: () => ({ status: 200, body: {} }) });
    const error = await caught(
      client.applicantGroups.create(groupCreateBody('ana@example.com', 'h-1'), {
        headers: { 'x-trace': 'a\r\nx-injected: 1' },
      }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).not.toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect((error as RequestValidationError).issues[0]?.path).toBe('headers.x-trace');
    expect((error as Error).message).not.toContain('x-injected');
    expect(server.requests).toEqual([]);
  });

  it('a bad defaultHeaders value is refused the same way, on the first call', async () => {
    const { server, client } = await setup(
      { [`GET ${GROUPS}`]: () => ({ status: 200, body: list }) },
      { defaultHeaders: { 'x-tenant': 'one\ntwo' } },
    );
    const error = await caught(client.applicantGroups.list());
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toBe('defaultHeaders.x-tenant');
    // Checked once only when they pass: a refusal is not remembered as a pass.
    const again = await caught(client.applicantGroups.list());
    expect((again as RequestValidationError).issues[0]?.path).toBe('defaultHeaders.x-tenant');
    expect(server.requests).toEqual([]);
  });

  it('defaultHeaders are taken when the client is made: changing the object later sends nothing new', async () => {
    const defaultHeaders: Record<string, string> = { 'x-tenant': 'one' };
    const { server, client } = await setup(
      { [`GET ${GROUPS}`]: () => ({ status: 200, body: list }) },
      { defaultHeaders },
    );
    defaultHeaders['x-tenant'] = 'two\nthree';
    defaultHeaders['x-late'] = 'late';
    await client.applicantGroups.list();
    await client.applicantGroups.list();
    expect(server.to(GROUPS).map((request) => request.headers['x-tenant'])).toEqual(['one', 'one']);
    expect(server.to(GROUPS)[0]?.headers['x-late']).toBeUndefined();
  });

  it('a JSON body behind a UTF-8 byte order mark is read as JSON', async () => {
    const { client } = await setup({
      [`GET ${GROUPS}`]: () => ({
        status: 200,
        body: `\uFEFF${JSON.stringify({ applicant_groups: [], total_count: 7 })}`,
      }),
    });
    const page = await client.applicantGroups.list();
    expect(page.totalCount).toBe(7);
  });
});
