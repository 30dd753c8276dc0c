/**
 * A fleet: four Node processes behind one client id, each with `RedisCoordination` and
 * `RedisTokenStore`, call `createOnce` 200 times each against one mock, every household given to
 * two processes (in the same order, so the two race for it). The mock holds the first creates
 * before committing them and keeps the later ones out of list answers for a while, so a process
 * that waited on the lease often finds no group yet and must trust the outcome its rival recorded.
 * Then: 400 groups, none twice; one token exchange for the whole fleet; a 429 with
 * `Retry-After: 2` answered to one process holds the requests of all four until the same instant.
 * The same on a two-node Redis Cluster; and with Redis stopped mid-run, every call settles by its
 * deadline (created, or a clear error) and still nothing is created twice.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { expose } from '../support/exposure.js';
import { eventually } from './eventually.js';
import type { CallResult, WorkerConfig, WorkerReport } from './fleet-worker.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const AUTH = 'POST /api/v1/tenants/auth';
const CREATE_ROUTE = 'POST /api/v1/applicant_groups';
const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' };
const LOOKUP = { method: 'GET', path: '/api/v1/applicant_groups' };
const PROCESSES = 4;
const CALLS = 200;

const MODES = [
  { name: 'standalone', nodes: 0 },
  { name: 'cluster of two nodes', nodes: 2 },
] as const;

let worker: string;

beforeAll(async () => {
  // A `new URL(…, import.meta.url)`, so knip sees the worker file is used.
  worker = await bundleForNode(fileURLToPath(new URL('./fleet-worker.ts', import.meta.url)), 'fleet-worker');
});

afterAll(() => {
  if (worker) removeBundle(worker);
});

function runWorker(mock: MockServer, config: WorkerConfig): Promise<WorkerReport> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VERIFICATION_BASE_URL: mock.url,
    VERIFICATION_CLIENT_ID: mock.clientId,
    VERIFICATION_SECRET_KEY: mock.secretKey,
    FLEET: JSON.stringify(config),
  };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [worker],
      { cwd: root, env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        expose(stderr);
        if (error) reject(new Error(`fleet worker failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim()) as WorkerReport);
      },
    );
  });
}

/** Households 0-199 for processes 0 and 1, 200-399 for processes 2 and 3: each id in two processes. */
function householdsOf(prefix: string, process: number): string[] {
  const first = Math.floor(process / 2) * CALLS;
  return Array.from({ length: CALLS }, (_, index) => `${prefix}-${first + index}`);
}

/** The groups the mock holds for this run, counted per correlation id. */
function groupsPerHousehold(mock: MockServer, prefix: string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const group of mock.groups.applicant()) {
    const id = group.correlation_id;
    if (typeof id !== 'string' || !id.startsWith(`${prefix}-`)) continue;
    groups.set(id, [...(groups.get(id) ?? []), group.id]);
  }
  return groups;
}

