/**
 * `RedisTokenStore` on a real redis-server: what one process saves another reads, the key expires
 * with the token, a value that is not a token of this client id reads as none, and the token never
 * shows in inspect, JSON or errors. Then three clients, each with its own connection, share one
 * token exchange through it against the mock.
 */
import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import type { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerificationClient } from '../../src/index.js';
import { RedisCoordination, RedisCoordinationError, RedisTokenStore } from '../../src/redis/index.js';
import { createMockServer } from '../../src/testing/index.js';
import { engineHouseBody } from '../support/bodies.js';
import { caught, exposeObject } from '../support/exposure.js';
import { clientFor } from '../support/mock-client.js';
import { TEST_SECRET_KEY } from '../support/secrets.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

const AUTH = 'POST /api/v1/tenants/auth';
const TOKEN = 'opaque-test-token-value';

describe('RedisTokenStore', () => {
  let server: RedisServer;
  const connections: Array<Redis | Cluster> = [];

  function connect(): Redis | Cluster {
    const redis = server.connect();
    connections.push(redis);
    return redis;
  }

  beforeAll(async () => {
    server = await startRedisServer();
  });

  afterAll(async () => {
    for (const redis of connections) redis.disconnect();
    await server?.close();
  });

  it('gives one process the token another saved, under a hash-tagged key that expires with it', async () => {
    const clientId = `client {${randomUUID()}}`;
    const writer = new RedisTokenStore(connect(), { clientId });
    const reader = new RedisTokenStore(connect(), { clientId });
    expect(await reader.get(clientId)).toBeUndefined();
    const expiresAt = Date.now() + 120_000;
    await writer.set({ token: TOKEN, expiresAt, clientId });
    expect(await reader.get(clientId)).toEqual({ token: TOKEN, expiresAt, clientId });

    // Braces in the client id are encoded: the hash tag is the whole client id.
    expect(reader.keyFor(clientId)).toBe(`av:{${encodeURIComponent(clientId)}}:token`);
    const redis = connect();
    const ttl = await redis.pttl(reader.keyFor(clientId));
    expect(ttl).toBeGreaterThan(100_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });

  it('delete drops a client id’s token only while it is still the one named (a rotation, a 401), for every process', async () => {
    const clientId = randomUUID();
    const writer = new RedisTokenStore(connect());
    const other = new RedisTokenStore(connect());
    const expiresAt = Date.now() + 120_000;
    await writer.set({ token: TOKEN, expiresAt, clientId });
    // Another process saved a newer token: dropping the old one keeps it.
    await other.delete(clientId, 'some-older-token');
    expect(await writer.get(clientId)).toEqual({ token: TOKEN, expiresAt, clientId });
    await other.delete(clientId, TOKEN);
    expect(await writer.get(clientId)).toBeUndefined();
    expect(await connect().exists(writer.keyFor(clientId))).toBe(0);
    // A corrupt value is not a token: left alone.
    await connect().set(writer.keyFor(clientId), 'not json', 'PX', 60_000);
    await other.delete(clientId, TOKEN);
    expect(await connect().get(writer.keyFor(clientId))).toBe('not json');
  });

  it('reads a value that is not a token as no token, and refuses another client id’s token', async () => {
    const clientId = randomUUID();
    const redis = connect();
    const store = new RedisTokenStore(redis, { clientId, keyPrefix: 'tenant-a' });
    expect(store.keyFor(clientId)).toBe(`tenant-a:{${clientId}}:token`);
    await redis.set(store.keyFor(clientId), 'not json');
    expect(await store.get(clientId)).toBeUndefined();
    await redis.set(store.keyFor(clientId), JSON.stringify({ token: '', expiresAt: 1, clientId }));
    expect(await store.get(clientId)).toBeUndefined();
    await expect(
      store.set({ token: TOKEN, expiresAt: Date.now() + 60_000, clientId: 'other' }),
    ).rejects.toThrow("RedisTokenStore: set() takes a token of the store's own client id.");
    // An expired token is not stored at all.
    await store.set({ token: TOKEN, expiresAt: Date.now() - 1, clientId });
    expect(await redis.get(store.keyFor(clientId))).toBe(
      JSON.stringify({ token: '', expiresAt: 1, clientId }),
    );
  });

  it('never shows the token or the connection', async () => {
    const clientId = randomUUID();
    const store = new RedisTokenStore(connect(), { clientId });
    await store.set({ token: TOKEN, expiresAt: Date.now() + 60_000, clientId });
    exposeObject(store);
    expect(inspect(store, { showHidden: true })).toBe(`RedisTokenStore { key: 'av:{${clientId}}:token' }`);
    expect(JSON.stringify(store)).toBe(`{"key":"av:{${clientId}}:token"}`);
  });

  it('fails with a clear error when Redis is down, and the client exchanges its own token', async () => {
    const own = await startRedisServer();
    const redis = own.connect();
    connections.push(redis);
    const mock = await createMockServer({ seed: 3 });
    try {
      const store = new RedisTokenStore(redis, { clientId: mock.clientId, commandTimeoutMs: 500 });
      await own.stop();
      const failure = await caught(store.get(mock.clientId));
      expect(failure).toBeInstanceOf(RedisCoordinationError);
      expect((failure as Error).message).toMatch(
        /^Redis coordination failed \(tokenStore\.get\): (the connection is (reconnecting|close|end)|no answer within 500 ms)\.$/,
      );
      const warnings: string[] = [];
      const client = new VerificationClient({
        baseURL: mock.url,
        clientId: mock.clientId,
        secretKey: mock.secretKey,
        tokenStore: store,
        logger: { debug() {}, info() {}, warn: (line) => warnings.push(line), error() {} },
      });
      await client.applicantGroups.list();
      await client.close();
      expect(mock.stats.count(AUTH)).toBe(1);
      expect(warnings.some((line) => line.includes('The token store could not be read'))).toBe(true);
    } finally {
      await mock.close();
      await own.close();
    }
  });

  it('serves several accounts from one store and one Redis: each account one exchange, its own key, its own groups', async () => {
    const accounts = ['oak', 'elm', 'birch'].map((name) => ({
      clientId: `landlord-${name}-${randomUUID()}`,
      secretKey: `${TEST_SECRET_KEY}-${name}`,
    }));
    const mock = await createMockServer({ seed: 5, accounts });
    try {
      // Two processes, each a root on its own Redis connection, deriving a client per account.
      const coordinations = [1, 2].map(() => new RedisCoordination(connect()));
      const roots = coordinations.map((coordination) =>
        mock.client({
          account: accounts[0]?.clientId,
          tokenStore: new RedisTokenStore(connect()),
          coordination,
          logLevel: 'error',
        }),
      );
      const derived = roots.map((root) => accounts.map((account) => root.withOptions(account)));
      // The first process creates one group per account (its token then in Redis).
      const created = await Promise.all(
        (derived[0] ?? []).map((client, i) =>
          client.applicantGroups.create({
            ...engineHouseBody('https://receiver.example.com/webhooks'),
            correlation_id: `platform-${i}`,
          }),
        ),
      );
      // The second process lists, concurrently: each account sees its own group only.
      const lists = await Promise.all((derived[1] ?? []).map((client) => client.applicantGroups.list()));
      expect(lists.map((page) => page.items.map((group) => group.id))).toEqual(
        created.map((group) => [group.id]),
      );
      const exchanges = mock.stats.log().filter((entry) => entry.route === AUTH);
      expect(exchanges.map((entry) => entry.account).sort()).toEqual(accounts.map((a) => a.clientId).sort());
      const redis = connect();
      const store = new RedisTokenStore(redis);
      for (const account of accounts) {
        expect((await store.get(account.clientId))?.clientId).toBe(account.clientId);
        expect(await redis.pttl(store.keyFor(account.clientId))).toBeGreaterThan(0);
      }
      for (const root of roots) await root.close();
      for (const coordination of coordinations) coordination.close();
    } finally {
      await mock.close();
    }
  });

  it('lets three clients with their own connections share one token exchange', async () => {
    const mock = await createMockServer({ seed: 4 });
    try {
      const clients = [1, 2, 3].map(() =>
        clientFor(mock, {
          tokenStore: new RedisTokenStore(connect(), { clientId: mock.clientId }),
          logLevel: 'error',
        }),
      );
      // One first, so its token is in Redis before the other two look.
      await clients[0]?.applicantGroups.list();
      await Promise.all(clients.slice(1).map((client) => client.applicantGroups.list()));
      expect(mock.stats.count(AUTH)).toBe(1);
      await Promise.all(clients.map((client) => client.close()));
    } finally {
      await mock.close();
    }
  });
});
