/**
 * Chaos: one process cut off from Redis while the API stays reachable. Four processes run
 * `createOnce` on 24 households (each given to two of them) against a slow server (each create
 * held 1.5 s before it commits), each talking to Redis through its own TCP proxy. While creates are
 * in flight the first process's proxy holds every byte both ways for 4 s (no connection closed:
 * packets that go nowhere), then delivers them late. The cut-off process's commands time out
 * (`commandTimeoutMs`): a create it had in flight finds its outcome write failing and reports a
 * possible duplicate (here a false alarm), a lease it needs fails safe, nothing sent without one;
 * its leases stay in Redis, so the other holder of each household waits for them (saying so) and
 * finds the group instead of creating it again. 0 duplicates; a household without a group is one
 * a call refused with a typed error (a create stopped before it left keeps its `unresolved` when
 * the cut-off process cannot write `refused`). docs/fault-model.md,
 * "Partition".
 */
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/testing/index.js';
import { eventually } from '../fleet/eventually.js';
import { startRedisServer } from '../fleet/redis-server.js';
import type { ChaosWorkerConfig } from './chaos-worker.js';
import { chaosWorkerBundle, leaseMsOf, seeded, seedOf, sleep, startWorker, summarize } from './harness.js';
import { startTcpProxy } from './tcp-proxy.js';

const PROCESSES = 4;
const HOUSEHOLDS = 24;
const TIMING = { timeoutMs: 2_000, deadlineMs: 4_000, graceMs: 500 };
const LEASE_MS = leaseMsOf(TIMING);
const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' };
const CREATE_ROUTE = 'POST /api/v1/applicant_groups';
const TYPED = new Set(['RedisCoordinationError', 'CreateLeaseLostError', 'GroupMayHaveBeenCreatedError']);

const chaosWorker = chaosWorkerBundle();

function householdsOf(prefix: string, index: number): string[] {
  const half = HOUSEHOLDS / 2;
  const first = Math.floor(index / 2) * half;
  return Array.from({ length: half }, (_, offset) => `${prefix}-${first + offset}`);
}

describe('a process cut off from Redis for 4 s while the API answers', () => {
  it('creates every household once: the cut-off process fails safe, the others wait for its leases', async () => {
    const seed = seedOf();
    const random = seeded(seed);
    const mock = await createMockServer({ seed });
    const redis = await startRedisServer();
    const proxies = await Promise.all(
      Array.from({ length: PROCESSES }, () => startTcpProxy(redis.ports[0] ?? 0)),
    );
    try {
      const prefix = 'partition';
      const all = Array.from({ length: HOUSEHOLDS }, (_, index) => `${prefix}-${index}`);
      mock.faults.next(2 * HOUSEHOLDS, { commitDelayMs: 1_500 }, CREATE);
      const startAt = Date.now() + 500;
      const workers = proxies.map((proxy, index) => {
        const config: ChaosWorkerConfig = {
          redisPort: proxy.port,
          households: householdsOf(prefix, index),
          waves: 1,
          concurrency: 4,
          startAt,
          ...TIMING,
        };
        return startWorker(chaosWorker.path, mock, config);
      });
      const creates = 2 + Math.floor(random() * 4);
      await eventually(`${creates} creates received`, async () =>
        mock.stats.count(CREATE_ROUTE) >= creates ? true : undefined,
      );
      await sleep(Math.floor(random() * 500));
      proxies[0]?.cut();
      await sleep(4_000);
      proxies[0]?.heal();
      const reports = await Promise.all(workers.map((worker) => worker.report));
      await sleep(2_000);
      const summary = summarize(
        'partition: one process cut off from Redis for 4 s',
        seed,
        mock,
        prefix,
        all,
        reports,
        LEASE_MS,
      );

      expect(summary.duplicates).toEqual([]);
      // A household left without a group is one a call refused with a typed error, nothing sent:
      // a create the partition stopped before it left, whose `refused` could not be written, keeps
      // its `unresolved` and the other holder will not send over it.
      const refused = new Set(
        reports
          .flatMap((report) => report.results)
          .filter((r) => r.error)
          .map((r) => r.household),
      );
      expect(summary.missing.filter((household) => !refused.has(household))).toEqual([]);
      expect(summary.silentLongCalls).toEqual([]);
      expect(Object.keys(summary.errors).filter((error) => !TYPED.has(error))).toEqual([]);
    } finally {
      for (const proxy of proxies) await proxy.close();
      await mock.close();
      await redis.close();
    }
  });
});
