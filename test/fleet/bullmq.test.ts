/**
 * The BullMQ example (examples/bullmq-households.ts) as a fleet: 20 households enqueued
 * twice (one job each), a first worker killed while its create is on the wire (the mock holds
 * creates before committing them, and commits them even after the client is gone), two more
 * workers that pick up the rest and, once BullMQ sees the killed worker's job stalled, retry it:
 * exactly one group per household, and the retried job finds the group the dead worker's create
 * made instead of creating another. BullMQ's stall timers are shortened to a second.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { expose } from '../support/exposure.js';
import { eventually } from './eventually.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CREATE_ROUTE = 'POST /api/v1/applicant_groups';
const HOUSEHOLDS = 20;

describe('the BullMQ example: households across worker processes', () => {
  let example: string;
  let redis: RedisServer;
  let mock: MockServer;
  let dir: string;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    example = await bundleForNode(
      fileURLToPath(new URL('../../examples/bullmq-households.ts', import.meta.url)),
      'bullmq-households',
    );
    redis = await startRedisServer();
    mock = await createMockServer({ seed: 21 });
    dir = mkdtempSync(join(tmpdir(), 'bullmq-households-'));
  });

  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await mock?.close();
    await redis?.close();
    if (example) removeBundle(example);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      ...process.env,
      REDIS_URL: `redis://127.0.0.1:${redis.ports[0]}`,
      VERIFICATION_BASE_URL: mock.url,
      VERIFICATION_CLIENT_ID: mock.clientId,
      VERIFICATION_SECRET_KEY: mock.secretKey,
      LOCK_DURATION_MS: '1000',
      STALLED_INTERVAL_MS: '1000',
      ...extra,
    };
  }

  function enqueue(file: string): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        [example, 'enqueue', file],
        { cwd: root, env: env(), timeout: 30_000 },
        (error, stdout, stderr) => {
          expose(stdout);
          expose(stderr);
          if (error) reject(new Error(`enqueue failed: ${error.message}\n${stderr}`));
          else resolve(stdout);
        },
      );
    });
  }

  /** Starts a worker process; `lines` collects what it prints. */
  function startWorker(concurrency: number): { child: ChildProcess; lines: string[] } {
    const child = spawn(process.execPath, [example, 'work'], {
      cwd: root,
      env: env({ WORKER_CONCURRENCY: String(concurrency) }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    workers.push(child);
    const lines: string[] = [];
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      expose(chunk);
      lines.push(...chunk.split('\n').filter(Boolean));
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => expose(chunk));
    return { child, lines };
  }

  it('gives every household one group, the job of a killed worker included', async () => {
    const file = join(dir, 'households.json');
    const households = Array.from({ length: HOUSEHOLDS }, (_, index) =>
      groupCreateBody(`household${index}@example.com`, `HH-${index}`),
    );
    writeFileSync(file, JSON.stringify(households));
    // Enqueued twice (a rerun of the enqueue step): still one job per household.
    await enqueue(file);
    expect(await enqueue(file)).toMatch(/^enqueued: \{"waiting":20,/m);

    // Every create is held a second and a half before the mock commits it.
    mock.faults.next(
      HOUSEHOLDS + 5,
      { commitDelayMs: 1_500 },
      { method: 'POST', path: '/api/v1/applicant_groups' },
    );
    const victim = startWorker(1);
    await eventually('the first worker sends its create', async () =>
      mock.stats.count(CREATE_ROUTE) >= 1 ? true : undefined,
    );
    const killedJob = /^started (\S+) /.exec(
      victim.lines.find((line) => line.startsWith('started')) ?? '',
    )?.[1];
    expect(killedJob).toMatch(/^HH-\d+$/);
    victim.child.kill('SIGKILL');

    const rest = [startWorker(4), startWorker(4)];
    const connection = new Redis(redis.ports[0] ?? 0, '127.0.0.1', { maxRetriesPerRequest: null });
    const queue = new Queue('applicant-groups', { connection });
    try {
      // The retried job waits for the dead worker's lease to lapse (twice its create budget).
      await eventually(
        'every job completed',
        async () => {
          const counts = await queue.getJobCounts('completed', 'failed');
          return (counts.completed ?? 0) + (counts.failed ?? 0) === HOUSEHOLDS ? counts : undefined;
        },
        60_000,
      );
      expect(await queue.getJobCounts('completed', 'failed')).toEqual({ completed: HOUSEHOLDS, failed: 0 });

      // One group per household on the server, and each job's result names it.
      const groups = mock.groups.applicant().filter((group) => group.correlation_id?.startsWith('HH-'));
      expect(groups).toHaveLength(HOUSEHOLDS);
      expect(new Set(groups.map((group) => group.correlation_id)).size).toBe(HOUSEHOLDS);
      for (const group of groups) {
        const job = await queue.getJob(group.correlation_id ?? '');
        expect(job?.returnvalue).toMatchObject({ groupId: group.id });
      }
      // The killed worker's job ran again elsewhere and found the group its create had made.
      const retried = await queue.getJob(killedJob ?? '');
      expect(retried?.returnvalue).toMatchObject({ created: false });
      expect(rest.flatMap((worker) => worker.lines)).toContain(
        `done ${killedJob}: ${retried?.returnvalue?.groupId} found`,
      );
      expect(mock.stats.count(CREATE_ROUTE)).toBe(HOUSEHOLDS);
    } finally {
      await queue.close();
      connection.disconnect();
      for (const worker of rest) worker.child.kill('SIGTERM');
    }
  });
});
