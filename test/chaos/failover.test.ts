/**
 * Chaos: a Sentinel failover that loses the last writes. A primary, its replica and a sentinel on
 * loopback ports; four processes connected through the sentinel run `createOnce` on 24 households
 * (each given to two of them) against a slow server (each create held 6 s before it commits). The
 * replica is stopped (SIGSTOP) as the run starts, so the primary takes leases and `unresolved`
 * records the replica never receives; 1.5 to 2.5 s in, the primary dies (SIGKILL) and the replica,
 * resumed, is promoted without them. Then the job runs again: four new processes, the same
 * households, while the first run's creates are still held.
 *
 * Without `minReplicas` the second run may take a lost lease and create the household again:
 * every such duplicate is reported (the first holder's write is refused by the new fence, or
 * fails). With `minReplicas: 1` no lease or `unresolved` the replica did not acknowledge was
 * relied on (those calls fail safe, with a typed error, nothing sent): 0 duplicates; the old
 * primary comes back, empty, as the new one's replica before the second run. docs/fault-model.md, "Redis failed over".
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/testing/index.js';
import { type RedisServer, startRedisServer } from '../fleet/redis-server.js';
import type { ChaosWorkerConfig } from './chaos-worker.js';
import { chaosWorkerBundle, leaseMsOf, seeded, seedOf, sleep, startWorker, summarize } from './harness.js';
import { PRIMARY_NAME, type RunningSentinel, startSentinel, until } from './sentinel.js';

const PROCESSES = 4;
const HOUSEHOLDS = 24;
const TIMING = { timeoutMs: 7_000, deadlineMs: 7_500, graceMs: 500 };
const LEASE_MS = leaseMsOf(TIMING);
const COMMIT_DELAY_MS = 6_000;
const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' };
/** What a call that could not be made safe ends in: each names what it refused. */
const TYPED = new Set(['RedisCoordinationError', 'CreateLeaseLostError', 'GroupMayHaveBeenCreatedError']);

const chaosWorker = chaosWorkerBundle();
let redis: RedisServer | undefined;
let sentinel: RunningSentinel | undefined;

afterEach(async () => {
  await sentinel?.close();
  await redis?.close();
  sentinel = undefined;
  redis = undefined;
});

function householdsOf(prefix: string, index: number): string[] {
  const half = HOUSEHOLDS / 2;
  const first = Math.floor(index / 2) * half;
  return Array.from({ length: half }, (_, offset) => `${prefix}-${first + offset}`);
}

describe.each([
  { name: 'without minReplicas', minReplicas: 0 },
  { name: 'with minReplicas: 1', minReplicas: 1 },
])('a Sentinel failover to a replica that missed the last leases, $name', ({ name, minReplicas }) => {
  it(
    minReplicas ? 'creates no household twice' : 'reports every duplicate it could not prevent',
    async () => {
      const seed = seedOf();
      const random = seeded(seed);
      const mock = await createMockServer({ seed });
      try {
        redis = await startRedisServer({ replicas: 1 });
        const primary = redis.ports[0] ?? 0;
        const replica = redis.replicaPorts[0] ?? 0;
        sentinel = await startSentinel(primary, 1);
        const prefix = `failover-${minReplicas}`;
        const all = Array.from({ length: HOUSEHOLDS }, (_, index) => `${prefix}-${index}`);
        mock.faults.next(2 * HOUSEHOLDS, { commitDelayMs: COMMIT_DELAY_MS }, CREATE);
        const run = (startAt: number) =>
          Array.from({ length: PROCESSES }, (_, index) => {
            const config: ChaosWorkerConfig = {
              redisPort: primary,
              sentinel: { ports: [sentinel?.port ?? 0], name: PRIMARY_NAME },
              minReplicas,
              households: householdsOf(prefix, index),
              waves: 1,
              concurrency: 4,
              startAt,
              ...TIMING,
            };
            return startWorker(chaosWorker.path, mock, config);
          });
        // The replica stops taking writes: the leases and `unresolved` records of the first run
        // reach the primary alone, which dies while their creates are held.
        redis.signal(replica, 'SIGSTOP');
        const first = run(Date.now() + 300);
        await sleep(1_500 + Math.floor(random() * 1_000));
        redis.signal(primary, 'SIGKILL');
        redis.signal(replica, 'SIGCONT');
        await until('the replica promoted', async () => (await sentinel?.primaryPort()) === replica, 30_000);
        await until('the new primary taking writes through the sentinel', async () => {
          const probe = new Redis({
            sentinels: [{ host: '127.0.0.1', port: sentinel?.port ?? 0 }],
            name: PRIMARY_NAME,
            maxRetriesPerRequest: 0,
            enableOfflineQueue: true,
          });
          probe.on('error', () => {});
          try {
            return (await probe.set('chaos:failover:probe', '1')) === 'OK';
          } finally {
            probe.disconnect();
          }
        });
        if (minReplicas) {
          // The old primary comes back, empty, as the new one's replica: the fleet creates again.
          await redis.restartNode(primary, replica);
          // Synced, not only connected: while its first sync runs, a replica acknowledges nothing and
          // every create fails safe, which leaves this run nothing to check for duplicates.
          await until('the new primary with a replica in sync', async () => {
            const admin = new Redis({ host: '127.0.0.1', port: replica, maxRetriesPerRequest: 1 });
            admin.on('error', () => {});
            try {
              return /^slave0:.*state=online/m.test(String(await admin.call('INFO', 'replication')));
            } finally {
              admin.disconnect();
            }
          });
        }
        // The job again, while the first run's creates are still held.
        const second = run(Date.now() + 100);
        const reports = await Promise.all([...first, ...second].map((worker) => worker.report));
        // Creates held by the mock commit late: wait for the last before counting.
        await sleep(COMMIT_DELAY_MS + 500);
        const summary = summarize(`failover ${name}`, seed, mock, prefix, all, reports, LEASE_MS);

        expect(summary.reported).toEqual(summary.duplicates);
        expect(summary.silentLongCalls).toEqual([]);
        // Every call that did not end with the group ended in an error that says what it refused.
        expect(Object.keys(summary.errors).filter((error) => !TYPED.has(error))).toEqual([]);
        // Nothing the replica had not acknowledged was relied on. (Households left without a group
        // are calls that failed safe, counted in `errors`: while the one replica lags, each write
        // waits for it and the calls queued behind on the connection time out.)
        if (minReplicas) expect(summary.duplicates).toEqual([]);
      } finally {
        await mock.close();
      }
    },
  );
});
