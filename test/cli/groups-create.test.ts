/**
 * `groups create` end to end: the real bin as a child process against the mock server. A
 * 300-household file under injected faults, a run killed halfway (SIGTERM and SIGKILL) and
 * rerun, and a file with bad rows that must send nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { correlationIdFor } from '../../src/cli/correlation.js';
import { createMockServer, type Fault, type MockServer } from '../../src/testing/index.js';
import {
  countCreated,
  expectExactlyOnce,
  groupsByKey,
  runCli,
  startCli,
  tempDir,
  writeHouseholds,
} from './helpers.js';

const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' } as const;
// Quick retries: the faults carry Retry-After 0 where the server can say it, and every other
// backoff is at most a second or two.
const FAST = ['--concurrency', '16', '--max-retries', '6', '--timeout', '5'];

let mock: MockServer;
let dir: string;
beforeAll(async () => {
  mock = await createMockServer({ seed: 7, pageSize: 50 });
  dir = tempDir();
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.faults.clear();
});

/** Adds one fault for every `every` requests the mock receives, rotating through `kinds`. */
function feedFaults(kinds: readonly Fault[], every: number): () => number {
  let next = mock.stats.count() + every;
  let added = 0;
  const timer = setInterval(() => {
    while (mock.stats.count() >= next) {
      mock.faults.next(1, kinds[added % kinds.length] ?? { status: 500 });
      added++;
      next += every;
    }
  }, 2);
  return () => {
    clearInterval(timer);
    mock.faults.clear();
    return added;
  };
}

function readLog(path: string): Record<string, string>[] {
  return parse(readFileSync(path, 'utf8'), { columns: true });
}

