/**
 * The chaos suite's side of its processes: starts chaos workers (bundled once, test/support/bundle.ts)
 * against one mock and one real redis-server, stops and resumes them (SIGSTOP/SIGCONT), and sums up
 * a run the way an operator would read it: households, groups, duplicates, duplicates reported,
 * the longest call, and every call longer than a lease without a line saying what it waited for.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { MockServer } from '../../src/testing/index.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { expose } from '../support/exposure.js';
import type { ChaosCallResult, ChaosWorkerConfig, ChaosWorkerReport } from './chaos-worker.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The chaos worker bundled once for the calling file's tests (its `beforeAll`) and removed after
 * them (its `afterAll`): call it at the top of a file, read `path` inside a test.
 */
export function chaosWorkerBundle(): { readonly path: string } {
  const bundle = { path: '' };
  beforeAll(async () => {
    bundle.path = await bundleForNode(
      fileURLToPath(new URL('./chaos-worker.ts', import.meta.url)),
      'chaos-worker',
    );
  });
  afterAll(() => {
    if (bundle.path) removeBundle(bundle.path);
  });
  return bundle;
}

/** A worker started by {@link startWorker}: its process and the report it prints at the end. */
export interface RunningWorker {
  readonly child: ChildProcess;
  readonly report: Promise<ChaosWorkerReport>;
}

/**
 * Starts one chaos worker (a bundle of chaos-worker.ts, or of file-chaos-worker.ts with its own
 * config); `clockOffsetMs` moves its wall clock (skew-clock.ts).
 */
