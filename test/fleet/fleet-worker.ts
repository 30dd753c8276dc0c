/**
 * One process of the fleet tests: a client with `RedisCoordination` and `RedisTokenStore` on the
 * Redis named in FLEET (JSON, see {@link WorkerConfig}) calls `createOnce` for each of its
 * households, a few at a time, and prints one JSON line: how each call settled (group id and
 * `created`, or the error's class and message), the pauses it published and heard, and the waits
 * its clock was asked for. The test runs it bundled (test/support/bundle.ts).
 *
 * The clock reads the time once per synchronous run (the value is kept until the next microtask),
 * so a pause heard from another process and the limiter's wait for it are computed from one
 * reading: a wait that holds requests until a pause's end records exactly that end.
 */
import { Cluster, Redis } from 'ioredis';
import { mapSettled } from '../../src/core/results/batch.js';
import { VerificationClient } from '../../src/index.js';
import { RedisCoordination, RedisTokenStore } from '../../src/redis/index.js';
import { groupCreateBody } from '../support/bodies.js';

/** What the test hands a worker. */
export interface WorkerConfig {
  /** Redis ports on 127.0.0.1 (several: a cluster). */
  redisPorts: number[];
  cluster: boolean;
  /** The correlation ids (households) this process creates. */
  households: string[];
  concurrency: number;
  /** Each call's deadline (ms). */
  deadlineMs: number;
  /** Start at this epoch ms, so the fleet starts together. */
  startAt: number;
}

/** One call's end, as printed. */
export interface CallResult {
  household: string;
  groupId?: string;
  created?: boolean;
  error?: { name: string; message: string };
  startedAt: number;
  settledAt: number;
}

/** What a worker prints. */
export interface WorkerReport {
  results: CallResult[];
  published: number[];
  heard: number[];
  /** Each wait the SDK asked the clock for: when (the clock's reading) and how long. */
  waits: Array<{ at: number; ms: number }>;
}

const config = JSON.parse(process.env.FLEET ?? '') as WorkerConfig;

let reading: number | undefined;
const waits: WorkerReport['waits'] = [];
const clock = {
  now(): number {
    if (reading === undefined) {
      reading = Date.now();
      queueMicrotask(() => {
        reading = undefined;
      });
    }
    return reading;
  },
  sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
    waits.push({ at: clock.now(), ms });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, Math.max(0, ms));
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
  },
};

const published: number[] = [];
const heard: number[] = [];

/** Records the pauses this process publishes and hears. */
class RecordingCoordination extends RedisCoordination {
  override publishPause(clientId: string, untilEpochMs: number): Promise<void> {
    published.push(untilEpochMs);
    return super.publishPause(clientId, untilEpochMs);
  }

  override onPause(clientId: string, listener: (untilEpochMs: number) => void): () => void {
    return super.onPause(clientId, (until) => {
      heard.push(until);
      listener(until);
    });
  }
}

const redisOptions = { commandTimeout: 2_000, maxRetriesPerRequest: 1 };
const redis = config.cluster
  ? new Cluster(
      config.redisPorts.map((port) => ({ host: '127.0.0.1', port })),
      { redisOptions },
    )
  : new Redis({ host: '127.0.0.1', port: config.redisPorts[0] ?? 0, ...redisOptions });
redis.on('error', () => {});
const clientId = process.env.VERIFICATION_CLIENT_ID ?? '';
const coordination = new RecordingCoordination(redis, { commandTimeoutMs: 1_000 });
const client = new VerificationClient({
  coordination,
  tokenStore: new RedisTokenStore(redis, { clientId, commandTimeoutMs: 1_000 }),
  clock,
  deadline: config.deadlineMs,
  logLevel: 'off',
});

try {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, config.startAt - Date.now())));
  const settled = await mapSettled(
    config.households,
    async (household) => {
      const startedAt = Date.now();
      try {
        const { group, created } = await client.applicantGroups.createOnce(
          groupCreateBody(`${household}@example.com`, household),
        );
        return { household, groupId: group.id, created, startedAt, settledAt: Date.now() };
      } catch (error) {
        const { name, message } = error instanceof Error ? error : new Error('unknown');
        return { household, error: { name, message }, startedAt, settledAt: Date.now() };
      }
    },
    { concurrency: config.concurrency },
  );
  const results = settled.map((entry) => (entry.ok ? entry.value : undefined)).filter((entry) => !!entry);
  const report: WorkerReport = { results, published, heard, waits };
  console.log(JSON.stringify(report));
} finally {
  await client.close();
  coordination.close();
  redis.disconnect();
}
