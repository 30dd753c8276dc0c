/**
 * A client on `RedisCoordination` and `RedisTokenStore` whose Redis is stopped. By default
 * `createOnce` refuses to create without its lease (a `RedisCoordinationError`, nothing sent).
 * With `coordinationFailure: 'continue'` the creates go through, each household once within the
 * process (single-flight, lookup first), with a warning per call; the calls that need no create
 * still find the group. Standalone and on a two-node cluster.
 */
import type { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/index.js';
import { RedisCoordination, RedisCoordinationError, RedisTokenStore } from '../../src/redis/index.js';
import { createMockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { caught, expose } from '../support/exposure.js';
import { clientFor } from '../support/mock-client.js';
import { eventually } from './eventually.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

const CREATE = 'POST /api/v1/applicant_groups';
const MODES = [
  { name: 'standalone', nodes: 0 },
  { name: 'cluster of two nodes', nodes: 2 },
] as const;

describe.each(MODES)('createOnce with Redis stopped ($name)', ({ nodes }) => {
  let server: RedisServer;
  const connections: Array<Redis | Cluster> = [];

  beforeAll(async () => {
    server = await startRedisServer({ nodes });
  });
  afterAll(async () => {
    for (const redis of connections) redis.disconnect();
    await server?.close();
  });

  it("refuses by default; with 'continue', creates each household once in the process", async () => {
    const mock = await createMockServer();
    const warnings: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: () => {},
      warn: (message) => {
        warnings.push(message);
        expose(message);
      },
      error: (message) => {
        warnings.push(message);
        expose(message);
      },
    };
    const redis = server.connect();
    connections.push(redis);
    const coordination = new RedisCoordination(redis, { commandTimeoutMs: 500, logger });
    const client = clientFor(mock, {
      coordination,
      tokenStore: new RedisTokenStore(redis, { clientId: mock.clientId, commandTimeoutMs: 500 }),
      logger,
      logLevel: 'warn',
    });
    try {
      const first = groupCreateBody('ana@example.com', `down-${nodes}-0`);
      // Redis up: created under the lease.
      expect((await client.applicantGroups.createOnce(first)).created).toBe(true);
      // The test's Redis keeps nothing on disk: the one warning says so (docs/fleet.md).
      await eventually('the durability warning', async () => (warnings.length > 0 ? true : undefined));
      expect(warnings).toEqual([
        expect.stringMatching(
          /RedisCoordination: this Redis may lose what it was told \(appendonly is no, not yes/,
        ),
      ]);
      warnings.length = 0;

      await server.stop();
      const body = groupCreateBody('bia@example.com', `down-${nodes}-1`);
      const refused = await caught(client.applicantGroups.createOnce(body));
      expect(refused).toBeInstanceOf(RedisCoordinationError);
      expect(mock.stats.count(CREATE)).toBe(1);

      // Ten households, each asked for twice at once, plus the one created before the outage.
      const bodies = Array.from({ length: 10 }, (_, index) =>
        groupCreateBody(`household${index}@example.com`, `down-${nodes}-${index + 1}`),
      );
      warnings.length = 0;
      const results = await Promise.all(
        [...bodies, ...bodies, first].map((each) =>
          client.applicantGroups.createOnce(structuredClone(each), { coordinationFailure: 'continue' }),
        ),
      );
      expect(mock.stats.count(CREATE)).toBe(11);
      const perHousehold = new Map<unknown, number>();
      for (const group of mock.groups.applicant())
        perHousehold.set(group.correlation_id, (perHousehold.get(group.correlation_id) ?? 0) + 1);
      expect([...perHousehold.values()]).toEqual(new Array(11).fill(1));
      expect(results.slice(0, 10).map((result) => result.created)).toEqual(new Array(10).fill(true));
      expect(results.slice(0, 10).map((result) => result.group.id)).toEqual(
        results.slice(10, 20).map((result) => result.group.id),
      );
      expect(results[20]?.created).toBe(false);
      // One warning per call that ran (the twin of each household shared its call).
      expect(warnings.filter((line) => line.includes("coordinationFailure: 'continue'"))).toHaveLength(11);
    } finally {
      await client.close();
      await mock.close();
      await server.start();
    }
  });
});