describe.each(MODES)('a fleet of four processes on Redis ($name)', ({ name, nodes }) => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedisServer({ nodes });
  });

  afterAll(async () => {
    await redis?.close();
  });

  it('creates 400 households once each, exchanges one token, and pauses all four on one 429', async () => {
    const mock = await createMockServer({ seed: 11 });
    try {
      const prefix = `fleet-${nodes}`;
      // Creates held before they commit, then creates whose groups lag behind in lists.
      mock.faults.next(100, { commitDelayMs: 100 }, CREATE);
      mock.faults.next(300, { listLagMs: 400 }, CREATE);
      const startAt = Date.now() + 500;
      const runs = Array.from({ length: PROCESSES }, (_, index) =>
        runWorker(mock, {
          redisPorts: [...redis.ports],
          cluster: redis.cluster,
          households: householdsOf(prefix, index),
          concurrency: 20,
          deadlineMs: 60_000,
          startAt,
        }),
      );
      // Once the fleet is busy, one lookup (whichever process sends it next) is answered 429.
      await eventually('60 creates received', async () =>
        mock.stats.count(CREATE_ROUTE) >= 60 ? true : undefined,
      );
      mock.faults.next(1, { status: 429, retryAfter: 2 }, LOOKUP);
      const reports = await Promise.all(runs);

      // Every call got its household's group; one of its two processes created it.
      const results = reports.flatMap((report) => report.results);
      expect(results).toHaveLength(PROCESSES * CALLS);
      const failed = results.filter((result) => result.error);
      expect(failed, `${name}: ${JSON.stringify(failed.slice(0, 3))}`).toEqual([]);
      const groups = groupsPerHousehold(mock, prefix);
      expect(groups.size).toBe(400);
      expect([...groups.values()].filter((ids) => ids.length > 1)).toEqual([]);
      const byHousehold = new Map<string, CallResult[]>();
      for (const result of results) {
        byHousehold.set(result.household, [...(byHousehold.get(result.household) ?? []), result]);
      }
      for (const [household, calls] of byHousehold) {
        expect(calls).toHaveLength(2);
        expect(calls.map((call) => call.groupId)).toEqual([
          groups.get(household)?.[0],
          groups.get(household)?.[0],
        ]);
        expect(calls.filter((call) => call.created)).toHaveLength(1);
      }
      expect(mock.stats.count(CREATE_ROUTE)).toBe(400);

      // One token for the fleet: the run is far shorter than the token's 30 minutes.
      expect(mock.stats.count(AUTH)).toBe(1);

      // One process published the pause; all four heard it and held requests until its end.
      const published = reports.flatMap((report) => report.published);
      expect(published).toHaveLength(1);
      const until = published[0] ?? 0;
      for (const report of reports) {
        expect(report.heard).toContain(until);
        expect(report.waits.filter((wait) => wait.at + wait.ms === until).length).toBeGreaterThan(0);
      }
    } finally {
      await mock.close();
    }
  });

  it('settles every call by its deadline with a clear error when Redis stops mid-run, and creates nothing twice', async () => {
    const mock = await createMockServer({ seed: 12 });
    const own = await startRedisServer({ nodes });
    try {
      const prefix = `outage-${nodes}`;
      mock.faults.next(400, { commitDelayMs: 50 }, CREATE);
      const deadlineMs = 20_000;
      const runs = Array.from({ length: PROCESSES }, (_, index) =>
        runWorker(mock, {
          redisPorts: [...own.ports],
          cluster: own.cluster,
          households: householdsOf(prefix, index),
          concurrency: 20,
          deadlineMs,
          startAt: Date.now() + 500,
        }),
      );
      await eventually('40 creates received', async () =>
        mock.stats.count(CREATE_ROUTE) >= 40 ? true : undefined,
      );
      await own.stop();
      const results = (await Promise.all(runs)).flatMap((report) => report.results);

      expect(results).toHaveLength(PROCESSES * CALLS);
      const groups = groupsPerHousehold(mock, prefix);
      expect([...groups.values()].filter((ids) => ids.length > 1)).toEqual([]);
      for (const result of results) {
        if (result.error) {
          // The lease could not be taken, or not confirmed just before the request would leave
          // (nothing sent either way), or a create in flight could not be settled.
          expect([
            'RedisCoordinationError',
            'CreateLeaseLostError',
            'GroupMayHaveBeenCreatedError',
          ]).toContain(result.error.name);
          expect(result.error.message).toMatch(
            /Redis coordination failed|could not confirm its create lease|may have been created/,
          );
        } else {
          expect(groups.get(result.household)).toEqual([result.groupId]);
        }
        expect(result.settledAt - result.startedAt).toBeLessThanOrEqual(deadlineMs);
      }
      // Some calls had settled before Redis stopped, and the rest failed instead of creating blind.
      expect(results.some((result) => result.created)).toBe(true);
      expect(results.some((result) => result.error?.name === 'RedisCoordinationError')).toBe(true);
    } finally {
      await mock.close();
      await own.close();
    }
  });
});
