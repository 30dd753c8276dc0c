/**
 * Helpers of the command-line tests: the real bin run as a child process (`node --import tsx
 * src/cli/index.ts`) against a mock server, generated household files, and what the server holds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { correlationIdFor } from '../../src/cli/correlation.js';
import { HEADER_LINE } from '../../src/cli/household-columns.js';
import type { ApplicantGroup } from '../../src/index.js';
import type { MockServer } from '../../src/testing/index.js';
import { expose } from '../support/exposure.js';

/** The repository root: the child runs there so `--import tsx` resolves. */
export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = join(REPO, 'src/cli/index.ts');

/** How a run ended and what it printed. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A run in progress. */
export interface RunningCli {
  child: ChildProcess;
  result: Promise<CliResult>;
  /** stdout so far. */
  stdout(): string;
}

/** Options of {@link startCli}. */
export interface StartOptions {
  /** Extra or overriding environment variables. */
  env?: Record<string, string>;
  /** The run is killed after this long (a hung bin must fail the test, not stall the suite). */
  timeoutMs?: number;
}

/** Starts the bin with the mock's URL and credentials in the environment. */
export function startCli(args: readonly string[], mock: MockServer, options: StartOptions = {}): RunningCli {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
    cwd: REPO,
    env: {
      ...process.env,
      VERIFICATION_BASE_URL: mock.url,
      VERIFICATION_CLIENT_ID: mock.clientId,
      VERIFICATION_SECRET_KEY: mock.secretKey,
      VERIFICATION_LOG: '',
      ...options.env,
    },
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
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 25_000);
  const result = new Promise<CliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      // What a person sees on stderr goes to the suite's leak scan. stdout is the user's own data
      // (list output carries applicants' emails by design), so it is checked for secrets only.
      expose(stderr);
      expect(`${stdout}\n${stderr}`).not.toContain(mock.secretKey);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, result, stdout: () => stdout };
}

/** Runs the bin to completion. */
export function runCli(
  args: readonly string[],
  mock: MockServer,
  options?: StartOptions,
): Promise<CliResult> {
  return startCli(args, mock, options).result;
}

/** A fresh temporary directory. */
export function tempDir(prefix = 'av-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Options of {@link writeHouseholds}. */
export interface HouseholdsFile {
  households: number;
  /** Every n-th household gets a second applicant (row), with its household cells left blank. */
  pairEvery?: number;
  /** Lines (1-based, header is 1) to spoil: a bad email, a bad rent, a bad phone, in turn. */
  bad?: readonly number[];
}

/** Writes a households CSV into `dir` and returns its path and household keys. */
export function writeHouseholds(
  dir: string,
  name: string,
  spec: HouseholdsFile,
): { path: string; keys: string[] } {
  const lines = [HEADER_LINE];
  const keys: string[] = [];
  const tag = name.replace(/\W/g, '');
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
        ? ['Batch Towers', '1 Main Street', 'Springfield', 'Illinois', '62701', key]
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

/** The groups on the server created from `csvPath` (matched by correlation id), by household key. */
export function groupsByKey(
  mock: MockServer,
  csvPath: string,
  keys: readonly string[],
): Map<string, ApplicantGroup[]> {
  const byId = new Map(keys.map((key) => [correlationIdFor(basename(csvPath), key), key]));
  const found = new Map<string, ApplicantGroup[]>();
  for (const group of mock.groups.applicant()) {
    const key = group.correlation_id === null ? undefined : byId.get(group.correlation_id);
    if (key !== undefined) found.set(key, [...(found.get(key) ?? []), group]);
  }
  return found;
}

/** How many groups of `csvPath` the server holds: cheap enough to poll (no serialisation). */
export function countCreated(mock: MockServer, csvPath: string, keys: readonly string[]): number {
  const ids = new Set(keys.map((key) => correlationIdFor(basename(csvPath), key)));
  return mock.state.applicantGroups.filter(
    (group) => group.correlationId !== null && ids.has(group.correlationId),
  ).length;
}

/**
 * Checks that every household has exactly one group and that each group's invitations were sent
 * exactly once: one email per applicant and one text per phone number.
 */
export function expectExactlyOnce(mock: MockServer, csvPath: string, keys: readonly string[]): void {
  const found = groupsByKey(mock, csvPath, keys);
  expect(found.size).toBe(keys.length);
  let invitationSets = 0;
  for (const [key, groups] of found) {
    expect(groups, `household ${key}`).toHaveLength(1);
    const group = groups[0];
    if (!group) continue;
    const sent = mock.outbox.forGroup(group.id);
    const expected = group.applicants.length + group.applicants.filter((a) => a.phone_number).length;
    expect(sent, `invitations of household ${key}`).toHaveLength(expected);
    expect(new Set(sent.map((entry) => `${entry.channel}:${entry.applicantId}`)).size).toBe(expected);
    invitationSets++;
  }
  expect(invitationSets).toBe(keys.length);
}