export function startWorker(
  bundle: string,
  mock: MockServer,
  config: ChaosWorkerConfig | object,
  clockOffsetMs = 0,
  { name = 'chaos worker', timeoutMs = 180_000 }: { name?: string; timeoutMs?: number } = {},
): RunningWorker {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VERIFICATION_BASE_URL: mock.url,
    VERIFICATION_CLIENT_ID: mock.clientId,
    VERIFICATION_SECRET_KEY: mock.secretKey,
    CHAOS: JSON.stringify(config),
    CHAOS_CLOCK_OFFSET_MS: String(clockOffsetMs),
  };
  let child: ChildProcess | undefined;
  const report = new Promise<ChaosWorkerReport>((resolve, reject) => {
    child = execFile(
      process.execPath,
      [bundle],
      { cwd: root, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        expose(stderr);
        if (process.env.CHAOS_DEBUG) process.stderr.write(stderr);
        if (error) reject(new Error(`${name} failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim()) as ChaosWorkerReport);
      },
    );
  });
  if (!child) throw new Error(`${name}: no child process`);
  return { child, report };
}

/** Whether the process `pid` is stopped (Linux: state `T` in /proc/<pid>/stat). */
function isStopped(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
  } catch {
    return false;
  }
}

/**
 * Waits until one of `workers` has stopped itself (its pause point), up to `limitMs`; resolves
 * that worker, or `undefined` when none stopped.
 */
export async function stoppedWorker(
  workers: readonly RunningWorker[],
  limitMs: number,
): Promise<RunningWorker | undefined> {
  const giveUpAt = Date.now() + limitMs;
  while (Date.now() < giveUpAt) {
    const stopped = workers.find((worker) => worker.child.pid !== undefined && isStopped(worker.child.pid));
    if (stopped) return stopped;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

/** Resolves after `ms` of real time (the suite injects real pauses; no assertion reads this). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** When the test kept a worker stopped (SIGSTOP to SIGCONT), epoch ms. */
export interface StoppedWindow {
  pid: number | undefined;
  from: number;
  until: number;
}

/** How a scenario went, as it prints it. */
export interface ChaosSummary {
  scenario: string;
  seed: number;
  households: number;
  groups: number;
  /** Households with more than one group. */
  duplicates: string[];
  /** Of those, the households some call reported as a possible duplicate. */
  reported: string[];
  /** The longest call (ms, the worker's clock). */
  longestCallMs: number;
  /** Calls that took longer than a lease with no warning naming their household. */
  silentLongCalls: string[];
  /** Households with no group at the end. */
  missing: string[];
  errors: Record<string, number>;
}

/** The groups the mock holds per correlation id starting with `prefix`. */
export function groupsPerHousehold(mock: MockServer, prefix: string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const group of mock.groups.applicant()) {
    const id = group.correlation_id;
    if (typeof id !== 'string' || !id.startsWith(`${prefix}-`)) continue;
    groups.set(id, [...(groups.get(id) ?? []), group.id]);
  }
  return groups;
}

/** Sums up a scenario, prints it (one JSON line) and returns it. */
export function summarize(
  scenario: string,
  seed: number,
  mock: MockServer,
  prefix: string,
  households: readonly string[],
  reports: readonly ChaosWorkerReport[],
  leaseMs: number,
  stopped?: StoppedWindow,
): ChaosSummary {
  const groups = groupsPerHousehold(mock, prefix);
  const results: ChaosCallResult[] = reports.flatMap((report) => report.results);
  const duplicates = [...groups].filter(([, ids]) => ids.length > 1).map(([household]) => household);
  const reportedHouseholds = new Set(
    results.filter((result) => result.reports.length > 0).map((result) => result.household),
  );
  const warnings = reports.flatMap((report) => report.warnings);
  // A call of the stopped process that spans its stop is long because the test stopped it, not
  // because the SDK chose to wait.
  const frozen = new Set(
    reports
      .filter((report) => report.pid === stopped?.pid)
      .flatMap((report) => report.results)
      .filter((result) => stopped && result.startedAt <= stopped.until && result.settledAt >= stopped.from),
  );
  const silentLongCalls = results
    .filter((result) => result.settledAt - result.startedAt > leaseMs && !frozen.has(result))
    .filter((result) => !warnings.some((warning) => warning.message.includes(`"${result.household}"`)))
    .map((result) => result.household);
  const errors: Record<string, number> = {};
  for (const result of results)
    if (result.error) errors[result.error.name] = (errors[result.error.name] ?? 0) + 1;
  const summary: ChaosSummary = {
    scenario,
    seed,
    households: households.length,
    groups: [...groups.values()].reduce((sum, ids) => sum + ids.length, 0),
    duplicates,
    reported: duplicates.filter((household) => reportedHouseholds.has(household)),
    longestCallMs: Math.max(0, ...results.map((result) => result.settledAt - result.startedAt)),
    silentLongCalls,
    missing: households.filter((household) => !groups.has(household)),
    errors,
  };
  console.log(`chaos ${JSON.stringify(summary)}`);
  // A missing household's calls, as each ended: what an operator reads to see why (the first
  // five: a scenario that fails safe on purpose leaves many, all alike).
  for (const household of summary.missing.slice(0, 5)) {
    const calls = results
      .filter((result) => result.household === household)
      .map((result) => ({
        wave: result.wave,
        pid: reports.find((report) => report.results.includes(result))?.pid,
        ms: result.settledAt - result.startedAt,
        ...(result.error
          ? { error: result.error.name, causes: result.error.causes }
          : { groupId: result.groupId }),
      }));
    console.log(`chaos missing ${household} ${JSON.stringify(calls)}`);
  }
  return summary;
}

/** The lease a create of a worker with these options takes (ms): twice its budget (create-gate.ts). */
export function leaseMsOf(config: Pick<ChaosWorkerConfig, 'timeoutMs' | 'deadlineMs' | 'graceMs'>): number {
  return 2 * (config.deadlineMs + config.graceMs + config.timeoutMs);
}

/** A small seeded generator (mulberry32): the suite's random choices, repeatable from the printed seed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed a scenario runs with: CHAOS_SEED when set, else one drawn now (printed by the summary). */
export function seedOf(): number {
  const given = Number(process.env.CHAOS_SEED);
  return Number.isSafeInteger(given) && given > 0 ? given : Math.floor(Math.random() * 2 ** 31) + 1;
}
