/** Client-side pacing and hard limits: concurrency cap, shared 429 pause, body-covering timeout. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, ResponseTooLargeError, VerificationClient } from '../../src/index.js';
import { caught } from '../support/exposure.js';
import {
  CLIENT_ID,
  mintToken,
  type Route,
  SECRET_KEY,
  startServer,
  type TestServer,
} from '../support/http-server.js';

const PATH = '/api/v1/applicant_groups/g/reports';
const empty = { household_reports: [], individual_reports: [] };
const issue: Route = async () => ({ status: 204, headers: { authorization: `Bearer ${await mintToken()}` } });

let server: TestServer | undefined;
let client: VerificationClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

describe('pacing for batch work', () => {
  it('keeps at most maxConcurrency requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    server = await startServer({
      'POST /api/v1/tenants/auth': issue,
      [`GET ${PATH}`]: async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight--;
        return { status: 200, body: empty };
      },
    });
    client = new VerificationClient({
      baseURL: server.url,
      clientId: CLIENT_ID,
      secretKey: SECRET_KEY,
      maxConcurrency: 4,
      logLevel: 'off',
    });
    const sdk = client;
    await Promise.all(Array.from({ length: 40 }, () => sdk.applicantGroups.listReports('g')));
    expect(server.to(PATH)).toHaveLength(40);
    expect(peak).toBe(4);
  });

  it('after a 429 every request of the client waits out Retry-After together', async () => {
    const arrivals: number[] = [];
    let limitedAt = 0;
    server = await startServer({
      'POST /api/v1/tenants/auth': issue,
      [`GET ${PATH}`]: (_request, count) => {
        arrivals.push(Date.now());
        if (count === 1) {
          limitedAt = Date.now();
          return { status: 429, headers: { 'retry-after': '1' }, body: { error: 'rate_limited' } };
        }
        return { status: 200, body: empty };
      },
    });
    client = new VerificationClient({
      baseURL: server.url,
      clientId: CLIENT_ID,
      secretKey: SECRET_KEY,
      maxConcurrency: 1,
      logLevel: 'off',
    });
    const sdk = client;
    await Promise.all(Array.from({ length: 5 }, () => sdk.applicantGroups.listReports('g')));
    expect(arrivals).toHaveLength(6);
    // No request, the retried one or its siblings, reached the server during the pause.
    for (const at of arrivals.slice(1)) expect(at - limitedAt).toBeGreaterThanOrEqual(900);
  });
});

describe('hard limits', () => {
  it('the timeout covers the body, not just the headers', async () => {
    const token = await mintToken();
    const slow = createServer((req, res) => {
      if (req.url === '/api/v1/tenants/auth') {
        res.writeHead(204, { authorization: `Bearer ${token}` }).end();
        return;
      }
      // Headers at once, then the body trickles in too slowly.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"household_reports": [');
      const timer = setTimeout(() => res.end('], "individual_reports": []}'), 1_000);
      res.on('close', () => clearTimeout(timer));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const { port } = slow.address() as AddressInfo;
    const sdk = new VerificationClient({
      baseURL: `http://127.0.0.1:${port}`,
      clientId: CLIENT_ID,
      secretKey: SECRET_KEY,
      timeout: 150,
      maxRetries: 0,
      logLevel: 'off',
    });
    const error = await caught(sdk.applicantGroups.listReports('g'));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    await sdk.close();
    slow.closeAllConnections();
    await new Promise((resolve) => slow.close(resolve));
  });

  it('refuses a body larger than maxResponseBytes without buffering it all', async () => {
    const huge = { household_reports: [], individual_reports: [], padding: 'x'.repeat(200_000) };
    server = await startServer({
      'POST /api/v1/tenants/auth': issue,
      [`GET ${PATH}`]: () => ({ status: 200, body: huge }),
    });
    client = new VerificationClient({
      baseURL: server.url,
      clientId: CLIENT_ID,
      secretKey: SECRET_KEY,
      maxResponseBytes: 64 * 1024,
      logLevel: 'off',
    });
    const error = await caught(client.applicantGroups.listReports('g'));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).message).toContain('65536');
    // Not retried: a bigger answer will not shrink.
    expect(server.to(PATH)).toHaveLength(1);
  });
});
