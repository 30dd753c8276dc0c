/**
 * Chaos: clocks that disagree, and a server that commits late. A first process creates 20
 * households while the mock holds every create longer than the client waits (each ends
 * `unresolved`: the group is committed seconds later). Then a second process, whose wall clock
 * runs 11 minutes ahead, 11 minutes behind, or agrees, runs `createOnce` on the same households
 * before those commits land. Whatever its clock says, an `unresolved` create a second old is not
 * "settled long ago": nothing is sent twice. docs/fault-model.md, "Clock ahead or behind" and
 * "Server commits late".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/testing/index.js';
import { eventually } from '../fleet/eventually.js';
import { type RedisServer, startRedisServer } from '../fleet/redis-server.js';
import type { ChaosWorkerConfig } from './chaos-worker.js';
import { chaosWorkerBundle, leaseMsOf, seedOf, sleep, startWorker, summarize } from './harness.js';

const HOUSEHOLDS = 20;
const TIMING = { timeoutMs: 1_000, deadlineMs: 2_000, graceMs: 500 };
const LEASE_MS = leaseMsOf(TIMING);
/** How long the mock holds each of the first process's creates before committing it. */
const COMMIT_DELAY_MS = 8_000;
const MINUTES_11 = 11 * 60_000;

const chaosWorker = chaosWorkerBundle();
let redis: RedisServer;

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await redis?.close();
});

describe.each([
  { name: 'a clock 11 minutes ahead', offsetMs: MINUTES_11 },
  { name: 'a clock 11 minutes behind', offsetMs: -MINUTES_11 },
  { name: 'clocks that agree (a late commit)', offsetMs: 0 },
])('$name, after creates a slow server left unresolved', ({ name, offsetMs }) => {
  it('sends none of them again', async () => {
    const seed = seedOf();
    const mock = await createMockServer({ seed });
    try {
      const prefix = `clock-${offsetMs}`;
      const households = Array.from({ length: HOUSEHOLDS }, (_, index) => `${prefix}-${index}`);
      const config = (startAt: number): ChaosWorkerConfig => ({
        redisPort: redis.ports[0] ?? 0,
        households,
        waves: 1,
        concurrency: HOUSEHOLDS,
        startAt,
        ...TIMING,
      });
      mock.faults.next(
        HOUSEHOLDS,
        { commitDelayMs: COMMIT_DELAY_MS },
        { method: 'POST', path: '/api/v1/applicant_groups' },
      );
      const firstStart = Date.now() + 300;
      const first = await startWorker(chaosWorker.path, mock, config(firstStart)).report;
      expect(first.results.every((result) => result.error?.name === 'GroupMayHaveBeenCreatedError')).toBe(
        true,
      );

      const second = await startWorker(chaosWorker.path, mock, config(Date.now() + 300), offsetMs).report;
      // Every held create commits: then the count is final.
      await sleep(Math.max(0, firstStart + COMMIT_DELAY_MS + 2_000 - Date.now()));
      await eventually(
        'the held creates commit',
        async () =>
          mock.groups.applicant().filter((group) => group.correlation_id?.startsWith(`${prefix}-`)).length >=
          HOUSEHOLDS
            ? true
            : undefined,
        COMMIT_DELAY_MS + 10_000,
      );
      const summary = summarize(name, seed, mock, prefix, households, [first, second], LEASE_MS);

      expect(summary.duplicates).toEqual([]);
      expect(summary.missing).toEqual([]);
      expect(summary.silentLongCalls).toEqual([]);
      // The second process sent nothing: it said, for each, that the first may have created it.
      for (const result of second.results) expect(result.error?.name).toBe('GroupMayHaveBeenCreatedError');
    } finally {
      await mock.close();
    }
  });
});
