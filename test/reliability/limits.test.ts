/** Client-side pacing and hard limits: concurrency cap, shared 429 pause, body-covering timeout. */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, ResponseTooLargeError, VerificationClient } from '../../src/index.js';
import { recordingClock } from '../support/clock.js';
import { caught } from '../support/exposure.js';
import { CLIENT_ID, mintToken, SECRET_KEY, serverWithClient } from '../support/http-server.js';

const PATH = '/api/v1/applicant_groups/g/reports';
const empty = { household_reports: [], individual_reports: [] };
const LIMIT = 64 * 1024;
const CHUNK = 16 * 1024;

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

  // Endless bodies: the client must stop reading near the limit, or before reading at all when
  // the body's declared length is over it. The bytes read are measured on the client's own
  // sockets (undici) or its own stream (fetch).
  it('refuses a body whose content-length is over maxResponseBytes at its headers, and does not retry', async () => {
    const limit = 1024 * 1024;
    const { error, read, requests } = await readEndless(1024 ** 3, limit);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).message).toContain(String(limit));
    // Not retried: a bigger answer will not shrink.
    expect(requests).toEqual(['POST /api/v1/tenants/auth', `GET ${PATH}`]);
    // What came in with the headers (one read of the socket, 64 KB at most), not the 1 MB allowed.
    expect(read).toBeLessThan(64 * 1024 + 4 * 1024);
  });

  it('stops reading an endless body without content-length soon after maxResponseBytes (undici): bytes read measured', async () => {
    const { error, read, requests } = await readEndless(undefined, LIMIT);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(requests).toEqual(['POST /api/v1/tenants/auth', `GET ${PATH}`]);
    // The limit, plus what one read of the socket may bring past it, plus headers and the token.
    expect(read).toBeGreaterThan(LIMIT);
    expect(read).toBeLessThan(LIMIT + 2 * 64 * 1024 + 4 * 1024);
  });

  it('stops reading an endless body without content-length at maxResponseBytes (fetch): bytes read measured', async () => {
    const token = await mintToken();
    let pulled = 0;
    let cancelled = false;
    const chunk = new Uint8Array(CHUNK).fill(0x20);
    const fetchEndless: typeof fetch = async (input) => {
      if (String(input).endsWith('/api/v1/tenants/auth'))
        return new Response(null, { status: 204, headers: { authorization: `Bearer ${token}` } });
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            pulled += CHUNK;
            controller.enqueue(chunk);
          },
          cancel() {
            cancelled = true;
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const sdk = new VerificationClient({
      baseURL: 'https://api.verification.test',
      clientId: CLIENT_ID,
      secretKey: SECRET_KEY,
      maxRetries: 0,
      maxResponseBytes: LIMIT,
      logLevel: 'off',
      fetch: fetchEndless,
    });
    try {
      const error = await caught(sdk.applicantGroups.listReports('g'));
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      // The chunk that crossed the limit is the last one read; the stream was cancelled.
      expect(pulled).toBeGreaterThan(LIMIT);
      expect(pulled).toBeLessThanOrEqual(LIMIT + CHUNK);
      expect(cancelled).toBe(true);
    } finally {
      await sdk.close();
    }
  });
});

/**
 * One call against a server that answers the token exchange, then sends an endless body
 * (declaring `declared` bytes, or no length at all) to a client allowing `limit` bytes: the
 * error, the requests the server got, and the bytes the client's sockets read in all.
 */
async function readEndless(declared: number | undefined, limit: number) {
  const token = await mintToken();
  const requests: string[] = [];
  const chunk = Buffer.alloc(CHUNK, 0x20);
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url === '/api/v1/tenants/auth') {
      res.writeHead(204, { authorization: `Bearer ${token}` }).end();
      return;
    }
    const length = declared === undefined ? {} : { 'content-length': String(declared) };
    res.writeHead(200, { 'content-type': 'application/json', ...length });
    res.write('{"household_reports": [], "individual_reports": [], "padding": "');
    // Writes as fast as the client reads, until it hangs up.
    const more = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on('drain', more);
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const sockets: Socket[] = [];
  const connect = buildConnector({});
  const dispatcher = new Agent({
    connect: (options, callback) =>
      connect(options, (error, socket) => {
        if (socket) sockets.push(socket as Socket);
        callback(error, socket as never);
      }),
  });
  const sdk = new VerificationClient({
    baseURL: `http://127.0.0.1:${port}`,
    clientId: CLIENT_ID,
    secretKey: SECRET_KEY,
    maxRetries: 0,
    maxResponseBytes: limit,
    logLevel: 'off',
    dispatcher,
  });
  try {
    const error = await caught(sdk.applicantGroups.listReports('g'));
    return { error, requests, read: sockets.reduce((total, socket) => total + socket.bytesRead, 0) };
  } finally {
    await sdk.close();
    await dispatcher.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
