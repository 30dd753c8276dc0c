/**
 * The proxy recipe of docs/advanced.md ("Behind a proxy"): an undici `ProxyAgent` given as `dispatcher`
 * carries every request (token exchange, API calls, the pre-signed PDF download) through the
 * proxy, here a small CONNECT proxy on loopback that records what it tunnelled.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { ProxyAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerificationClient } from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';

interface RecordingProxy {
  url: string;
  /** `CONNECT host:port` targets, in order; plain (non-tunnelled) requests as `METHOD url`. */
  seen: string[];
  /** HTTP request lines that went through a tunnel (`GET /path`). */
  tunnelled: string[];
  close(): Promise<void>;
}

async function startProxy(): Promise<RecordingProxy> {
  const seen: string[] = [];
  const tunnelled: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    response.writeHead(502).end();
  });
  server.on('connect', (request, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${request.url}`);
    const target = new URL(`http://${request.url}`);
    const upstream = connect(Number(target.port), target.hostname, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      client.on('data', (chunk: Buffer) => {
        for (const [, line] of chunk
          .toString('latin1')
          .matchAll(/(?:^|\r\n)([A-Z]+ \/\S*) HTTP\/1\.1\r\n/g)) {
          if (line) tunnelled.push(line);
        }
      });
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      socket.on('close', () => sockets.delete(socket));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    tunnelled,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let mock: MockServer;
let proxy: RecordingProxy;
beforeAll(async () => {
  mock = await createMockServer({ seed: 5 });
  proxy = await startProxy();
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

describe('a ProxyAgent as the dispatcher', () => {
  it('tunnels the token exchange, the API calls and the PDF download through the proxy', async () => {
    const agent = new ProxyAgent(proxy.url);
    const client = new VerificationClient({
      baseURL: mock.url,
      clientId: mock.clientId,
      secretKey: mock.secretKey,
      dispatcher: agent,
      logLevel: 'off',
    });
    try {
      const group = await client.applicantGroups.create({
        applicants: [{ first_name: 'Pat', last_name: 'Proxy', email: 'pat.proxy@example.com' }],
        property: {
          name: 'P',
          street_address: '1 Main St',
          city: 'Austin',
          state: 'Texas',
          zip_code: '78701',
        },
        decision_maker_display_name: 'Proxy LLC',
        monthly_rent: 1200,
        correlation_id: 'proxy-1',
      });
      for (const applicant of group.applicants) {
        mock.applicants.start(applicant.id);
        mock.applicants.complete(applicant.id, 'finished');
      }
      const reports = await client.applicantGroups.listReports(group.id);
      const summary = reports.household_reports[0];
      expect(summary).toBeDefined();
      const report = await client.reports.retrieve(summary?.id ?? '');
      const pdf = await client.reports.downloadPdf(report);
      expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');

      const mockHost = new URL(mock.url).host;
      expect(proxy.seen.length).toBeGreaterThan(0);
      expect(new Set(proxy.seen)).toEqual(new Set([`CONNECT ${mockHost}`]));
      // Nothing reached the mock around the proxy: every request it logged came through a tunnel.
      const received = mock.stats.log().map((entry) => `${entry.method} ${entry.url}`);
      expect(received.map((line) => line.split('?')[0])).toEqual(
        proxy.tunnelled.map((line) => line.split('?')[0]),
      );
      expect(proxy.tunnelled).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^POST \/api\/v1\/tenants\/auth/),
          expect.stringMatching(/pdf/i),
        ]),
      );
    } finally {
      await client.close();
      await agent.close();
    }
  });
});
