/**
 * The command line's local state as an office's operations engineer meets it (issue 50), with the
 * real bin as a child process and real files: a spreadsheet's four-digit ZIP, a damaged journal,
 * the CLI beside a script written from the docs on one machine, a results file of groups
 * written owner-only.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import {
  buildBin,
  correlationIds,
  countCreated,
  expectExactlyOnce,
  HEADER_LINE,
  readCsvRecords,
  spawnBin,
  tempDir,
  until,
  writeHouseholds,
} from '../cli/helpers.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';

const ARGS = ['--concurrency', '4', '--grace', '1', '--timeout', '5', '--max-retries', '2'];

let mock: MockServer;
let bin: string;
let script: string;
beforeAll(async () => {
  mock = await createMockServer({ seed: 5050, pageSize: 100 });
  bin = await buildBin();
  script = await bundleForNode(
    fileURLToPath(new URL('./docs-script-worker.ts', import.meta.url)),
    'docs-script',
  );
});
afterAll(async () => {
  await mock.close();
  removeBundle(bin);
  removeBundle(script);
});

/** The docs' script as a child process in `cwd`, with the mock's credentials and `env`. */
function runScript(
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [script], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      VERIFICATION_BASE_URL: mock.url,
      VERIFICATION_CLIENT_ID: mock.clientId,
      VERIFICATION_SECRET_KEY: mock.secretKey,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function run(args: readonly string[], env: Record<string, string>) {
  return spawnBin(bin, args, mock, { env, timeoutMs: 60_000 }).result;
}

describe('point 6: input the office cannot see', () => {
  it('a four-digit ZIP stops the run with its likely fix; --pad-zip-codes sends it padded', async () => {
    const dir = tempDir('av-seams-zip-');
    const env = { VERIFICATION_STATE_DIR: join(dir, 'state') };
    const path = join(dir, 'zip.csv');
    const row = (key: string, zip: string) =>
      [
        key,
        'Ann',
        'Lee',
        `${key.toLowerCase()}-zip@example.com`,
        '',
        '',
        'Court',
        '1 Charles St',
        'Boston',
        'MA',
        zip,
        key,
        '2100',
        'Acme',
      ].join(',');
    writeFileSync(path, `${[HEADER_LINE, row('Z-1', '2134'), row('Z-2', '02135')].join('\n')}\n`);
    const requests = mock.stats.count();
    const refused = await run(['groups', 'create', '--csv', path, ...ARGS], env);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('line 2, column zip_code: has 4 digits');
    expect(refused.stderr).toContain('did you mean "02134"?');
    expect(mock.stats.count()).toBe(requests);

    const padded = await run(['groups', 'create', '--csv', path, '--pad-zip-codes', ...ARGS], env);
    expect(padded.code, padded.stderr).toBe(0);
    expect(padded.stderr).toContain('"2134" read as "02134" (--pad-zip-codes)');
    const zip = mock.groups
      .applicant()
      .find((group) => group.applicants.some((applicant) => applicant.email === 'z-1-zip@example.com'))
      ?.property?.zip_code;
    expect(zip).toBe('02134');
  });
});

describe('point 2: a damaged journal', () => {
  it('a garbled line stops the rerun before any request (exit 6); intact, the same edit is a conflict (exit 3)', async () => {
    const dir = tempDir('av-seams-journal-');
    const env = { VERIFICATION_STATE_DIR: join(dir, 'state') };
    const { path } = writeHouseholds(dir, 'journal.csv', { households: 6, tag: 'seamsjournal' });
    const first = await run(['groups', 'create', '--csv', path, ...ARGS], env);
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(path, readFileSync(path, 'utf8').replace(',1203,', ',1999,'));
    const journal = join(dir, `journal.${mock.clientId}.journal.jsonl`);
    const intact = readFileSync(journal, 'utf8');

    const lines = intact.split('\n');
    const at = lines.findIndex((line) => line.includes('"settled"') && line.includes('"U-3"'));
    lines[at] = (lines[at] ?? '').replace('"outcome":"created"', '"outcome":"creatεd"');
    writeFileSync(journal, lines.join('\n'));
    const requests = mock.stats.count();
    const groups = mock.groups.applicant().length;
    const damaged = await run(['groups', 'create', '--csv', path, ...ARGS], env);
    expect(damaged.code, damaged.stderr).toBe(6);
    expect(damaged.stderr).toContain(`the journal ${journal} is damaged at line ${at + 1}`);
    expect(damaged.stderr).toContain('Repair:');
    expect(mock.stats.count()).toBe(requests);
    expect(mock.groups.applicant()).toHaveLength(groups);

    writeFileSync(journal, intact);
    const conflict = await run(['groups', 'create', '--csv', path, ...ARGS], env);
    expect(conflict.code, conflict.stderr).toBe(3);
    expect(conflict.stderr).toContain('line 4 (household U-3): conflict');
    expect(mock.groups.applicant()).toHaveLength(groups);
  });

  it('a torn last line (a kill mid-write) is tolerated and said in one line', async () => {
    const dir = tempDir('av-seams-torn-');
    const env = { VERIFICATION_STATE_DIR: join(dir, 'state') };
    const { path } = writeHouseholds(dir, 'torn.csv', { households: 3, tag: 'seamstorn' });
    expect((await run(['groups', 'create', '--csv', path, ...ARGS], env)).code).toBe(0);
    const journal = join(dir, `torn.${mock.clientId}.journal.jsonl`);
    writeFileSync(journal, `${readFileSync(journal, 'utf8')}{"type":"sending","at":"2026-`);
    const rerun = await run(['groups', 'create', '--csv', path, ...ARGS], env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr.split('\n').filter((line) => line.includes('was cut off'))).toHaveLength(1);
    expect(rerun.stderr).toContain('0 created, 3 already existed');
  });
});

describe('point 1: the CLI beside a script written from the docs', () => {
  it('with XDG_STATE_HOME set (and with no setting at all), the two share one gate: every household once', async () => {
    for (const setting of ['XDG_STATE_HOME', 'none'] as const) {
      const dir = tempDir(`av-seams-docs-${setting}-`);
      const home = join(dir, 'home');
      // What a shell on the machine has: HOME, and XDG_STATE_HOME on many desktops.
      const env: Record<string, string> = {
        HOME: home,
        ...(setting === 'XDG_STATE_HOME' ? { XDG_STATE_HOME: join(dir, 'xdg') } : {}),
      };
      const { path } = writeHouseholds(dir, 'households.csv', {
        households: 40,
        pairEvery: 5,
        tag: `docs${setting}`,
      });
      const ids = await correlationIds(path);
      // Both start at once; creates are slow enough that their lookups overlap.
      mock.faults.next(40, { latencyMs: 30 }, { method: 'POST', path: '/api/v1/applicant_groups' });
      const [cli, scripted] = await Promise.all([
        run(['groups', 'create', '--csv', path, ...ARGS], env),
        runScript(dir, env),
      ]);
      mock.faults.clear();
      expect(scripted.code, scripted.stderr).toBe(0);
      expect(cli.code, cli.stderr).toBe(0);
      expectExactlyOnce(mock, ids);
      const byScript = scripted.stdout.split('\n').filter((line) => line.endsWith(' created')).length;
      expect(cli.stderr).toContain(`${40 - byScript} created`);
      expect(cli.stderr).not.toContain('NOT on its gate');
      expect(cli.stderr).not.toContain('more than once');
      // The gate is where the command line resolves it, and where the docs' function points.
      const gate =
        setting === 'XDG_STATE_HOME'
          ? join(dir, 'xdg', 'applicant-verification', 'coordination')
          : join(home, '.local', 'state', 'applicant-verification', 'coordination');
      expect(existsSync(gate)).toBe(true);
    }
  });
});

describe('point 7: files of names and emails', () => {
  it('groups list --output writes a 0600 file from a real process; a shared state folder is reported, not tightened', async () => {
    const dir = tempDir('av-seams-private-');
    const shared = join(dir, 'shared-state');
    mkdirSync(shared, { mode: 0o770 });
    chmodSync(shared, 0o770);
    const env = { VERIFICATION_STATE_DIR: shared };
    const { path } = writeHouseholds(dir, 'private.csv', { households: 3, tag: 'seamsprivate' });
    const created = await run(['groups', 'create', '--csv', path, ...ARGS], env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(
      `the state directory ${shared} can be reached by other users (mode 770)`,
    );
    expect(statSync(shared).mode & 0o777).toBe(0o770);

    const output = join(dir, 'groups.csv');
    const listed = await run(
      ['groups', 'list', '--format', 'csv', '--search', 'seamsprivate', '--output', output],
      env,
    );
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe('');
    expect(statSync(output).mode & 0o777).toBe(0o600);
    expect(readFileSync(output, 'utf8')).toContain('seamsprivate-1-0@example.com');
  });
});

describe('point 4: a killed run beside a slow server', () => {
  it('the rerun says what it waits for and until when; a household left held says when it can go', async () => {
    const dir = tempDir('av-seams-slow-');
    const env = { VERIFICATION_STATE_DIR: join(dir, 'state') };
    const { path } = writeHouseholds(dir, 'slow.csv', { households: 4, tag: 'seamsslow' });
    const ids = await correlationIds(path);
    // Every create is committed 4 s after it arrives: the killed run's are still in the server.
    mock.faults.clear();
    mock.faults.next(8, { commitDelayMs: 4_000 }, { method: 'POST', path: '/api/v1/applicant_groups' });
    const creates = () =>
      mock.stats.log().filter((entry) => entry.method === 'POST' && entry.url.endsWith('/applicant_groups'))
        .length;
    const before = creates();
    const first = spawnBin(
      bin,
      ['groups', 'create', '--csv', path, '--concurrency', '4', '--timeout', '30', '-q'],
      mock,
      { env },
    );
    await until(() => creates() - before >= 4, 'four creates on their way');
    first.child.kill('SIGKILL');
    await first.result;
    const rerun = await run(
      ['groups', 'create', '--csv', path, '--grace', '1', '--timeout', '2', '--max-retries', '1'],
      env,
    );
    mock.faults.clear();
    const waits = rerun.stderr.split('\n').filter((line) => line.includes(': waiting until '));
    expect(waits.length, rerun.stderr).toBeGreaterThan(0);
    for (const line of waits)
      expect(line).toMatch(
        /household U-\d: waiting until \d{4}-\d\d-\d\dT[\d:.]+Z for the create an earlier run sent at /,
      );
    const results = readCsvRecords(
      join(
        dir,
        readdirSync(dir)
          .filter((name) => name.startsWith('slow.results.'))
          .sort()
          .at(-1) ?? '',
      ),
    );
    for (const entry of results) {
      if (entry.status === 'unresolved')
        expect(Date.parse(entry.retry_after ?? '')).toBeGreaterThan(Date.now());
      else expect(entry.retry_after).toBe('');
    }
    if (results.some((entry) => entry.status === 'unresolved'))
      expect(rerun.stderr).toContain('are held by the gate until');
    // Whatever the timing, nobody twice once the server has committed.
    await until(() => countCreated(mock, ids) >= 4, 'the slow creates to commit', 20_000);
    expect(countCreated(mock, ids)).toBe(4);
  });
});
