/**
 * Helpers of the command-line tests. Commands run in-process through `runCli` with collected
 * streams, an injected environment and stop signal; only signal tests and one smoke test start
 * the bin as a child process, bundled once by tsup as `npm run build` bundles it (a plain `node`
 * start takes a fraction of `node --import tsx`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parse as csvParse } from 'csv-parse/sync';
import { expect } from 'vitest';
import { InterruptedError } from '../../src/cli/errors.js';
import { runCli as runCliInProcess } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/shared/io.js';
import { HOUSEHOLD_COLUMNS, parseHouseholds } from '../../src/households/index.js';
import type { ApplicantGroup, ApplicantGroupCreateParams } from '../../src/index.js';
import type { MockServer } from '../../src/testing/index.js';
import { bundleForNode } from '../support/bundle.js';
import { expose } from '../support/exposure.js';

/** The repository root. */
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Bundles `src/cli/index.ts` like the package build and returns the bundle's path (remove it with `removeBundle`). */
export function buildBin(): Promise<string> {
  return bundleForNode('src/cli/index.ts', 'cli');
}

/** How a run ended and what it printed. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of a run. */
export interface RunOptions {
  /** Extra or overriding environment variables. */
  env?: Record<string, string>;
  /** Working directory (default: the repository). */
  cwd?: string;
  /** Makes stdout and stderr claim to be terminals. */
  tty?: boolean;
  /** The clock the command's client waits with (default: the real one). */
  clock?: CliIO['clock'];
  /** How `--coordination redis://...` loads ioredis (default: the real import). */
  loadRedis?: CliIO['loadRedis'];
}

function collector(tty: boolean) {
  const stream = Object.assign(new PassThrough(), tty ? { isTTY: true, columns: 100 } : {});
  let text = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  return { stream, text: () => text };
}

// The state directory (the create gate) of each test, shared by the test's runs as a person's
// runs share theirs, and by no other test: tests of other files reuse households (and their
// correlation ids) on other mock servers under the same client id.
const stateDirs = new Map<string, string>();

/**
 * The state directory the current test's runs get when it sets none (`VERIFICATION_STATE_DIR`,
 * `XDG_STATE_HOME` or `HOME`): a temporary one per test, never the user's own.
 */
export function testStateDir(): string {
  const { testPath, currentTestName } = expect.getState();
  const key = `${testPath ?? ''}\0${currentTestName ?? ''}`;
  let dir = stateDirs.get(key);
  if (dir === undefined || currentTestName === undefined) {
    dir = tempDir('av-state-');
    stateDirs.set(key, dir);
  }
  return dir;
}

function environment(mock: MockServer | undefined, env: Record<string, string> | undefined) {
  const chosen = env && ['VERIFICATION_STATE_DIR', 'XDG_STATE_HOME', 'HOME'].some((name) => name in env);
  return {
    ...(chosen ? {} : { VERIFICATION_STATE_DIR: testStateDir() }),
    ...(mock
      ? {
          VERIFICATION_BASE_URL: mock.url,
          VERIFICATION_CLIENT_ID: mock.clientId,
          VERIFICATION_SECRET_KEY: mock.secretKey,
        }
      : {}),
    ...env,
  };
}

// What a person sees on stderr goes to the suite's leak scan. stdout is the user's own data (list
// output carries applicants' emails by design), so it is checked for secrets only.
function checked(result: CliResult, mock: MockServer | undefined): CliResult {
  expose(result.stderr);
  if (mock) expect(`${result.stdout}\n${result.stderr}`).not.toContain(mock.secretKey);
  return result;
}

/** A command running in-process. */
export interface InProcessRun {
  result: Promise<CliResult>;
  /** stdout so far. */
  stdout(): string;
  /** stderr so far. */
  stderr(): string;
  /** What SIGINT/SIGTERM does to the bin: asks the command to stop. */
  stop(signal: NodeJS.Signals): void;
}

/** Starts a command in-process with the mock's URL and credentials in its environment. */
export function startCli(
  args: readonly string[],
  mock: MockServer | undefined,
  options: RunOptions = {},
): InProcessRun {
  const stdout = collector(options.tty ?? false);
  const stderr = collector(options.tty ?? false);
  const controller = new AbortController();
  const io: CliIO = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: environment(mock, options.env),
    cwd: options.cwd ?? REPO,
    signal: controller.signal,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.loadRedis ? { loadRedis: options.loadRedis } : {}),
  };
  const result = runCliInProcess(args, io).then((code) =>
    checked({ code, signal: null, stdout: stdout.text(), stderr: stderr.text() }, mock),
  );
  return {
    result,
    stdout: stdout.text,
    stderr: stderr.text,
    stop: (signal) => controller.abort(new InterruptedError(signal)),
  };
}

/** Runs a command in-process to completion. */
export function runCli(
  args: readonly string[],
  mock: MockServer | undefined,
  options?: RunOptions,
): Promise<CliResult> {
  return startCli(args, mock, options).result;
}

/** The real bin as a child process: for signals (SIGKILL, SIGTERM) and the smoke test only. */
export interface RunningBin {
  child: ChildProcess;
  result: Promise<CliResult>;
  stderr(): string;
}

/** Starts the bin (from {@link buildBin}) as a child process. */
export function spawnBin(
  bin: string,
  args: readonly string[],
  mock: MockServer,
  options: RunOptions & { timeoutMs?: number } = {},
): RunningBin {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '', ...environment(mock, options.env) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
  const result = new Promise<CliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve(checked({ code, signal, stdout, stderr }, mock));
    });
  });
  return { child, result, stderr: () => stderr };
}