describe('groups create', () => {
  it('creates 300 groups exactly once under 5% injected faults; reruns until done create nothing twice', async () => {
    const { path, keys } = writeHouseholds(dir, 'faulty-300.csv', { households: 300 });
    const stop = feedFaults(
      [
        { status: 500 },
        { reset: 'after' },
        { status: 503, retryAfter: 0 },
        { malformedJson: true },
        { status: 429, retryAfter: 0 },
        { reset: 'before' },
        { status: 502 },
        { truncated: true },
      ],
      20,
    );
    const codes: (number | null)[] = [];
    try {
      for (let run = 0; run < 4; run++) {
        const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
        codes.push(result.code);
        if (result.code === 0) break;
        // A failed row is reported with its line, and the rerun is suggested.
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/line \d+ \(household U-\d+\)/);
      }
    } finally {
      expect(stop()).toBeGreaterThan(0);
    }
    expect(codes.at(-1)).toBe(0);
    expectExactlyOnce(mock, path, keys);
    const log = readLog(join(dir, 'faulty-300.results.csv'));
    expect(log).toHaveLength(300);
    const serverIds = groupsByKey(mock, path, keys);
    for (const entry of log) {
      expect(['created', 'skipped_existing']).toContain(entry.status);
      expect(entry.group_id).toBe(serverIds.get(entry.household_key ?? '')?.[0]?.id);
    }
  });

  it.each(['SIGTERM', 'SIGKILL'] as const)(
    'killed halfway with %s, then rerun: exactly 300 groups and 300 invitation sets',
    async (signal) => {
      const name = `killed-${signal}.csv`;
      const { path, keys } = writeHouseholds(dir, name, { households: 300, pairEvery: 10 });
      // Slow creates down so the kill lands mid-run.
      mock.faults.next(300, { latencyMs: 25 }, CREATE);
      const first = startCli(['groups', 'create', '--csv', path, ...FAST], mock);
      const deadline = Date.now() + 20_000;
      while (countCreated(mock, path, keys) < 150 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      first.child.kill(signal);
      const killed = await first.result;
      // Requests cut by a hard kill may still be processed by the server (here after their
      // 25 ms of latency): those groups exist, and the rerun must find them, not duplicate them.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const createdBeforeKill = groupsByKey(mock, path, keys).size;
      expect(createdBeforeKill).toBeGreaterThanOrEqual(150);
      expect(createdBeforeKill).toBeLessThan(300);
      if (signal === 'SIGTERM') {
        // Graceful: in-flight rows settled, the log was written, exit 128 + 15.
        expect(killed.code).toBe(143);
        const log = readLog(join(dir, `killed-${signal}.results.csv`));
        const created = log.filter((entry) => entry.status === 'created').length;
        expect(created).toBe(createdBeforeKill);
        expect(log.filter((entry) => entry.status === 'not_attempted').length).toBe(300 - created);
        expect(killed.stderr).toContain('Stopping');
      } else {
        expect(killed.signal).toBe('SIGKILL');
      }
      mock.faults.clear();

      const rerun = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(rerun.stderr).not.toContain('Warning');
      expectExactlyOnce(mock, path, keys);
      const log = readLog(join(dir, `killed-${signal}.results.csv`));
      expect(log.filter((entry) => entry.status === 'skipped_existing').length).toBe(createdBeforeKill);
      expect(log.filter((entry) => entry.status === 'created').length).toBe(300 - createdBeforeKill);
    },
  );

  it('reports all three bad rows with their line numbers and sends nothing', async () => {
    const { path } = writeHouseholds(dir, 'three-bad.csv', {
      households: 40,
      pairEvery: 9,
      bad: [5, 17, 38],
    });
    const before = mock.stats.count();
    const groupsBefore = mock.groups.applicant().length;
    const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('three-bad.csv: line 5, column email: is not a valid email address');
    expect(result.stderr).toContain('three-bad.csv: line 17, column monthly_rent:');
    expect(result.stderr).toContain('three-bad.csv: line 38, column phone:');
    expect(result.stderr).toContain('3 row(s) with errors');
    expect(result.stderr).toContain('nothing was sent');
    expect(result.stdout).toBe('');
    // Not even a token request.
    expect(mock.stats.count()).toBe(before);
    expect(mock.groups.applicant()).toHaveLength(groupsBefore);
  });

  it('--dry-run prints the plan and sends nothing; --no-invitations creates groups without inviting', async () => {
    const { path, keys } = writeHouseholds(dir, 'quiet-building.csv', { households: 6, pairEvery: 3 });
    const before = mock.stats.count();
    const dry = await runCli(['groups', 'create', '--csv', path, '--dry-run'], mock);
    expect(dry.code).toBe(0);
    expect(mock.stats.count()).toBe(before);
    for (const key of keys) expect(dry.stdout).toContain(correlationIdFor(basename(path), key));
    expect(dry.stderr).toContain('6 household(s), 8 applicant(s)');

    const logPath = join(dir, 'quiet.json');
    const run = await runCli(
      ['groups', 'create', '--csv', path, '--no-invitations', '--log', logPath, '-q'],
      mock,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const found = groupsByKey(mock, path, keys);
    expect(found.size).toBe(6);
    for (const [, groups] of found) expect(mock.outbox.forGroup(groups[0]?.id ?? '')).toEqual([]);
    const log = JSON.parse(readFileSync(logPath, 'utf8')) as { summary: Record<string, number> };
    expect(log.summary).toMatchObject({ created: 6, skipped_existing: 0, failed: 0 });
  });

  it('a row the server refuses is logged with its line, the others are created; exit 1', async () => {
    const { path, keys } = writeHouseholds(dir, 'refused.csv', { households: 5 });
    // The mock treats the reserved .invalid domain as a mailbox that does not exist (400).
    const text = readFileSync(path, 'utf8').replace('refusedcsv-3-0@example.com', 'someone@nowhere.invalid');
    writeFileSync(path, text);
    const result = await runCli(['groups', 'create', '--csv', path], mock);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refused\.csv: line 4 \(household U-3\): BadRequestError: 400/);
    expect(result.stderr).not.toContain('someone@nowhere.invalid');
    const log = readLog(join(dir, 'refused.results.csv'));
    expect(log.map((entry) => entry.status)).toEqual(['created', 'created', 'failed', 'created', 'created']);
    expect(groupsByKey(mock, path, keys).size).toBe(4);
  });

  it('wrong credentials stop the batch at once: one clear error, a handful of token requests, nothing created', async () => {
    const { path, keys } = writeHouseholds(dir, 'wrong-key.csv', { households: 120 });
    const auth = () => mock.stats.count('POST /api/v1/tenants/auth');
    const before = auth();
    const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock, {
      env: { VERIFICATION_SECRET_KEY: 'sk_test_super_secret_value' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Stopped: AuthenticationError: 401');
    expect(result.stderr).not.toContain('sk_test_super_secret_value');
    expect(result.stderr.match(/AuthenticationError/g)).toHaveLength(1);
    expect(auth() - before).toBeLessThanOrEqual(16);
    expect(countCreated(mock, path, keys)).toBe(0);
    const log = readLog(join(dir, 'wrong-key.results.csv'));
    expect(log.every((entry) => entry.status === 'failed')).toBe(true);
  });
});
