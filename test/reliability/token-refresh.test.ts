import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, type ClientOptions } from '../../src/index.js';
import { backoffBefore, recordingClock } from '../support/clock.js';
import { caught } from '../support/exposure.js';
import { mintToken, type Route, SECRET_KEY, serverWithClient } from '../support/http-server.js';

const PATH = '/api/v1/applicant_groups/g1/reports';
const empty = { household_reports: [], individual_reports: [] };

const setup = serverWithClient();

/** A server that accepts only the newest token it issued: `revoke()` makes every live token expire. */
async function revokingServer(authRoute?: Route, options: Partial<ClientOptions> = {}) {
  let valid = new Set<string>();
  const issue: Route = async () => {
    const token = await mintToken();
    valid.add(token);
    return { status: 204, headers: { authorization: `Bearer ${token}` } };
  };
  const { server, client } = await setup(
    {
      'POST /api/v1/tenants/auth': authRoute
        ? async (request, count) => (await authRoute(request, count)) ?? issue(request, count)
        : issue,
      [`GET ${PATH}`]: (request) => {
        const token = String(request.headers.authorization ?? '').replace('Bearer ', '');
        return valid.has(token)
          ? { status: 200, body: empty }
          : { status: 401, body: { error: 'token_expired' } };
      },
    },
    options,
  );
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
    const clock = recordingClock();
    const revoking = await revokingServer(
      (request, count) => (count === 1 ? { destroy: true } : (issue?.(request, count) ?? {})),
      { clock },
    );
    issue = revoking.issue;
    await expect(revoking.client.applicantGroups.listReports('g1')).resolves.toEqual(empty);
    expect(revoking.server.to('/api/v1/tenants/auth')).toHaveLength(2);
    // The call's attempt failed on its token and was retried after the SDK's own backoff.
    expect(clock.waits).toEqual([backoffBefore(0)]);
  });

  it('fails every waiter of a refresh rejected with 401, and the next call tries again', async () => {
    let issue: Route | undefined;
    const revoking = await revokingServer((request, count) =>
      count === 1 ? { status: 401, body: { error: 'invalid_client' } } : (issue?.(request, count) ?? {}),
    );
    issue = revoking.issue;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () => revoking.client.applicantGroups.listReports('g1')),
    );
    expect(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof AuthenticationError)).toBe(
      true,
    );
    expect(revoking.server.to('/api/v1/tenants/auth')).toHaveLength(1);
    await expect(revoking.client.applicantGroups.listReports('g1')).resolves.toEqual(empty);
    expect(revoking.server.to('/api/v1/tenants/auth')).toHaveLength(2);
  });
});

describe('errors stay secret-free', () => {
  it('masks emails in messages, JSON and inspect output', async () => {
    const { client } = await setup({
      [`GET ${PATH}`]: () => ({
        status: 400,
        body: { error: 'bad_request', message: 'jane.roe@example.com does not exist' },
      }),
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