/** A fresh temporary directory. */
export function tempDir(prefix = 'av-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The documented header line of the households CSV. */
export const HEADER_LINE = HOUSEHOLD_COLUMNS.map((column) => column.name).join(',');

/** Options of {@link writeHouseholds}. */
export interface HouseholdsFile {
  households: number;
  /** Every n-th household gets a second applicant (row), with its household cells left blank. */
  pairEvery?: number;
  /** Lines (1-based, header is 1) to spoil: a bad email, a bad rent, a bad phone, in turn. */
  bad?: readonly number[];
  /** Part of every email (default: the file name), so files can share or not share applicants. */
  tag?: string;
  /** Two-letter states instead of "Illinois". */
  stateCode?: boolean;
}

/** Writes a households CSV into `dir` and returns its path and household keys. */
export function writeHouseholds(
  dir: string,
  name: string,
  spec: HouseholdsFile,
): { path: string; keys: string[] } {
  const lines = [HEADER_LINE];
  const keys: string[] = [];
  const tag = spec.tag ?? name.replace(/\W/g, '');
  for (let household = 1; household <= spec.households; household++) {
    const key = `U-${household}`;
    keys.push(key);
    const members = spec.pairEvery && household % spec.pairEvery === 0 ? 2 : 1;
    for (let member = 0; member < members; member++) {
      const line = lines.length + 1;
      const first = member === 0;
      const badIndex = spec.bad?.indexOf(line) ?? -1;
      const email =
        badIndex >= 0 && badIndex % 3 === 0 ? 'not-an-email' : `${tag}-${household}-${member}@example.com`;
      const rent = badIndex % 3 === 1 ? 'twelve hundred' : first ? String(1200 + household) : '';
      const phone =
        badIndex % 3 === 2
          ? '555-0100'
          : household % 3 === 0
            ? `+1415555${String(household % 10_000).padStart(4, '0')}`
            : '';
      const householdCells = first
        ? ['Batch Towers', '1 Main Street', 'Springfield', spec.stateCode ? 'IL' : 'Illinois', '62701', key]
        : ['', '', '', '', '', ''];
      lines.push(
        [
          key,
          'Test',
          `Applicant ${household}-${member}`,
          email,
          phone,
          household % 2 === 0 ? 'payroll_income_verification' : '',
          ...householdCells,
          rent,
          first ? 'Batch Towers LLC' : '',
        ].join(','),
      );
    }
  }
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return { path, keys };
}

/** The correlation id of each household of a (valid) CSV, by household key, as the command derives it. */
export async function correlationIds(csvPath: string, batchId = ''): Promise<Map<string, string>> {
  const plan = parseHouseholds(readFileSync(csvPath, 'utf8'), { batchId, decisionMaker: 'x' });
  return new Map(plan.households.map((household) => [household.key, household.correlationId]));
}

/** The create body of each household of a (valid) CSV, by household key, as the command builds it. */
export async function householdBodies(csvPath: string): Promise<Map<string, ApplicantGroupCreateParams>> {
  const plan = parseHouseholds(readFileSync(csvPath, 'utf8'));
  return new Map(plan.households.map((household) => [household.key, household.body]));
}

/** The groups on the server under the households' correlation ids, by household key. */
export function groupsByKey(
  mock: MockServer,
  ids: ReadonlyMap<string, string>,
): Map<string, ApplicantGroup[]> {
  const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
  const found = new Map<string, ApplicantGroup[]>();
  for (const group of mock.groups.applicant()) {
    const key = group.correlation_id === null ? undefined : keyOf.get(group.correlation_id);
    if (key !== undefined) found.set(key, [...(found.get(key) ?? []), group]);
  }
  return found;
}

/** How many groups under these correlation ids the server holds: cheap enough to poll. */
export function countCreated(mock: MockServer, ids: ReadonlyMap<string, string>): number {
  const wanted = new Set(ids.values());
  return mock.state.applicantGroups.filter(
    (group) => group.correlationId !== null && wanted.has(group.correlationId),
  ).length;
}

/**
 * Checks that every household has exactly one group and that each group's invitations were sent
 * exactly once: one email per applicant and one text per phone number.
 */
export function expectExactlyOnce(mock: MockServer, ids: ReadonlyMap<string, string>): void {
  const found = groupsByKey(mock, ids);
  expect(found.size).toBe(ids.size);
  for (const [key, groups] of found) {
    expect(groups, `household ${key}`).toHaveLength(1);
    const group = groups[0];
    if (group) expectInvitedOnce(mock, group, key);
  }
}

/** Checks that a group's invitations were sent exactly once: one email per applicant, one text per phone. */
export function expectInvitedOnce(mock: MockServer, group: ApplicantGroup, key: string): void {
  const sent = mock.outbox.forGroup(group.id);
  const expected = group.applicants.length + group.applicants.filter((a) => a.phone_number).length;
  expect(sent, `invitations of household ${key}`).toHaveLength(expected);
  expect(new Set(sent.map((entry) => `${entry.channel}:${entry.applicantId}`)).size).toBe(expected);
}

/** The records of the newest results log of `<name>.csv` in `dir`. */
export function latestResults(dir: string, name: string): Record<string, string>[] {
  const file = readdirSync(dir)
    .filter((entry) => entry.startsWith(`${name}.results.`))
    .sort()
    .at(-1);
  return parseCsv(readFileSync(join(dir, file ?? ''), 'utf8'));
}

/** Waits until `check()` holds (polling every 10 ms), failing after `ms`. */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The records of a CSV file. */
export function readCsvRecords(path: string): Record<string, string>[] {
  const text = readFileSync(path, 'utf8');
  return parseCsv(text);
}

/** The records of CSV text. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: unknown = csvParse(text, { columns: true });
  if (!Array.isArray(rows)) throw new Error('not CSV');
  return rows.filter((row): row is Record<string, string> => typeof row === 'object' && row !== null);
}
