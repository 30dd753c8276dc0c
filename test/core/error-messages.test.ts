/**
 * Errors a person reads at 3 a.m. name the call: method, path (ids shown), host, attempt count
 * and elapsed time, rounded; aborts keep their reason; timeouts are timeouts; a base URL with
 * /api/v1 is pointed out; an unknown group id in waitForCompletion is not a fabricated 404.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { realSleep } from '../../src/core/clock.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  type ClientOptions,
  GroupNotFoundError,
  NotFoundError,
  VerificationClient,
} from '../../src/index.js';
import { createMockServer } from '../../src/testing/index.js';
import { caught } from '../support/exposure.js';
import {
  CLIENT_ID,
  capturingLogger,
  closeAfterEach,
  type Route,
  SECRET_KEY,
  serverWithClient,
  startServer,
} from '../support/http-server.js';
import { clientFor } from '../support/mock-client.js';

const GROUP = '0d6e3a8e-2f43-4f55-9a35-3f1c4a9c1e01';
const REPORTS_PATH = `/api/v1/applicant_groups/${GROUP}/reports`;
const empty = { household_reports: [], individual_reports: [] };
const slow: Route = () => ({ status: 200, body: empty, delayMs: 400 });
/** A long run of decimals, as in `within 299.9871460000004 ms`. */
const UNROUNDED = /\d\.\d{3,}/;

// For the tests that build their server or client by hand (no auth route, a static token, a logger).
const track = closeAfterEach();

const serve = serverWithClient();

async function setup(routes: Record<string, Route>, options: Partial<ClientOptions> = {}) {
  const made = await serve(routes, options);
  return { ...made, host: new URL(made.server.url).host };
}

/** A loopback port with nothing listening. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === 'object' && address ? address.port : 1;
}

describe('error messages name the call', () => {
  it('a timeout: method, path with the id, host, attempt count, rounded times', async () => {
    const { client, host } = await setup({ [`GET ${REPORTS_PATH}`]: slow }, { timeout: 100, maxRetries: 0 });
    const error = await caught(client.applicantGroups.listReports(GROUP));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    const message = (error as Error).message;
    expect(message).toContain(`GET ${REPORTS_PATH} on ${host}`);
    // 100 ms, or what the call's deadline left of it after the token exchange.
    expect(message).toMatch(
      /timed out after (100 ms \(|\d+ ms \(cut short by the call's deadline, timeout 100 ms; )/,
    );
    expect(message).toContain('attempt 1 of 1');
    expect(message).toMatch(/\d+ ms elapsed|\d+(\.\d)? s elapsed/);
    expect(message).not.toMatch(UNROUNDED);
    expect(String((error as Error & { cause?: Error }).cause?.message)).not.toMatch(UNROUNDED);
  });

  it('an abort keeps the signal reason as cause and in the message', async () => {
    const { client, host } = await setup({ [`GET ${REPORTS_PATH}`]: slow });
    const controller = new AbortController();
    const reason = new Error('the user closed the tab');
    setTimeout(() => controller.abort(reason), 50);
    const error = await caught(client.applicantGroups.listReports(GROUP, { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toBe(reason);
    expect((error as Error).message).toContain('the user closed the tab');
    expect((error as Error).message).toContain(`GET ${REPORTS_PATH} on ${host}`);
  });

  it('an AbortSignal.timeout() is a timeout error, not a user abort', async () => {
    const { client } = await setup({ [`GET ${REPORTS_PATH}`]: slow });
    const error = await caught(
      client.applicantGroups.listReports(GROUP, { signal: AbortSignal.timeout(50) }),
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).not.toBeInstanceOf(APIUserAbortError);
    expect(((error as Error).cause as Error).name).toBe('TimeoutError');
  });

  it('connect refused: says nothing was sent, names host and attempts, logs one line per retry', async () => {
    const port = await closedPort();
    const { logger, lines } = capturingLogger();
    const client = track(
      new VerificationClient({
        baseURL: `http://127.0.0.1:${port}`,
        accessToken: 'static-token-for-the-refused-test',
        logger,
        maxRetries: 2,
        clock: { now: () => Date.now(), sleep: (ms, signal) => realSleep(ms / 100, signal) },
      }),
    );
    const error = await caught(client.applicantGroups.listReports(GROUP));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).requestNotSent).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(`GET ${REPORTS_PATH} on 127.0.0.1:${port}`);
    expect(message).toContain('ECONNREFUSED');
    expect(message).toContain('attempt 3 of 3');
    expect(message).toContain('nothing was sent');
    const retries = lines.filter((line) => line.includes('retrying in'));
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatch(/retrying in \d+ ms \(attempt 2 of 3\): GET .*ECONNREFUSED/);
  });

  it('a base URL ending in /api/v1: the 404 from the token endpoint says to remove it', async () => {
    const server = track(await startServer({}));
    const client = track(
      new VerificationClient({
        baseURL: `${server.url}/api/v1`,
        clientId: CLIENT_ID,
        secretKey: SECRET_KEY,
        logLevel: 'off',
      }),
    );
    const error = await caught(client.applicantGroups.listReports(GROUP));
    expect(error).toBeInstanceOf(NotFoundError);
    const message = (error as Error).message;
    expect(message).toContain('POST /api/v1/api/v1/tenants/auth');
    expect(message).toContain(`remove it (use ${server.url})`);
    expect(server.requests.map((request) => request.path)).toEqual(['/api/v1/api/v1/tenants/auth']);
  });

  it('a status error names host, attempt and time', async () => {
    const { client, host } = await setup({
      [`GET ${REPORTS_PATH}`]: () => ({ status: 404, body: { message: 'Applicant group not found' } }),
    });
    const error = (await caught(client.applicantGroups.listReports(GROUP))) as APIError;
    expect(error.message).toMatch(
      new RegExp(
        `^404 GET ${REPORTS_PATH}: Applicant group not found \\(${host}, attempt 1 of 3, \\d+ ms elapsed\\)$`,
      ),
    );
  });

  it('waitForCompletion on an unknown id throws GroupNotFoundError, not an HTTP error', async () => {
    const mock = await createMockServer({ seed: 3 });
    const sdk = clientFor(mock);
    try {
      const error = await caught(
        sdk.applicantGroups.waitForCompletion('00000000-0000-4000-8000-000000000000'),
      );
      expect(error).toBeInstanceOf(GroupNotFoundError);
      expect(error).not.toBeInstanceOf(APIError);
      expect((error as GroupNotFoundError).groupId).toBe('00000000-0000-4000-8000-000000000000');
    } finally {
      await sdk.close();
      await mock.close();
    }
  });
});
