/**
 * The contract of `RedisCoordination` on a real redis-server, standalone and as a two-node
 * cluster: each "process" below is its own ioredis connection and its own RedisCoordination, as
 * separate processes of a fleet would have. Lease exclusivity, takeover after expiry with a
 * greater fence, a stale fence's write refused, outcomes read back, one token exchange at a time
 * across instances, pauses heard by every subscriber, and a Redis that goes away failing each call
 * with a clear error instead of hanging.
 */
import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import type { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/index.js';
import { RedisCoordination, RedisCoordinationError } from '../../src/redis/index.js';
import { caught, expose, exposeObject } from '../support/exposure.js';
import { eventually } from './eventually.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

const MODES = [
  { name: 'standalone', nodes: 0 },
  { name: 'cluster of two nodes', nodes: 2 },
] as const;

function collectingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (message: string) => {
    lines.push(message);
    expose(message);
  };
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

describe.each(MODES)('RedisCoordination on Redis ($name)', ({ nodes }) => {
  let server: RedisServer;
  const connections: Array<Redis | Cluster> = [];
  const coordinations: RedisCoordination[] = [];

  /** One fleet process's coordination: its own connection. */
  function processCoordination(logger?: Logger): RedisCoordination {
    const redis = server.connect();
    connections.push(redis);
    const coordination = new RedisCoordination(redis, { logger });
    coordinations.push(coordination);
    return coordination;
  }

  beforeAll(async () => {
    server = await startRedisServer({ nodes });
  });

  afterAll(async () => {
    for (const coordination of coordinations) coordination.close();
    for (const redis of connections) redis.disconnect();
    await server?.close();
  });

  it('gives a lease to one of many concurrent takers, and to nobody else while it holds', async () => {
    const fleet = [1, 2, 3, 4].map(() => processCoordination());
    const clientId = randomUUID();
    const leases = await Promise.all(
      fleet.flatMap((coordination) =>
        [1, 2, 3, 4, 5].map(() => coordination.acquireCreateLease(clientId, 'PROP-1-UNIT-4B', 60_000)),
      ),
    );
    const granted = leases.filter((lease) => lease !== undefined);
    expect(granted).toHaveLength(1);
    expect(granted[0]).toMatchObject({ clientId, correlationId: 'PROP-1-UNIT-4B' });
    // A first fence is the server's clock in microseconds (scripts.ts): within seconds of ours.
    expect(Math.abs((granted[0]?.fence ?? 0) / 1000 - Date.now())).toBeLessThan(5_000);
    expect(granted[0]?.expiresAt).toBeGreaterThan(Date.now() + 50_000);
    // Another correlation id, and the same one under another client id, are other leases.
    expect(await fleet[1]?.acquireCreateLease(clientId, 'PROP-1-UNIT-4C', 60_000)).toBeDefined();
    expect(await fleet[2]?.acquireCreateLease(randomUUID(), 'PROP-1-UNIT-4B', 60_000)).toBeDefined();
  });

  it('lets a lapsed lease be taken over with a greater fence, and refuses the old holder’s write', async () => {
    const [first, second] = [processCoordination(), processCoordination()];
    const clientId = randomUUID();
    const stale = await first.acquireCreateLease(clientId, 'c-1', 50);
    expect(stale?.fence).toBeGreaterThan(0);
    expect(await second.acquireCreateLease(clientId, 'c-1', 60_000)).toBeUndefined();
    const successor = await eventually('the lapsed lease taken over', () =>
      second.acquireCreateLease(clientId, 'c-1', 60_000),
    );
    expect(successor.fence).toBeGreaterThan(stale?.fence ?? Number.POSITIVE_INFINITY);

    if (!stale) throw new Error('no first lease');
    expect(await first.recordCreateOutcome(stale, { state: 'created', id: 'grp_stale' })).toBe(false);
    expect(await first.readCreateOutcome(clientId, 'c-1')).toBeUndefined();
    expect(await second.recordCreateOutcome(successor, { state: 'created', id: 'grp_new' })).toBe(true);
    // The stale holder's release does not end its successor's lease.
    await first.releaseCreateLease(stale);
    expect(await first.acquireCreateLease(clientId, 'c-1', 60_000)).toBeUndefined();
    expect(await first.readCreateOutcome(clientId, 'c-1')).toMatchObject({
      state: 'created',
      id: 'grp_new',
      fence: successor.fence,
    });
  });

  it('renews a lease only while its fence is the newest, lapsed or not; a flushed key is lost', async () => {
    const [holder, other] = [processCoordination(), processCoordination()];
    const clientId = randomUUID();
    const lease = await holder.acquireCreateLease(clientId, 'c-renew', 50);
    if (!lease) throw new Error('no lease');
    // Lapsed, but nobody took it: still the holder's, renewed on the server's clock.
    await new Promise((resolve) => setTimeout(resolve, 80));
    const renewed = await holder.renewCreateLease(lease, 60_000);
    expect(renewed).toMatchObject({ fence: lease.fence });
    expect(renewed?.expiresAt).toBeGreaterThan(lease.expiresAt);
    expect(await other.acquireCreateLease(clientId, 'c-renew', 60_000)).toBeUndefined();
    // The key lost (a FLUSHALL, a restart or failover that lost it): not renewed, and the next
    // lease's fence is above the old one.
    const admin = server.connect();
    connections.push(admin);
    await admin.del(`av:{${clientId}:c-renew}:create`);
    expect(await holder.renewCreateLease(lease, 60_000)).toBeUndefined();
    const next = await other.acquireCreateLease(clientId, 'c-renew', 60_000);
    expect(next?.fence).toBeGreaterThan(lease.fence);
    expect(await holder.recordCreateOutcome(lease, { state: 'created', id: 'grp_old' })).toBe(false);
  });

  it('warns once, at the first lease, when the server may lose leases and outcomes; not when told not to', async () => {
    const logger = collectingLogger();
    const redis = server.connect();
    connections.push(redis);
    const coordination = new RedisCoordination(redis, { logger });
    coordinations.push(coordination);
    await coordination.acquireCreateLease(randomUUID(), 'c-durable', 60_000);
    await coordination.acquireCreateLease(randomUUID(), 'c-durable', 60_000);
    await eventually('the warning', async () => (logger.lines.length > 0 ? true : undefined));
    // The suite's redis-server runs without persistence (test/fleet/redis-server.ts).
    expect(logger.lines).toEqual([
      expect.stringContaining(
        'RedisCoordination: this Redis may lose what it was told (appendonly is no, not yes: a restart loses every lease and outcome record; appendfsync is everysec, not always',
      ),
    ]);
    const quiet = collectingLogger();
    const unchecked = new RedisCoordination(redis, { logger: quiet, checkDurability: false });
    coordinations.push(unchecked);
    await unchecked.acquireCreateLease(randomUUID(), 'c-durable', 60_000);
    await coordination.acquireCreateLease(randomUUID(), 'c-durable-2', 60_000);
    expect(quiet.lines).toEqual([]);
    expect(logger.lines).toHaveLength(1);
  });

  it('records outcomes a waiting process reads, and frees the key on release', async () => {
    const [holder, waiter] = [processCoordination(), processCoordination()];
    const clientId = randomUUID();
    expect(await waiter.readCreateOutcome(clientId, 'c-2')).toBeUndefined();
    const lease = await holder.acquireCreateLease(clientId, 'c-2', 60_000);
    if (!lease) throw new Error('no lease');
    const before = Date.now();
    expect(await holder.recordCreateOutcome(lease, { state: 'unresolved' })).toBe(true);
    const unresolved = await waiter.readCreateOutcome(clientId, 'c-2');
    expect(unresolved).toEqual({
      state: 'unresolved',
      fence: lease.fence,
      recordedAt: expect.any(Number),
      ageMs: expect.any(Number),
    });
    // Redis's clock, on this machine: within a few seconds of the test's; the age is the server's.
    expect(Math.abs((unresolved?.recordedAt ?? 0) - before)).toBeLessThan(5_000);
    expect(unresolved?.ageMs).toBeGreaterThanOrEqual(0);
    expect(unresolved?.ageMs).toBeLessThan(5_000);

    await holder.releaseCreateLease(lease);
    const next = await waiter.acquireCreateLease(clientId, 'c-2', 60_000);
    expect(next?.fence).toBeGreaterThan(lease.fence);
    // The outcome outlives the lease; the next holder's record replaces it.
    expect(await waiter.readCreateOutcome(clientId, 'c-2')).toMatchObject({ state: 'unresolved' });
    if (!next) throw new Error('no second lease');
    expect(await waiter.recordCreateOutcome(next, { state: 'created', id: 'grp_2' })).toBe(true);
    expect(await holder.readCreateOutcome(clientId, 'c-2')).toMatchObject({
      state: 'created',
      id: 'grp_2',
      fence: next.fence,
    });
  });

  it('runs one token exchange at a time across the fleet', async () => {
    const fleet = [1, 2, 3, 4].map(() => processCoordination());
    const clientId = randomUUID();
    let running = 0;
    let mostAtOnce = 0;
    const order: string[] = [];
    const results = await Promise.all(
      fleet.flatMap((coordination, process) =>
        [1, 2, 3].map((call) =>
          coordination.withTokenExchange(clientId, 10_000, async () => {
            running++;
            mostAtOnce = Math.max(mostAtOnce, running);
            order.push(`start ${process}.${call}`);
            await new Promise((resolve) => setTimeout(resolve, 5));
            order.push(`end ${process}.${call}`);
            running--;
            return `${process}.${call}`;
          }),
        ),
      ),
    );
    expect(results).toHaveLength(12);
    expect(mostAtOnce).toBe(1);
    // Every start is followed by its own end.
    for (let index = 0; index < order.length; index += 2) {
      expect(order[index + 1]).toBe(order[index]?.replace('start', 'end'));
    }
    // Another client id has its own lock: it does not wait for this one.
    const other = await fleet[0]?.withTokenExchange(randomUUID(), 10_000, async () => 'other');
    expect(other).toBe('other');
  });

  it('releases the token-exchange lock when the exchange fails, and rethrows its error', async () => {
    const [first, second] = [processCoordination(), processCoordination()];
    const clientId = randomUUID();
    const failure = new Error('auth endpoint down');
    await expect(
      first.withTokenExchange(clientId, 60_000, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    // A 60 s lock left behind would make this wait; released, it runs at once.
    expect(await second.withTokenExchange(clientId, 60_000, async () => 'next')).toBe('next');
  });

  it('exchanges without the lock, and says so, when another process keeps it for the whole ttl', async () => {
    const logger = collectingLogger();
    const [holder, waiter] = [processCoordination(), processCoordination(logger)];
    const redis = server.connect();
    connections.push(redis);
    const clientId = randomUUID();
    let release: () => void = () => {};
    const holding = holder.withTokenExchange(
      clientId,
      60_000,
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    await eventually('the holder takes the lock', async () =>
      (await redis.exists(`av:{${clientId}}:token-lock`)) === 1 ? true : undefined,
    );
    expect(await waiter.withTokenExchange(clientId, 100, async () => 'alone')).toBe('alone');
    expect(logger.lines).toEqual([
      '[applicant-verification] Another process held the token-exchange lock for the whole 100 ms; the token is exchanged without it.',
    ]);
    release();
    await holding;
  });

  it('tells every subscriber of the client id about a pause, keeping the later one', async () => {
    const fleet = [1, 2, 3, 4].map(() => processCoordination());
    const clientId = randomUUID();
    const heard = fleet.map(() => [] as number[]);
    const unsubscribe = fleet.map((coordination, index) =>
      coordination.onPause(clientId, (until) => heard[index]?.push(until)),
    );
    const otherClient: number[] = [];
    const unsubscribeOther = fleet[0]?.onPause(randomUUID(), (until) => otherClient.push(until));
    // Published at once: a subscription still being made reads the pause from its key.
    const until = Date.now() + 2_000;
    await fleet[3]?.publishPause(clientId, until);
    await eventually('every subscriber hears the pause', async () =>
      heard.every((list) => list.includes(until)) ? true : undefined,
    );
    // An earlier pause after a later one is not published.
    await fleet[2]?.publishPause(clientId, until - 1_000);
    const later = until + 500;
    await fleet[1]?.publishPause(clientId, later);
    await eventually('every subscriber hears the later pause', async () =>
      heard.every((list) => list.includes(later)) ? true : undefined,
    );
    for (const list of heard) {
      expect(list).not.toContain(until - 1_000);
      expect(list.at(-1)).toBe(later);
    }
    expect(otherClient).toEqual([]);

    // A process that subscribes during the pause hears of it at once, from its key.
    const latecomer = processCoordination();
    const heardLate: number[] = [];
    const unsubscribeLate = latecomer.onPause(clientId, (value) => heardLate.push(value));
    expect(await eventually('the latecomer reads the pause', async () => heardLate[0])).toBe(later);

    for (const stop of [...unsubscribe, unsubscribeLate, unsubscribeOther]) stop?.();
  });

  it('stops calling a listener once unsubscribed', async () => {
    const [publisher, subscriber] = [processCoordination(), processCoordination()];
    const clientId = randomUUID();
    const kept: number[] = [];
    const dropped: number[] = [];
    const stopKept = subscriber.onPause(clientId, (until) => kept.push(until));
    const stopDropped = subscriber.onPause(clientId, (until) => dropped.push(until));
    const first = Date.now() + 1_000;
    await publisher.publishPause(clientId, first);
    await eventually('both listeners hear the first pause', async () =>
      kept.includes(first) && dropped.includes(first) ? true : undefined,
    );
    stopDropped();
    const second = first + 1_000;
    await publisher.publishPause(clientId, second);
    await eventually('the kept listener hears the second pause', async () =>
      kept.includes(second) ? true : undefined,
    );
    expect(dropped).not.toContain(second);
    stopKept();
  });

  it('shows its key prefix, never its connection, in logs and inspect', () => {
    const coordination = processCoordination();
    exposeObject(coordination);
    expect(inspect(coordination)).toBe("RedisCoordination { keyPrefix: 'av' }");
    expect(JSON.stringify(coordination)).toBe('{"keyPrefix":"av"}');
  });

  it('fails each call with a clear error while Redis is down, and works again once it is back', async () => {
    const logger = collectingLogger();
    const redis = server.connect();
    connections.push(redis);
    const coordination = new RedisCoordination(redis, { commandTimeoutMs: 500, logger });
    coordinations.push(coordination);
    const clientId = randomUUID();
    const heard: number[] = [];
    const stopListening = coordination.onPause(clientId, (until) => heard.push(until));
    const lease = await coordination.acquireCreateLease(clientId, 'c-down', 60_000);
    if (!lease) throw new Error('no lease');
    // A token exchange waiting for another holder when Redis goes away.
    const holder = processCoordination(logger);
    let releaseHolder: () => void = () => {};
    const holding = holder.withTokenExchange(
      clientId,
      30_000,
      () => new Promise<void>((resolve) => (releaseHolder = resolve)),
    );
    await eventually('the holder takes the token-exchange lock', async () =>
      (await redis.exists(`av:{${clientId}}:token-lock`)) === 1 ? true : undefined,
    );
    // It exchanges without the lock once Redis is gone: a second token beats a failed call.
    const waiting = coordination.withTokenExchange(clientId, 30_000, async () => 'exchanged alone');

    await server.stop();
    const failures = await Promise.all([
      caught(coordination.acquireCreateLease(clientId, 'c-other', 60_000)),
      caught(coordination.recordCreateOutcome(lease, { state: 'created', id: 'grp_x' })),
      caught(coordination.readCreateOutcome(clientId, 'c-down')),
      caught(coordination.releaseCreateLease(lease)),
      caught(coordination.publishPause(clientId, Date.now() + 1_000)),
    ]);
    expect(await waiting).toBe('exchanged alone');
    expect(logger.lines).toContainEqual(
      expect.stringMatching(
        /^\[applicant-verification\] Redis coordination failed \(withTokenExchange\): .+\. The token is exchanged without the fleet's lock\.$/,
      ),
    );
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(RedisCoordinationError);
      expect((failure as Error).message).toMatch(
        /^Redis coordination failed \(\w+\): (the connection is (reconnecting|close|end)|no answer within 500 ms)\.$/,
      );
    }
    expect(failures.map((failure) => (failure as RedisCoordinationError).operation)).toEqual([
      'acquireCreateLease',
      'recordCreateOutcome',
      'readCreateOutcome',
      'releaseCreateLease',
      'publishPause',
    ]);
    releaseHolder();
    await holding.catch(() => {});

    await server.start();
    // ioredis reconnects on its own; the server came back empty.
    const again = await eventually('a lease once Redis is back', () =>
      coordination.acquireCreateLease(clientId, 'c-down', 60_000).catch(() => undefined),
    );
    // The server came back empty, yet the new fence is above the one taken before: a late write
    // of the earlier holder is refused.
    expect(again.fence).toBeGreaterThan(lease.fence);
    expect(await coordination.recordCreateOutcome(lease, { state: 'created', id: 'grp_late' })).toBe(false);
    // The pause subscription came back too: a pause published now is heard.
    const until = Date.now() + 1_500;
    await eventually('a pause heard once Redis is back', async () => {
      await holder.publishPause(clientId, until).catch(() => {});
      return heard.includes(until) ? true : undefined;
    });
    // A standalone subscription's outage is logged, as a warning naming what is missed. (A
    // Cluster connection reports none: ioredis moves its subscription to a node that answers.)
    const warnings = logger.lines.filter((line) => line.includes('pause channel unavailable'));
    expect(warnings.length).toBe(server.cluster ? 0 : 1);
    stopListening();
  });
});

describe('RedisCoordination options', () => {
  const redisLike = { evalsha() {}, get() {}, duplicate() {}, status: 'ready' };

  it('refuses a connection that is not ioredis, and bad options, before any command', () => {
    expect(() => new RedisCoordination({} as Redis)).toThrow(
      'RedisCoordination needs an ioredis connection (new Redis(...) or new Cluster(...)).',
    );
    expect(() => new RedisCoordination(redisLike as unknown as Redis, { keyPrefix: 'a{b' })).toThrow(
      'RedisCoordination: keyPrefix must be a non-empty string without "{" or "}".',
    );
    expect(() => new RedisCoordination(redisLike as unknown as Redis, { commandTimeoutMs: 0 })).toThrow(
      'RedisCoordination: commandTimeoutMs must be a positive number of milliseconds.',
    );
  });

  it('refuses empty ids and a bad ttl before sending anything', async () => {
    const coordination = new RedisCoordination(redisLike as unknown as Redis);
    await expect(coordination.acquireCreateLease('', 'c', 1_000)).rejects.toThrow(
      'RedisCoordination: clientId must be a non-empty string.',
    );
    await expect(coordination.acquireCreateLease('id', 'c', Number.NaN)).rejects.toThrow(
      'RedisCoordination: ttlMs must be a positive number of milliseconds.',
    );
  });
});
