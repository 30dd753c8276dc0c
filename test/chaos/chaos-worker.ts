/**
 * One process of the chaos suite (`npm run test:chaos`): a client on `RedisCoordination` (the
 * Redis named in CHAOS, JSON: {@link ChaosWorkerConfig}) runs `createOnce` for each of its
 * households, in one or more waves (a job run again), and prints one JSON line: how each call
 * settled, the reports of possible duplicates it made, its warnings, and the waits its clock was
 * asked for. It can stop itself (SIGSTOP) at a named point of one household's create; the test
 * resumes it (SIGCONT). Its wall clock may run ahead or behind (skew-clock.ts).
 */
import { Redis } from 'ioredis';
import type { CreateLease, CreateOutcome } from '../../src/core/coordination/coordination.js';
import { VerificationClient } from '../../src/index.js';
import { RedisCoordination } from '../../src/redis/index.js';
import { skewClock } from './skew-clock.js';
import { recordingClock, runWaves } from './worker-waves.js';

/** Where a worker stops itself: after the lookup (before any write that precedes the POST), or after `unresolved` was recorded. */
/**
 * Where a holder stops: after its lookup (before its first write), after recording `unresolved`
 * (before its request leaves), or with its request in flight (stopped a moment after recording
 * `unresolved`, while the mock holds the create: the test gives creates a commit delay).
 */
export type PausePoint = 'after-lookup' | 'after-unresolved' | 'in-flight';

/** How long after recording `unresolved` an `in-flight` holder stops: its request has left by then. */
const IN_FLIGHT_STOP_MS = 150;

/** What the test hands a worker. */
export interface ChaosWorkerConfig {
  redisPort: number;
  /** Connect through Sentinel instead of `redisPort`: the sentinels' loopback ports and the primary's name. */
  sentinel?: { ports: number[]; name: string } | undefined;
  /** `RedisCoordination`'s `minReplicas` (with a 300 ms `replicaAckTimeoutMs`); none when absent. */
  minReplicas?: number | undefined;
  /** The correlation ids (households) this process creates. */
  households: string[];
  /** How many times the whole list is run (a job run again). */
  waves: number;
  concurrency: number;
  /** Start at this epoch ms (real clock), so the processes start together. */
  startAt: number;
  /** Client options: per-attempt timeout, deadline, grace window (ms). */
  timeoutMs: number;
  deadlineMs: number;
  graceMs: number;
  /** Stop at `point` of `household`'s create, once across the fleet (a Redis key `claim` decides who). */
  pause?: { household: string; point: PausePoint; claim: string } | undefined;
}

/** One call's end, as printed. */
export interface ChaosCallResult {
  household: string;
  wave: number;
  groupId?: string | undefined;
  created?: boolean | undefined;
  /** The possible duplicates the call reported (see docs/fault-model.md). */
  reports: unknown[];
  /** How the call failed, with its causes (`name: message`, outermost first). */
  error?: { name: string; message: string; causes: string[] } | undefined;
  startedAt: number;
  settledAt: number;
}

/** What a worker prints. */
export interface ChaosWorkerReport {
  pid: number;
  results: ChaosCallResult[];
  /** Warnings the SDK logged, with when (this process's clock). */
  warnings: Array<{ at: number; message: string }>;
  /** Each wait the SDK asked the clock for. */
  waits: Array<{ at: number; ms: number }>;
}

const config = JSON.parse(process.env.CHAOS ?? '') as ChaosWorkerConfig;
const skew = skewClock();

const waits: ChaosWorkerReport['waits'] = [];
const clock = recordingClock(waits);

const redis = new Redis({
  ...(config.sentinel
    ? {
        sentinels: config.sentinel.ports.map((port) => ({ host: '127.0.0.1', port })),
        name: config.sentinel.name,
      }
    : { host: '127.0.0.1', port: config.redisPort }),
  commandTimeout: 2_000,
  maxRetriesPerRequest: 1,
});
redis.on('error', () => {});

let paused = false;

/** Stops this process (SIGSTOP) if it is the first in the fleet to reach the pause point. */
async function maybePause(correlationId: string, point: PausePoint): Promise<void> {
  const pause = config.pause;
  if (paused || !pause || pause.household !== correlationId || pause.point !== point) return;
  paused = true;
  const first = await redis.set(pause.claim, String(process.pid), 'NX');
  if (first === 'OK') process.kill(process.pid, 'SIGSTOP');
}

/** The Redis coordination, stopping this process at the configured point. */
class PausingCoordination extends RedisCoordination {
  override async recordCreateOutcome(lease: CreateLease, outcome: CreateOutcome): Promise<boolean> {
    if (outcome.state === 'unresolved') await maybePause(lease.correlationId, 'after-lookup');
    const recorded = await super.recordCreateOutcome(lease, outcome);
    if (outcome.state === 'unresolved' && recorded) {
      await maybePause(lease.correlationId, 'after-unresolved');
      // Not awaited: the create goes on and sends, and the process stops while it is on the wire.
      setTimeout(() => void maybePause(lease.correlationId, 'in-flight'), IN_FLIGHT_STOP_MS);
    }
    return recorded;
  }
}

/** Pauses at 'after-lookup' on the first write after the lookup, whichever method makes it. */
const proto = RedisCoordination.prototype as unknown as Record<string, unknown>;
const renew = proto.renewCreateLease;
if (typeof renew === 'function') {
  Object.defineProperty(PausingCoordination.prototype, 'renewCreateLease', {
    value: async function (this: RedisCoordination, lease: CreateLease, ...rest: unknown[]) {
      await maybePause(lease.correlationId, 'after-lookup');
      return renew.call(this, lease, ...rest);
    },
  });
}

const warnings: ChaosWorkerReport['warnings'] = [];
const record = (message: string) => {
  if (process.env.CHAOS_DEBUG) process.stderr.write(`${process.pid} ${Date.now()} ${message}\n`);
  warnings.push({ at: Date.now(), message });
};
const coordination = new PausingCoordination(redis, {
  commandTimeoutMs: 1_000,
  minReplicas: config.minReplicas,
  replicaAckTimeoutMs: 300,
});
const client = new VerificationClient({
  coordination,
  clock,
  timeout: config.timeoutMs,
  deadline: config.deadlineMs,
  createGraceWindow: config.graceMs,
  logLevel: process.env.CHAOS_DEBUG ? 'debug' : 'warn',
  logger: {
    debug: (message: string) => {
      if (process.env.CHAOS_DEBUG) process.stderr.write(`${process.pid} ${Date.now()} ${message}\n`);
    },
    info: () => {},
    warn: record,
    error: record,
  },
});

try {
  await runWaves(client, config, skew, { warnings, waits });
} finally {
  await client.close();
  coordination.close();
  redis.disconnect();
}
