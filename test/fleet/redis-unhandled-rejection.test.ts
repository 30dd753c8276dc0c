/**
 * No promise of the Redis entry is left to reject unobserved when Redis goes away: a rejection
 * nobody handles ("Connection is closed.") crashes a user's process (Node's default
 * `--unhandled-rejections=throw`). On a real redis-server, killed and restarted: the pause
 * subscription closed while ioredis's own re-subscription after a reconnect awaits its answer, a
 * command that lost to the command timeout rejected later by the connection's end, and commands in
 * flight when the server dies. Each call fails with a `RedisCoordinationError`, and
 * `unhandledRejection` never fires.
 */
import { type Redis, Redis as RedisClient } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RedisCoordination, RedisCoordinationError } from '../../src/redis/index.js';
import { startTcpProxy } from '../chaos/tcp-proxy.js';
import { eventually } from './eventually.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

describe('RedisCoordination leaves no rejection unhandled when Redis goes away', () => {
  let server: RedisServer;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  const connections: Redis[] = [];

  /** A connection as a fleet process opens one (the chaos workers' options). */
  function connect(options: { retryStrategy?: () => number | null } = {}): Redis {
    const redis = server.connect() as Redis;
    Object.assign(redis.options, { maxRetriesPerRequest: 1 }, options);
    connections.push(redis);
    return redis;
  }

  /** Lets every rejection of the ended connection settle, and Node report any left unhandled. */
  async function settled(redis: Redis): Promise<void> {
    await eventually('the connection ends', async () => (redis.status === 'end' ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setImmediate(resolve));
  }

  beforeAll(async () => {
    server = await startRedisServer();
  });

  afterAll(async () => {
    for (const redis of connections) redis.disconnect();
    await server.close();
  });

  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', record);
  });

  afterEach(() => {
    process.off('unhandledRejection', record);
  });

  it.each([
    { ending: 'closed by the SDK (its last listener gone)', giveUp: false },
    { ending: 'ended by its retryStrategy giving up as the server dies again', giveUp: true },
  ])(
    'the pause subscriber $ending while re-subscribing after a restart leaves no rejection unhandled',
    async ({ giveUp }) => {
      // Through a proxy, so the test holds the answer to the SUBSCRIBE sent after the reconnect.
      const proxy = await startTcpProxy(server.ports[0] ?? 0);
      let retry = true;
      const redis = new RedisClient({
        host: '127.0.0.1',
        port: proxy.port,
        maxRetriesPerRequest: 1,
        retryStrategy: () => (retry ? 50 : null),
      });
      redis.on('error', () => {});
      connections.push(redis);
      const warnings: string[] = [];
      try {
        const duplicate = vi.spyOn(redis, 'duplicate');
        const coordination = new RedisCoordination(redis, {
          logger: { ...silent, warn: (line) => warnings.push(line) },
        });
        const stop = coordination.onPause('client-a', () => {});
        const subscriber = duplicate.mock.results[0]?.value as Redis;
        await eventually('the subscription stands', async () => {
          const [, count] = (await redis.call('PUBSUB', 'NUMSUB', 'av:{client-a}:pause')) as [string, number];
          return count === 1 ? true : undefined;
        });

        await server.stop();
        await eventually('the subscriber sees the outage', async () =>
          subscriber.status === 'ready' ? undefined : true,
        );
        // As the subscriber gets ready again, SUBSCRIBE is written (ioredis's own before the fix,
        // the SDK's now) and 'ready' is emitted before any answer can be read: from here the proxy
        // holds the answer, and the connection ends while that SUBSCRIBE waits.
        const endedAtReady = new Promise<void>((resolve, reject) =>
          subscriber.once('ready', () => {
            proxy.cut();
            if (giveUp) {
              retry = false;
              server.stop().then(resolve, reject);
            } else {
              stop();
              resolve();
            }
          }),
        );
        warnings.length = 0;
        await server.start();
        await endedAtReady;
        await settled(subscriber);

        expect(
          unhandled.map((reason) => (reason instanceof Error ? reason.message : String(reason))),
        ).toEqual([]);
        // The SDK handled the failed SUBSCRIBE: an outage of a subscription still wanted is said
        // once, by whichever comes first, the connection's end or the SUBSCRIBE it failed; a
        // subscription closed on purpose is no outage.
        if (giveUp) {
          expect(warnings).toHaveLength(1);
          expect(warnings[0]).toMatch(
            /^\[applicant-verification\] Redis pause channel unavailable \((the connection closed|Redis coordination failed \(onPause\): Error: Connection is closed\.)\): pauses other processes publish are missed until it reconnects\.$/,
          );
        } else expect(warnings).toEqual([]);
        coordination.close();
      } finally {
        redis.disconnect();
        await proxy.close();
        if (giveUp) await server.start();
      }
    },
  );

  it('a command that lost to the command timeout and is rejected by the connection end is observed', async () => {
    const redis = connect({ retryStrategy: () => null });
    const coordination = new RedisCoordination(redis, { logger: silent, commandTimeoutMs: 50 });
    await redis.ping();
    const evalsha = vi.spyOn(redis, 'evalsha');
    const port = server.ports[0] ?? 0;
    server.signal(port, 'SIGSTOP');
    try {
      const timedOut = await coordination
        .readCreateOutcome('client-b', 'household-1')
        .catch((e: unknown) => e);
      expect(timedOut).toBeInstanceOf(RedisCoordinationError);
      expect((timedOut as RedisCoordinationError).message).toBe(
        'Redis coordination failed (readCreateOutcome): no answer within 50 ms.',
      );
      // The command still waits for its answer; the connection's end rejects it now.
      expect(redis.commandQueue.length).toBe(1);
      redis.disconnect();
      await settled(redis);
      await expect(evalsha.mock.results[0]?.value).rejects.toThrow('Connection is closed.');
    } finally {
      server.signal(port, 'SIGCONT');
    }
    expect(redis.commandQueue.length).toBe(0);
    expect(unhandled).toEqual([]);
    coordination.close();
  });

  it('commands in flight when the server is killed fail with RedisCoordinationError', async () => {
    const redis = connect({ retryStrategy: () => null });
    const coordination = new RedisCoordination(redis, {
      logger: silent,
      minReplicas: 1,
      replicaAckTimeoutMs: 5_000,
    });
    await redis.ping();
    const stopped = coordination.onPause('client-c', () => {});
    // WAIT holds the pipeline on the server (no replica): both calls are in flight when it dies.
    const calls = [
      coordination.acquireCreateLease('client-c', 'household-1', 30_000).catch((e: unknown) => e),
      coordination.acquireCreateLease('client-c', 'household-2', 30_000).catch((e: unknown) => e),
    ];
    await eventually('both leases are in flight', async () =>
      redis.commandQueue.length >= 4 ? true : undefined,
    );
    await server.stop();
    const errors = await Promise.all(calls);
    for (const error of errors) {
      expect(error).toBeInstanceOf(RedisCoordinationError);
      expect((error as RedisCoordinationError).operation).toBe('acquireCreateLease');
      expect((error as Error).message).toBe(
        'Redis coordination failed (acquireCreateLease): Error: Connection is closed.',
      );
    }
    stopped();
    coordination.close();
    await settled(redis);
    expect(unhandled).toEqual([]);
    await server.start();
  });
});
