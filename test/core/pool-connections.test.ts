/**
 * A root's `maxConcurrency` caps the sockets of the pool it shares with every client derived from
 * it (docs/platforms.md): many accounts, each with calls in flight, never open more connections
 * than that. Without it the pool keeps its default cap of 16 sockets (README, the options table),
 * so the same calls open more than 2, and 40 calls in flight never more than 16.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { VerificationClient } from '../../src/index.js';

/** A server that answers each token exchange and each GET a moment later, counting the sockets. */
async function countingServer(): Promise<{ url: string; sockets: () => number; server: Server }> {
  let sockets = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url === '/api/v1/tenants/auth') {
        response.writeHead(204, { authorization: `Bearer token-${Math.random().toString(36).slice(2)}` });
        response.end();
        return;
      }
      // Held a moment, so the calls overlap and a pool without a cap would open more sockets.
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      }, 15);
    });
  });
  server.on('connection', () => {
    sockets++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, sockets: () => sockets, server };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Every account's calls at once through clients derived from one root; the sockets the server saw. */
async function run(maxConcurrency: number | undefined, accounts = 6, callsPerAccount = 3): Promise<number> {
  const { url, sockets, server } = await countingServer();
  servers.push(server);
  const root = new VerificationClient({
    baseURL: url,
    clientId: 'account-0',
    secretKey: 'secret-0',
    allowInsecureHttp: true,
    logLevel: 'off',
    ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
  });
  try {
    const derived = Array.from({ length: accounts }, (_, i) =>
      root.withOptions({ clientId: `account-${i + 1}`, secretKey: `secret-${i + 1}` }),
    );
    await Promise.all(
      derived.flatMap((account) =>
        Array.from({ length: callsPerAccount }, () => account.get('/api/v1/ping')),
      ),
    );
    return sockets();
  } finally {
    await root.close();
  }
}

describe("a root's maxConcurrency caps the shared pool's sockets", () => {
  it('never opens more sockets than the root allows, however many accounts call', async () => {
    expect(await run(2)).toBeLessThanOrEqual(2);
  });

  it('without it the pool opens a socket per call in flight (the cap above is what held it)', async () => {
    expect(await run(undefined)).toBeGreaterThan(2);
  });

  it('without it, 40 calls in flight from 10 accounts open at most the default 16 sockets', async () => {
    expect(await run(undefined, 10, 4)).toBeLessThanOrEqual(16);
  });

  it('a root’s maxConcurrency above the default is the cap, not the default', async () => {
    expect(await run(32, 10, 4)).toBeGreaterThan(16);
  });
});
