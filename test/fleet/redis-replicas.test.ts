/**
 * `minReplicas` on a real redis-server with a replica: each lease, renewal and outcome write waits
 * (Redis `WAIT`, in the same round trip) for the replicas that must hold it before a failover may
 * promote one. With the replica stopped (SIGSTOP), a lease is given back and refused, a renewal
 * refused, an `unresolved` record turned into `refused` and refused, so `createOnce` sends nothing;
 * a `created` record stands with a warning. Under Cluster the count is of the key's own node's
 * replicas: keys of the node with a replica pass, keys of the node without fail. And a primary with
 * replicas but no `minReplicas` is warned about once. docs/fleet.md, "What the promise needs from
 * Redis".
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/index.js';
import { RedisCoordination, RedisCoordinationError } from '../../src/redis/index.js';
import { createKey } from '../../src/redis/keys.js';
import { createMockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { caught, expose } from '../support/exposure.js';
import { clientFor } from '../support/mock-client.js';
import { eventually } from './eventually.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

// Long enough for a replica on a loaded machine; the stopped-replica cases wait all of it.
const ACK_MS = 1_500;

function collectingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (message: string) => {
    lines.push(message);
    expose(message);
  };
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

describe('RedisCoordination with minReplicas on a primary with one replica', () => {
  let server: RedisServer;
  const connections: Redis[] = [];
  const coordinations: RedisCoordination[] = [];

  function coordinationOf(options: ConstructorParameters<typeof RedisCoordination>[1] = {}) {
    const redis = server.connect() as Redis;
    connections.push(redis);
    const coordination = new RedisCoordination(redis, { replicaAckTimeoutMs: ACK_MS, ...options });
    coordinations.push(coordination);
    return coordination;
  }

  /** The create hash as the replica holds it. */
  async function onReplica(clientId: string, correlationId: string): Promise<Record<string, string>> {
    const replica = new Redis({
      host: '127.0.0.1',
      port: server.replicaPorts[0] ?? 0,
      maxRetriesPerRequest: 1,
    });
    try {
      return await replica.hgetall(createKey('av', clientId, correlationId));
    } finally {
      replica.disconnect();
    }
  }

  beforeAll(async () => {
    server = await startRedisServer({ replicas: 1 });
  });
  afterEach(() => {
    server.signal(server.replicaPorts[0] ?? 0, 'SIGCONT');
  });
  afterAll(async () => {
    for (const coordination of coordinations) coordination.close();
    for (const redis of connections) redis.disconnect();
    await server?.close();
  });

  it('takes, renews and records only what the replica acknowledged', async () => {
    const coordination = coordinationOf({ minReplicas: 1 });
    const clientId = randomUUID();
    const lease = await coordination.acquireCreateLease(clientId, 'rep-1', 60_000);
    expect(lease?.fence).toBeGreaterThan(0);
    if (!lease) return;
    // WAIT returned after the replica had it: it holds the same fence now.
    expect((await onReplica(clientId, 'rep-1')).fence).toBe(String(lease.fence));
    const renewed = await coordination.renewCreateLease(lease, 60_000);
    expect(renewed?.fence).toBe(lease.fence);
    expect(await coordination.recordCreateOutcome(lease, { state: 'unresolved' })).toBe(true);
    expect((await onReplica(clientId, 'rep-1')).state).toBe('unresolved');
    expect(await coordination.recordCreateOutcome(lease, { state: 'created', id: 'grp_1' })).toBe(true);
    expect(await onReplica(clientId, 'rep-1')).toMatchObject({ state: 'created', id: 'grp_1' });
  });

  it('with the replica stopped: gives a lease back and fails, refuses renewals and unresolved records', async () => {
    const logger = collectingLogger();
    const coordination = coordinationOf({ minReplicas: 1, logger, checkDurability: false });
    const plain = coordinationOf({ checkDurability: false });
    const clientId = randomUUID();
    const held = await coordination.acquireCreateLease(clientId, 'rep-held', 60_000);
    expect(held).toBeDefined();
    if (!held) return;
    server.signal(server.replicaPorts[0] ?? 0, 'SIGSTOP');

    const refused = await caught(coordination.acquireCreateLease(clientId, 'rep-2', 60_000));
    expect(refused).toBeInstanceOf(RedisCoordinationError);
    expect((refused as RedisCoordinationError).operation).toBe('acquireCreateLease');
    expect((refused as Error).message).toBe(
      `Redis coordination failed (acquireCreateLease): 0 of the 1 replica required (minReplicas) acknowledged the lease within ${ACK_MS} ms; it was given back.`,
    );
    // Given back: a process that waits for no replica takes it at once.
    expect(await plain.acquireCreateLease(clientId, 'rep-2', 60_000)).toBeDefined();

    const renewal = await caught(coordination.renewCreateLease(held, 60_000));
    expect((renewal as Error).message).toBe(
      `Redis coordination failed (renewCreateLease): 0 of the 1 replica required (minReplicas) acknowledged the renewed lease within ${ACK_MS} ms.`,
    );
    const unresolved = await caught(coordination.recordCreateOutcome(held, { state: 'unresolved' }));
    expect((unresolved as Error).message).toBe(
      `Redis coordination failed (recordCreateOutcome): 0 of the 1 replica required (minReplicas) acknowledged the unresolved record within ${ACK_MS} ms; the create is not sent.`,
    );
    // The primary says the create never left, so the next holder may send it.
    expect(await plain.readCreateOutcome(clientId, 'rep-held')).toMatchObject({
      state: 'refused',
      fence: held.fence,
    });
    // A group's id stands on the primary, with a warning.
    expect(await coordination.recordCreateOutcome(held, { state: 'created', id: 'grp_2' })).toBe(true);
    expect(await plain.readCreateOutcome(clientId, 'rep-held')).toMatchObject({
      state: 'created',
      id: 'grp_2',
    });
    expect(logger.lines).toEqual([
      `[applicant-verification] RedisCoordination: 0 of the 1 replica required (minReplicas) acknowledged the created record within ${ACK_MS} ms for correlation_id "rep-held"; it stands on the primary.`,
    ]);
  });

  it('createOnce with the replica stopped sends nothing and fails with the coordination error', async () => {
    const mock = await createMockServer();
    const coordination = coordinationOf({ minReplicas: 1, checkDurability: false });
    const client = clientFor(mock, { coordination, logLevel: 'off' });
    try {
      server.signal(server.replicaPorts[0] ?? 0, 'SIGSTOP');
      const error = await caught(
        client.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'rep-c1')),
      );
      expect(error).toBeInstanceOf(RedisCoordinationError);
      expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(0);
      server.signal(server.replicaPorts[0] ?? 0, 'SIGCONT');
      const created = await client.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'rep-c1'));
      expect(created.created).toBe(true);
      expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(1);
    } finally {
      await client.close();
      await mock.close();
    }
  });

  it('warns once when replicas are connected and minReplicas is 0, or fewer than minReplicas', async () => {
    const unset = collectingLogger();
    const none = coordinationOf({ logger: unset });
    await none.acquireCreateLease(randomUUID(), 'rep-w', 60_000);
    await none.acquireCreateLease(randomUUID(), 'rep-w', 60_000);
    await eventually('the warning', async () => (unset.lines.length > 0 ? true : undefined));
    expect(unset.lines).toEqual([
      expect.stringContaining(
        '1 replica is connected but minReplicas is 0: a failover loses the leases and outcomes no replica received yet).',
      ),
    ]);
    const many = collectingLogger();
    const two = coordinationOf({ logger: many, minReplicas: 2 });
    await caught(two.acquireCreateLease(randomUUID(), 'rep-w2', 60_000));
    await eventually('the warning', async () => (many.lines.length > 0 ? true : undefined));
    expect(many.lines).toEqual([
      expect.stringContaining(
        'minReplicas is 2 but 1 replica is connected: every lease fails until enough replicas acknowledge',
      ),
    ]);
    const enough = collectingLogger();
    const one = coordinationOf({ logger: enough, minReplicas: 1 });
    await one.acquireCreateLease(randomUUID(), 'rep-w3', 60_000);
    await eventually('the warning', async () => (enough.lines.length > 0 ? true : undefined));
    // Only the settings of the test's server (no persistence) remain.
    expect(enough.lines).toHaveLength(1);
    expect(enough.lines[0]).not.toContain('replica');
  });

  it('refuses a minReplicas that is not a whole number, before any command', () => {
    const redis = server.connect() as Redis;
    connections.push(redis);
    for (const minReplicas of [-1, 1.5, Number.NaN]) {
      expect(() => new RedisCoordination(redis, { minReplicas })).toThrow(
        'RedisCoordination: minReplicas must be a whole number of replicas, 0 or more.',
      );
    }
    expect(() => new RedisCoordination(redis, { replicaAckTimeoutMs: 0 })).toThrow(
      'RedisCoordination: replicaAckTimeoutMs must be a positive number of milliseconds.',
    );
  });
});

