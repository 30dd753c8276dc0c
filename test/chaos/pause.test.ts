/**
 * Chaos: a process paused (SIGSTOP) in the middle of a create, past its lease, then resumed
 * (SIGCONT). Four processes run `createOnce` on 24 households through `RedisCoordination` (a real
 * redis-server), every household given to two of them, twice (a job run again). One holder stops
 * itself at a named point of one household's create (chosen by the printed seed); the test
 * resumes it once the lease has lapsed and the job's second run has come by. docs/fault-model.md,
 * "Process paused".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/testing/index.js';
import { type RedisServer, startRedisServer } from '../fleet/redis-server.js';
import type { ChaosWorkerConfig, PausePoint } from './chaos-worker.js';
import {
  chaosWorkerBundle,
  leaseMsOf,
  seeded,
  seedOf,
  sleep,
  startWorker,
  stoppedWorker,
  summarize,
} from './harness.js';

const PROCESSES = 4;
const HOUSEHOLDS = 24;
const TIMING = { timeoutMs: 1_000, deadlineMs: 2_000, graceMs: 500 };
const LEASE_MS = leaseMsOf(TIMING);

const chaosWorker = chaosWorkerBundle();
let redis: RedisServer;

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await redis?.close();
});

/** Households 0-11 for processes 0 and 1, 12-23 for 2 and 3. */
function householdsOf(prefix: string, index: number): string[] {
  const half = HOUSEHOLDS / 2;
  const first = Math.floor(index / 2) * half;
  return Array.from({ length: half }, (_, offset) => `${prefix}-${first + offset}`);
}

/**
 * The creates the mock holds before it commits them, under the attempt's 1 s timeout: an `in-flight`
 * holder stops while its own is held (150 ms after recording `unresolved`).
 */
const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' };
const IN_FLIGHT_COMMIT_DELAY_MS = 600;

describe.each<{ point: PausePoint }>([
  { point: 'after-lookup' },
  { point: 'after-unresolved' },
  { point: 'in-flight' },
])('a holder paused $point, past its lease', ({ point }) => {
  it('creates every household once: the resumed holder sends only on a lease it still holds', async () => {
    const seed = seedOf();
    const random = seeded(seed);
    const mock = await createMockServer({ seed });
    try {
      const prefix = `pause-${point}`;
      const all = Array.from({ length: HOUSEHOLDS }, (_, index) => `${prefix}-${index}`);
      const target = all[Math.floor(random() * (HOUSEHOLDS / 2))] ?? `${prefix}-0`;
      if (point === 'in-flight')
        mock.faults.next(2 * HOUSEHOLDS, { commitDelayMs: IN_FLIGHT_COMMIT_DELAY_MS }, CREATE);
      const startAt = Date.now() + 500;
      const workers = Array.from({ length: PROCESSES }, (_, index) => {
        const config: ChaosWorkerConfig = {
          redisPort: redis.ports[0] ?? 0,
          households: householdsOf(prefix, index),
          waves: 2,
          concurrency: 4,
          startAt,
          ...TIMING,
          pause: { household: target, point, claim: `chaos:pause:${prefix}:${seed}` },
        };
        return startWorker(chaosWorker.path, mock, config);
      });
      const stopped = await stoppedWorker(workers, 20_000);
      expect(stopped, `a worker stops at ${point} of ${target}`).toBeDefined();
      // Past the lease, and past the mock's keep-alive timeout (5 s): the socket it had is closed.
      const from = Date.now();
      await sleep(LEASE_MS + 3_000);
      stopped?.child.kill('SIGCONT');
      const window = { pid: stopped?.child.pid, from, until: Date.now() };
      const reports = await Promise.all(workers.map((worker) => worker.report));
      const summary = summarize(`pause ${point}`, seed, mock, prefix, all, reports, LEASE_MS, window);

      expect(summary.duplicates).toEqual([]);
      expect(summary.missing).toEqual([]);
      expect(summary.silentLongCalls).toEqual([]);
      // The resumed holder's call ends in a typed error or with the group, never created twice.
      const targetCalls = reports.flatMap((report) => report.results).filter((r) => r.household === target);
      // In flight, the stopped holder's create was committed by the mock while it slept: whether
      // its call or a successor's lookup ends up naming it, no call may have created a second.
      if (point === 'in-flight')
        expect(targetCalls.filter((call) => call.created).length).toBeLessThanOrEqual(1);
      else expect(targetCalls.filter((call) => call.created)).toHaveLength(1);
    } finally {
      await mock.close();
    }
  });
});
