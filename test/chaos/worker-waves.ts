/**
 * What every chaos worker (chaos-worker.ts on Redis, file-chaos-worker.ts on a state folder) does
 * once its client is built: waits for the common start, runs `createOnce` for each household in
 * waves, and prints one JSON line saying how each call settled.
 */
import { mapSettled } from '../../src/core/results/batch.js';
import type { VerificationClient } from '../../src/index.js';
import { groupCreateBody } from '../support/bodies.js';
import type { ChaosCallResult, ChaosWorkerReport } from './chaos-worker.js';

/** The wall clock the workers give their client, noting each wait the SDK asks it for in `waits`. */
export function recordingClock(waits: ChaosWorkerReport['waits']) {
  return {
    now: (): number => Date.now(),
    sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
      waits.push({ at: Date.now(), ms });
      return new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, Math.max(0, ms));
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      });
    },
  };
}

/** What the waves need from a worker's configuration. */
export interface WavesConfig {
  households: string[];
  waves: number;
  concurrency: number;
  /** Start at this epoch ms (the test's real clock). */
  startAt: number;
}

/** The reports of possible duplicates a result (or an error) carries. */
function reportsOf(value: unknown): unknown[] {
  if (value === null || typeof value !== 'object') return [];
  const reports = (value as { duplicates?: unknown }).duplicates;
  return Array.isArray(reports) ? reports : [];
}

/** The chain of an error's causes, `name: message` each, the error itself left out. */
function causesOf(error: unknown): string[] {
  const causes: string[] = [];
  let cause = error instanceof Error ? error.cause : undefined;
  while (cause instanceof Error && causes.length < 5) {
    causes.push(`${cause.name}: ${cause.message}`);
    cause = cause.cause;
  }
  return causes;
}

/** One household's `createOnce`, as it settled. */
async function createOnce(
  client: VerificationClient,
  household: string,
  wave: number,
): Promise<ChaosCallResult> {
  const startedAt = Date.now();
  try {
    const result = await client.applicantGroups.createOnce(
      groupCreateBody(`${household}@example.com`, household),
    );
    return {
      household,
      wave,
      groupId: result.group.id,
      created: result.created,
      reports: reportsOf(result),
      startedAt,
      settledAt: Date.now(),
    };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error('unknown');
    return {
      household,
      wave,
      reports: reportsOf(error),
      error: { name, message, causes: causesOf(error) },
      startedAt,
      settledAt: Date.now(),
    };
  }
}

/**
 * Runs the waves and prints the report line. `skewMs`: how far this process's wall clock was moved
 * (skew-clock.ts); the start is on the test's real clock.
 */
export async function runWaves(
  client: VerificationClient,
  config: WavesConfig,
  skewMs: number,
  extra: Pick<ChaosWorkerReport, 'warnings' | 'waits'>,
): Promise<void> {
  const results: ChaosCallResult[] = [];
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, config.startAt + skewMs - Date.now())));
  for (let wave = 0; wave < config.waves; wave++) {
    const settled = await mapSettled(config.households, (household) => createOnce(client, household, wave), {
      concurrency: config.concurrency,
    });
    for (const entry of settled) if (entry.ok) results.push(entry.value);
  }
  const report: ChaosWorkerReport = { pid: process.pid, results, ...extra };
  console.log(JSON.stringify(report));
}
