/**
 * Chaos: Redis loses what it was told while creates are in flight. Four processes run `createOnce`
 * on 24 households (each given to two of them) against a slow server (every create held 1.5 s
 * before it commits), while Redis is flushed three times (FLUSHALL), or killed and restarted
 * without persistence (0.3 s down). The leases and `unresolved` records of the creates in flight
 * are gone, so a waiting process may take the key and create the household too: that cannot be
 * prevented without the data, but it must not be silent. Every duplicate is reported by a call
 * (its lease was lost while its request was in flight), and the fences of the new leases are
 * above the old ones, so no stale holder's write passes. With the setup docs/fleet.md recommends
 * (`appendonly yes`, `appendfsync always`) the same restart loses nothing: 0 duplicates.
 * docs/fault-model.md, "Redis flushed" and "Redis restarted".
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/testing/index.js';
import { eventually } from '../fleet/eventually.js';
import { type RedisServer, startRedisServer } from '../fleet/redis-server.js';
import type { ChaosWorkerConfig } from './chaos-worker.js';
import { chaosWorkerBundle, leaseMsOf, seeded, seedOf, sleep, startWorker, summarize } from './harness.js';

const PROCESSES = 4;
const HOUSEHOLDS = 24;
const TIMING = { timeoutMs: 3_000, deadlineMs: 6_000, graceMs: 500 };
const LEASE_MS = leaseMsOf(TIMING);
const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' };
const CREATE_ROUTE = 'POST /api/v1/applicant_groups';

const chaosWorker = chaosWorkerBundle();

function householdsOf(prefix: string, index: number): string[] {
  const half = HOUSEHOLDS / 2;
  const first = Math.floor(index / 2) * half;
  return Array.from({ length: half }, (_, offset) => `${prefix}-${first + offset}`);
}

/**
 * What happens to Redis during the run: `creates(n)` resolves once the mock has received `n`
 * creates (so creates are in flight, held by the mock), `random` picks which.
 */
type Loss = (
  redis: RedisServer,
  creates: (n: number) => Promise<void>,
  random: () => number,
) => Promise<void>;

const flushThrice: Loss = async (redis, creates, random) => {
  const admin = new Redis({ host: '127.0.0.1', port: redis.ports[0] ?? 0, maxRetriesPerRequest: 1 });
  try {
    for (const after of [2, 8, 14]) {
      await creates(after + Math.floor(random() * 3));
      await sleep(100 + Math.floor(random() * 400));
      await admin.flushall();
    }
  } finally {
    admin.disconnect();
  }
};

const restartEmpty: Loss = async (redis, creates, random) => {
  await creates(4 + Math.floor(random() * 6));
  await sleep(100 + Math.floor(random() * 400));
  await redis.stop();
  await sleep(300);
  await redis.start();
};

describe.each<{ name: string; loss: Loss; persistent: boolean }>([
  { name: 'FLUSHALL three times during a run', loss: flushThrice, persistent: false },
  {
    name: 'redis-server killed and restarted without persistence, 0.3 s down',
    loss: restartEmpty,
    persistent: false,
  },
  {
    name: 'redis-server killed and restarted with appendfsync always, 0.3 s down',
    loss: restartEmpty,
    persistent: true,
  },
])('$name, slow creates in flight', ({ name, loss, persistent }) => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedisServer({ persistent });
  });

  afterAll(async () => {
    await redis?.close();
  });

  it('reports every duplicate it could not prevent', async () => {
    const seed = seedOf();
    const random = seeded(seed);
    const mock = await createMockServer({ seed });
    try {
      const prefix = `loss-${name.slice(0, 5).toLowerCase()}${persistent ? '-aof' : ''}`;
      const all = Array.from({ length: HOUSEHOLDS }, (_, index) => `${prefix}-${index}`);
      mock.faults.next(2 * HOUSEHOLDS, { commitDelayMs: 1_500 }, CREATE);
      const startAt = Date.now() + 500;
      const workers = Array.from({ length: PROCESSES }, (_, index) => {
        const config: ChaosWorkerConfig = {
          redisPort: redis.ports[0] ?? 0,
          households: householdsOf(prefix, index),
          waves: 1,
          concurrency: 4,
          startAt,
          ...TIMING,
        };
        return startWorker(chaosWorker.path, mock, config);
      });
      const creates = (n: number) =>
        eventually(`${n} creates received`, async () =>
          mock.stats.count(CREATE_ROUTE) >= n ? true : undefined,
        ).then(() => {});
      await loss(redis, creates, random);
      const reports = await Promise.all(workers.map((worker) => worker.report));
      // Creates held by the mock commit late: wait for the last before counting.
      await sleep(2_000);
      const summary = summarize(name, seed, mock, prefix, all, reports, LEASE_MS);

      expect(summary.reported).toEqual(summary.duplicates);
      // What the restart kept: every lease and `unresolved` record, so no second create.
      if (persistent) expect(summary.duplicates).toEqual([]);
      expect(summary.silentLongCalls).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});
