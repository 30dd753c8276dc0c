import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, VerificationClient } from '../../src/index.js';
import { caught } from '../support/exposure.js';
import {
  CLIENT_ID,
  mintToken,
  type Route,
  SECRET_KEY,
  startServer,
  type TestServer,
} from '../support/http-server.js';

const PATH = '/api/v1/applicant_groups/g1/reports';
const empty = { household_reports: [], individual_reports: [] };

let server: TestServer | undefined;
let client: VerificationClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
});

/** A server that accepts only the newest token it issued: `revoke()` makes every live token expire. */
async function revokingServer(authRoute?: Route) {
  let valid = new Set<string>();
  const issue: Route = async () => {
    const token = await mintToken();
    valid.add(token);
    return { status: 204, headers: { authorization: `Bearer ${token}` } };
  };
  server = await startServer({
    'POST /api/v1/tenants/auth': authRoute
      ? async (request, count) => (await authRoute(request, count)) ?? issue(request, count)
      : issue,
    [`GET ${PATH}`]: (request) => {
      const token = String(request.headers.authorization ?? '').replace('Bearer ', '');
      return valid.has(token)
        ? { status: 200, body: empty }
        : { status: 401, body: { error: 'token_expired' } };
    },
  });
  client = new VerificationClient({
    baseURL: server.url,
    clientId: CLIENT_ID,
    secretKey: SECRET_KEY,
    logLevel: 'off',
  });
  return {
    server,
    client,
    revoke: () => {
      valid = new Set();
    },
    issue,
  };
}

describe('token refresh under load', () => {
  it('200 concurrent calls across a token expiry make one refresh', async () => {
    const { server, client, revoke } = await revokingServer();
    await client.applicantGroups.listReports('g1');
    revoke();
    const results = await Promise.all(
      Array.from({ length: 200 }, () => client.applicantGroups.listReports('g1')),
    );
    expect(results).toHaveLength(200);
    expect(server.to('/api/v1/tenants/auth')).toHaveLength(2);
    // 1 + 200 rejected + 200 replayed.
    expect(server.to(PATH)).toHaveLength(401);
  });

  it('retries a refresh that fails with a network error', async () => {
    let issue: Route | undefined;
    const setup = await revokingServer((request, count) =>
      count === 1 ? { destroy: true } : (issue?.(request, count) ?? {}),
    );
    issue = setup.issue;
    await expect(setup.client.applicantGroups.listReports('g1')).resolves.toEqual(empty);
    expect(setup.server.to('/api/v1/tenants/auth')).toHaveLength(2);
  });

  it('fails every waiter of a refresh rejected with 401, and the next call tries again', async () => {
    let issue: Route | undefined;
    const setup = await revokingServer((request, count) =>
      count === 1 ? { status: 401, body: { error: 'invalid_client' } } : (issue?.(request, count) ?? {}),
    );
    issue = setup.issue;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () => setup.client.applicantGroups.listReports('g1')),
    );
    expect(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof AuthenticationError)).toBe(
      true,
    );
    expect(setup.server.to('/api/v1/tenants/auth')).toHaveLength(1);
    await expect(setup.client.applicantGroups.listReports('g1')).resolves.toEqual(empty);
    expect(setup.server.to('/api/v1/tenants/auth')).toHaveLength(2);
  });
});

describe('errors stay secret-free', () => {
  it('masks emails in messages, JSON and inspect output', async () => {
    server = await startServer({
      'POST /api/v1/tenants/auth': async () => ({
        status: 204,
        headers: { authorization: `Bearer ${await mintToken()}` },
      }),
      [`GET ${PATH}`]: () => ({
        status: 400,
        body: { error: 'bad_request', message: 'jane.roe@example.com does not exist' },
      }),
    });
    client = new VerificationClient({
      baseURL: server.url,
      clientId: CLIENT_ID,
      secretKey: SECRET_KEY,
      logLevel: 'off',
    });
    const error = await caught(client.applicantGroups.listReports('g1'));
    expect(error).toBeInstanceOf(BadRequestError);
    const shown = [
      String((error as Error).message),
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
    ].join('\n');
    expect(shown).toContain('j***@example.com');
    expect(shown).not.toContain('jane.roe@example.com');
    expect(shown).not.toContain(SECRET_KEY);
    expect(shown).toContain('BadRequestError');
  });
});
