/**
 * One process of the chaos suite's file scenarios (test/chaos/file-*.test.ts): a client on the
 * command line's create gate, a `FileCoordination` in `<state dir>/coordination` (the folder
 * `groups create --state-dir` uses), runs `createOnce` for each of its households, in one or more
 * waves, and prints one JSON line shaped as the Redis worker's (chaos-worker.ts), so the harness
 * sums both up alike. It can stop itself (SIGSTOP) at a named point of one household's create, the
 * first process to claim it (a file made exclusively) doing so; the test resumes it (SIGCONT). Its
 * wall clock may run ahead or behind (skew-clock.ts).
 */
import { openSync } from 'node:fs';
import { join } from 'node:path';
import type { CreateLease, CreateOutcome } from '../../src/core/coordination/coordination.js';
import { FileCoordination, VerificationClient } from '../../src/index.js';
import type { ChaosWorkerReport } from './chaos-worker.js';
import { skewClock } from './skew-clock.js';
import { recordingClock, runWaves } from './worker-waves.js';

/** Where a holder stops: after its lookup (before its first write), or after recording `unresolved` (before its request leaves). */
export type FilePausePoint = 'after-lookup' | 'after-unresolved';

/** What the test hands a file worker (CHAOS, JSON). */
export interface FileChaosConfig {
  /** The state directory; the gate is its `coordination` folder, as the command line's. */
  stateDir: string;
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
  /** Stop at `point` of `household`'s create, once across the processes (whoever makes the file `claim` first). */
  pause?: { household: string; point: FilePausePoint; claim: string } | undefined;
}

const config = JSON.parse(process.env.CHAOS ?? '') as FileChaosConfig;
const skew = skewClock();

const waits: ChaosWorkerReport['waits'] = [];
const clock = recordingClock(waits);

let paused = false;

/** Stops this process (SIGSTOP) if it is the first to reach the pause point. */
function maybePause(correlationId: string, point: FilePausePoint): void {
  const pause = config.pause;
  if (paused || !pause || pause.household !== correlationId || pause.point !== point) return;
  paused = true;
  try {
    openSync(pause.claim, 'wx');
  } catch {
    return; // another process claimed it first
  }
  process.kill(process.pid, 'SIGSTOP');
}

/** The command line's file gate, stopping this process at the configured point. */
class PausingCoordination extends FileCoordination {
  override async renewCreateLease(lease: CreateLease, ttlMs: number): Promise<CreateLease | undefined> {
    // The first write after the lookup: each attempt renews its lease before recording `unresolved`.
    maybePause(lease.correlationId, 'after-lookup');
    return super.renewCreateLease(lease, ttlMs);
  }

  override async recordCreateOutcome(lease: CreateLease, outcome: CreateOutcome): Promise<boolean> {
    const recorded = await super.recordCreateOutcome(lease, outcome);
    if (outcome.state === 'unresolved' && recorded) maybePause(lease.correlationId, 'after-unresolved');
    return recorded;
  }
}

const warnings: ChaosWorkerReport['warnings'] = [];
const record = (message: string) => {
  if (process.env.CHAOS_DEBUG) process.stderr.write(`${process.pid} ${Date.now()} ${message}\n`);
  warnings.push({ at: Date.now(), message });
};
const logger = {
  debug: (message: string) => {
    if (process.env.CHAOS_DEBUG) process.stderr.write(`${process.pid} ${Date.now()} ${message}\n`);
  },
  info: () => {},
  warn: record,
  error: record,
};
// The logger the command line gives its gate: a wait on the folder is said there.
const coordination = new PausingCoordination(join(config.stateDir, 'coordination'), { logger });
const client = new VerificationClient({
  coordination,
  clock,
  timeout: config.timeoutMs,
  deadline: config.deadlineMs,
  createGraceWindow: config.graceMs,
  logLevel: process.env.CHAOS_DEBUG ? 'debug' : 'warn',
  logger,
});

try {
  await runWaves(client, config, skew, { warnings, waits });
} finally {
  await client.close();
}