describe('RedisCoordination with minReplicas on a cluster whose first node alone has a replica', () => {
  let server: RedisServer;
  let redis: ReturnType<RedisServer['connect']>;

  beforeAll(async () => {
    server = await startRedisServer({ nodes: 2, replicas: 1 });
    redis = server.connect();
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.close();
  });

  it("waits for the replicas of the key's own node", async () => {
    const coordination = new RedisCoordination(redis, {
      minReplicas: 1,
      replicaAckTimeoutMs: ACK_MS,
      checkDurability: false,
    });
    const clientId = randomUUID();
    const onFirst: string[] = [];
    const onSecond: string[] = [];
    for (let index = 0; onFirst.length < 3 || onSecond.length < 3; index++) {
      const correlationId = `slot-${index}`;
      const slot = Number(await redis.call('CLUSTER', 'KEYSLOT', createKey('av', clientId, correlationId)));
      (slot < 8_192 ? onFirst : onSecond).push(correlationId);
    }
    for (const correlationId of onFirst.slice(0, 3)) {
      const lease = await coordination.acquireCreateLease(clientId, correlationId, 60_000);
      expect(lease?.fence).toBeGreaterThan(0);
      if (lease) expect(await coordination.recordCreateOutcome(lease, { state: 'unresolved' })).toBe(true);
    }
    for (const correlationId of onSecond.slice(0, 3)) {
      const error = await caught(coordination.acquireCreateLease(clientId, correlationId, 60_000));
      expect((error as Error).message).toBe(
        `Redis coordination failed (acquireCreateLease): 0 of the 1 replica required (minReplicas) acknowledged the lease within ${ACK_MS} ms; it was given back.`,
      );
    }
    coordination.close();
  });
});
