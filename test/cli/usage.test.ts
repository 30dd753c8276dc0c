/**
 * Help, usage errors and exit codes, run in-process through `runCli` (no child process needed:
 * nothing here reaches the network).
 */
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/cli/errors.js';
import { runCli } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/shared/io.js';
import { VERSION } from '../../src/version.js';
import { backoffBefore, recordingClock } from '../support/clock.js';
import { expose } from '../support/exposure.js';
import { REPO, tempDir } from './helpers.js';

function collect() {
  const stream = new PassThrough();
  let text = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  return { stream, text: () => text };
}

async function run(
  argv: string[],
  env: Record<string, string> = {},
  { signal = new AbortController().signal, clock }: { signal?: AbortSignal; clock?: CliIO['clock'] } = {},
) {
  const stdout = collect();
  const stderr = collect();
  const io: CliIO = { stdout: stdout.stream, stderr: stderr.stream, env, cwd: REPO, signal, clock };
  const code = await runCli(argv, io);
  expose(stderr.text());
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const COMMANDS = [
  ['groups', 'list'],
  ['groups', 'create'],
  ['groups', 'watch'],
  ['reports', 'export'],
];

describe('help and usage', () => {
  it.each(COMMANDS)('%s %s --help prints usage to stdout and exits 0', async (family, name) => {
    const result = await run([family ?? '', name ?? '', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: applicant-verification ${family} ${name}`));
    expect(result.stdout).toContain('--base-url');
    expect(result.stderr).toBe('');
  });

  it('top-level help, version, and command families', async () => {
    expect((await run(['--help'])).stdout).toContain('groups create');
    expect((await run(['--version'])).stdout).toBe(`${VERSION}\n`);
    const bare = await run([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage:');
    const family = await run(['groups']);
    expect(family.code).toBe(2);
    expect(family.stderr).toContain('applicant-verification groups watch');
    expect((await run(['groups', '--help'])).code).toBe(0);
  });

  it('the create help documents every column of the CSV header', async () => {
    const { stdout } = await run(['groups', 'create', '--help']);
    for (const column of [
      'household_key',
      'first_name',
      'email',
      'phone',
      'monthly_rent',
      'verification_types',
    ]) {
      expect(stdout).toContain(column);
    }
  });

  it.each([
    [['nope'], 'unknown command'],
    [['groups', 'list', '--format', 'xml'], '--format must be one of table, json, csv'],
    [['groups', 'list', '--nope'], 'unknown option --nope'],
    [['groups', 'create', '--cvs', 'a.csv'], 'unknown option --cvs; did you mean --csv?'],
    [['groups', 'list', '--formt', 'csv'], 'did you mean --format?'],
    [['groups', 'create', '--csv', 'a.csv', '--skip-invalids'], 'did you mean --skip-invalid?'],
    [['groups', 'create', '--csv', 'a.csv', '--grace', 'soon'], '--grace must be a number'],
    [['groups', 'list', 'extra'], 'unexpected "extra"'],
    [['groups', 'create'], '--csv FILE is required'],
    [['groups', 'create', '--csv', 'examples/households.csv', '--concurrency', '0'], '--concurrency must be'],
    [['groups', 'create', '--csv', 'no/such/file.csv'], 'no such file'],
    [
      ['groups', 'create', '--csv', 'examples/households.csv', '--dry-run', '--default-country', 'XX'],
      '--default-country must be a two-letter country code (ISO 3166-1, e.g. US or GB), got "XX"',
    ],
    [['groups', 'watch'], 'expected <group id>'],
    [['groups', 'watch', 'id', '--interval', 'soon'], '--interval must be a number'],
    [['reports', 'export', '--status', 'completed', '--concurrency', '99'], '--concurrency must be between'],
    [['reports', 'export'], 'give one of --group ID'],
    [['reports', 'export', '--group', 'a', '--status', 'completed'], 'not several'],
    [['reports', 'export', '--group', '../etc'], 'is not a group id'],
    [['reports', 'export', '--group', 'a', '--created-after', '2026-01-01'], 'go with --status'],
    [
      ['groups', 'list', '--created-after', '01/02/2026'],
      '--created-after must be Unix seconds or an ISO date',
    ],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('missing connection settings are a usage error naming the flags and variables, never a secret', async () => {
    const result = await run(['groups', 'list']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--base-url (or VERIFICATION_BASE_URL)');
    expect(result.stderr).toContain('VERIFICATION_SECRET_KEY');
    const partial = await run(['groups', 'list'], {
      VERIFICATION_BASE_URL: 'http://127.0.0.1:9',
      VERIFICATION_SECRET_KEY: 'sk_test_super_secret_value',
    });
    expect(partial.code).toBe(2);
    expect(partial.stderr).toContain('--client-id');
    expect(partial.stderr).not.toContain('sk_test_super_secret_value');
    const insecure = await run(['groups', 'list', '--base-url', 'http://api.example.com'], {
      VERIFICATION_CLIENT_ID: 'id',
      VERIFICATION_SECRET_KEY: 'sk_test_super_secret_value',
    });
    expect(insecure.code).toBe(2);
    expect(insecure.stderr).toContain('plain http');
    // The hint names the flag that exists, and the flag lets the run proceed to the network.
    expect(insecure.stderr).toContain('pass --allow-insecure-http');
    expect(insecure.stderr).not.toContain('allowInsecureHttp');
    const allowed = await run(
      [
        'groups',
        'list',
        '--base-url',
        'http://api.example.invalid',
        '--allow-insecure-http',
        '--max-retries',
        '0',
      ],
      { VERIFICATION_CLIENT_ID: 'id', VERIFICATION_SECRET_KEY: 'sk_test_super_secret_value' },
    );
    expect(allowed.code).toBe(1);
    expect(allowed.stderr).not.toContain('plain http');
    expect(allowed.stderr).toContain('APIConnectionError');
  });

  it('prints one line per retry at the default level, so an unreachable host is not silence', async () => {
    const clock = recordingClock();
    const result = await run(
      ['groups', 'list', '--max-retries', '1'],
      {
        VERIFICATION_BASE_URL: 'http://127.0.0.1:9',
        VERIFICATION_CLIENT_ID: 'id',
        VERIFICATION_SECRET_KEY: 'sk_test_super_secret_value',
      },
      { clock },
    );
    expect(result.code).toBe(1);
    const retries = result.stderr.split('\n').filter((line) => line.startsWith('retrying in '));
    // One line for the one retry the call's budget allows: the wait, the attempt, the call and the cause.
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatch(
      /^retrying in \d+ ms \(attempt 2 of 2\): GET \/api\/v1\/applicant_groups\?page=1 on 127\.0\.0\.1:9: .*nothing was sent.*ECONNREFUSED/,
    );
    // The wait it names is the one taken.
    expect(clock.waits).toEqual([backoffBefore(0)]);
    expect(retries[0]).toContain(`retrying in ${Math.round(clock.waits[0] ?? -1)} ms `);
  });

  it('the example CSV is valid: a dry run plans its households without credentials', async () => {
    const result = await run(['groups', 'create', '--csv', 'examples/households.csv', '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('5 household(s), 7 applicant(s)');
    expect(result.stdout.split('\n').filter((line) => /^\d/.test(line))).toHaveLength(5);
  });

  it('a run stopped by a signal exits 128 + the signal number; nothing started is logged as not attempted', async () => {
    const stop = new AbortController();
    stop.abort(new InterruptedError('SIGTERM'));
    const dir = tempDir();
    const csv = join(tempDir(), 'households.csv');
    copyFileSync(join(REPO, 'examples/households.csv'), csv);
    const log = join(dir, 'stopped.csv');
    const env = {
      VERIFICATION_BASE_URL: 'http://127.0.0.1:9',
      VERIFICATION_CLIENT_ID: 'id',
      VERIFICATION_SECRET_KEY: 'k',
    };
    const result = await run(['groups', 'create', '--csv', csv, '--log', log], env, { signal: stop.signal });
    expect(result.code).toBe(143);
    const [written] = readdirSync(dir);
    expect(readFileSync(join(dir, written ?? ''), 'utf8').match(/not_attempted/g)).toHaveLength(5);
  });
});
