/** Client-side pacing and hard limits: concurrency cap, shared 429 pause, body-covering timeout. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, ResponseTooLargeError, VerificationClient } from '../../src/index.js';
import { recordingClock } from '../support/clock.js';
import { caught } from '../support/exposure.js';
import { CLIENT_ID, mintToken, SECRET_KEY, serverWithClient } from '../support/http-server.js';

const PATH = '/api/v1/applicant_groups/g/reports';
const empty = { household_reports: [], individual_reports: [] };

const setup = serverWithClient();

describe('pacing for batch work', () => {
  it('keeps at most maxConcurrency requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const { server, client } = await setup(
      {
        [`GET ${PATH}`]: async () => {
          inFlight++;
          peak = Math.max(peak, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 20));
          inFlight--;
          return { status: 200, body: empty };
        },
      },
      { maxConcurrency: 4 },
    );
    // Three times the cap: the queue fills and drains more than once.
    await Promise.all(Array.from({ length: 12 }, () => client.applicantGroups.listReports('g')));
    expect(server.to(PATH)).toHaveLength(12);
    expect(peak).toBe(4);
  });

  it('after a 429 every request of the client waits out Retry-After together', async () => {
    const clock = recordingClock();
    const arrivals: number[] = [];
    const { server, client } = await setup(
      {
        [`GET ${PATH}`]: (_request, count) => {
          arrivals.push(clock.now());
          if (count === 1)
            return { status: 429, headers: { 'retry-after': '1' }, body: { error: 'rate_limited' } };
          return { status: 200, body: empty };
        },
      },
      { clock, maxConcurrency: 1 },
    );
    await Promise.all(Array.from({ length: 5 }, () => client.applicantGroups.listReports('g')));
    expect(server.to(PATH)).toHaveLength(6);
    // Two waits: the limited request's own 1 s before its retry, and what is left of the client-wide
    // 1 s pause, taken by the next request in line while the others queue behind it. Without the
    // pause the siblings would go out at once, and only the first wait would be asked for.
    expect(clock.waits).toHaveLength(2);
    expect(clock.waits).toContain(1_000);
    for (const wait of clock.waits) {
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(1_000);
    }
    // No request, the retried one or its siblings, reached the server during the pause.
    const [limitedAt = 0, ...after] = arrivals;
    for (const at of after) expect(at - limitedAt).toBeGreaterThanOrEqual(1_000);
  });
});

describe('hard limits', () => {
  it('the timeout covers the body, not just the headers', async () => {
    const token = await mintToken();
    const received: string[] = [];
    const slow = createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
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
      timeout: 60,
      maxRetries: 0,
      logLevel: 'off',
    });
    try {
      const error = await caught(sdk.applicantGroups.listReports('g'));
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      // The request went out and its headers came back: it was the body that ran out of time.
      expect((error as APIConnectionTimeoutError).requestNotSent).toBe(false);
      expect(received).toEqual(['POST /api/v1/tenants/auth', `GET ${PATH}`]);
    } finally {
      await sdk.close();
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it('refuses a body larger than maxResponseBytes without buffering it all', async () => {
    const huge = { household_reports: [], individual_reports: [], padding: 'x'.repeat(200_000) };
    const { server, client } = await setup(
      { [`GET ${PATH}`]: () => ({ status: 200, body: huge }) },
      { maxResponseBytes: 64 * 1024 },
    );
    const error = await caught(client.applicantGroups.listReports('g'));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).message).toContain('65536');
    // Not retried: a bigger answer will not shrink.
    expect(server.to(PATH)).toHaveLength(1);
  });
});
