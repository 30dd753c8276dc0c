/**
 * `groups create` in-process against the mock server: faults and reruns, bad rows and
 * --skip-invalid, the lock, conflicts, correlation ids across folders, the journal's resolution
 * of unsettled creates, results logs kept, wrong credentials. Signals are in `signals.test.ts`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exponentialBackoffMs } from '../../src/core/call/retry.js';
import { VerificationClient } from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { backoffBefore, CLOCK_RESOLUTION_SLACK_MS, recordingClock } from '../support/clock.js';
import {
  correlationIds,
  countCreated,
  expectExactlyOnce,
  groupsByKey,
  readCsvRecords,
  runCli,
  startCli,
  tempDir,
  until,
  writeHouseholds,
} from './helpers.js';

const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' } as const;
const LOOKUP = { method: 'GET', path: '/api/v1/applicant_groups' } as const;
const FAST = ['--concurrency', '8', '--max-retries', '6', '--timeout', '5', '--grace', '1'];

let mock: MockServer;
let sdk: VerificationClient;
beforeAll(async () => {
  mock = await createMockServer({ seed: 7, pageSize: 50 });
  sdk = new VerificationClient({ baseURL: mock.url, clientId: mock.clientId, secretKey: mock.secretKey });
});
afterAll(async () => {
  await sdk.close();
  await mock.close();
});
beforeEach(() => {
  mock.faults.clear();
});

function resultFiles(dir: string, name: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.startsWith(`${name}.results.`))
    .map((file) => join(dir, file))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

function latestLog(dir: string, name: string): Record<string, string>[] {
  const path = resultFiles(dir, name).at(-1);
  if (!path) throw new Error(`no results log of ${name}`);
  return readCsvRecords(path);
}

function rows(path: string, edit: (text: string) => string): void {
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
}

describe('groups create: faults, reruns, logs', () => {
  it('creates every group exactly once under injected faults; each run keeps its own results log', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'faulty.csv', { households: 24, pairEvery: 5 });
    const ids = await correlationIds(path);
    // Faults the SDK recovers from without a grace-window wait: refused (429), reset after the
    // server created the group (found by lookup), and failing lookups.
    mock.faults.next(2, { status: 429, retryAfter: 0 }, CREATE);
    mock.faults.next(2, { reset: 'after' }, CREATE);
    mock.faults.next(3, { status: 503, retryAfter: 0 }, LOOKUP);
    // Every wait goes through the clock: recorded, not waited out.
    const clock = recordingClock();
    const codes: number[] = [];
    const retryLines: string[] = [];
    for (let run = 0; run < 3; run++) {
      const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock, { clock });
      codes.push(result.code ?? -1);
      retryLines.push(...result.stderr.split('\n').filter((line) => line.startsWith('retrying in ')));
      if (result.code === 0) break;
      expect(result.code, result.stderr).toBe(1);
    }
    expect(codes.at(-1)).toBe(0);
    // One retry per refused request (2 creates, 3 lookups), each after the 250 ms floor the
    // server's `Retry-After: 0` is raised to, and each of those waits taken on the clock. The
    // client-wide pause a 429 starts may add waits: one floor, plus the real millisecond or two
    // between the two 429s when the second extends a pause a call is already waiting out.
    expect(retryLines).toHaveLength(5);
    for (const line of retryLines)
      expect(line).toMatch(/^retrying in 250 ms \(attempt \d of 7\): (429|503) /);
    expect(clock.waits.filter((ms) => ms === 250).length).toBeGreaterThanOrEqual(retryLines.length);
    expect(Math.max(...clock.waits)).toBeLessThan(2 * 250);
    expectExactlyOnce(mock, ids);
    const log = latestLog(dir, 'faulty');
    expect(log).toHaveLength(24);
    const server = groupsByKey(mock, ids);
    for (const entry of log) {
      expect(['created', 'skipped_existing']).toContain(entry.status);
      expect(entry.group_id).toBe(server.get(entry.household_key ?? '')?.[0]?.id);
    }

    // A rerun creates nothing, writes a new log beside the old ones and appends to the journal.
    const logsBefore = resultFiles(dir, 'faulty');
    const firstLog = readFileSync(logsBefore[0] ?? '', 'utf8');
    const again = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('0 created, 24 already existed');
    const logsAfter = resultFiles(dir, 'faulty');
    expect(logsAfter).toHaveLength(logsBefore.length + 1);
    expect(readFileSync(logsBefore[0] ?? '', 'utf8')).toBe(firstLog);
    expect(statSync(logsAfter.at(-1) ?? '').mode & 0o777).toBe(0o600);
    // One `sending` line per household (written before its create) and one `created` after it.
    const journal = readFileSync(join(dir, 'faulty.mock-client-id.journal.jsonl'), 'utf8').trim().split('\n');
    expect(journal.filter((line) => line.includes('"type":"sending"'))).toHaveLength(24);
    expect(journal.filter((line) => line.includes('"outcome":"created"'))).toHaveLength(24);
    expect(statSync(join(dir, 'faulty.mock-client-id.journal.jsonl')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dir, 'faulty.mock-client-id.lock'))).toBe(false);
    expectExactlyOnce(mock, ids);
  });

  it('a create whose group does not appear within --grace is logged unresolved and not resent; a rerun finds it', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'slow.csv', { households: 3 });
    const ids = await correlationIds(path);
    // The server commits one create 2 s (real time) after receiving it: the CLI's 200 ms timeout
    // fires first. Its 5 s grace window runs on the recording clock, whose waits cost a
    // millisecond each, so the window's few lookups are over long before the group exists, even
    // on a loaded machine (at 500 ms they were not always).
    mock.faults.next(1, { commitDelayMs: 2_000 }, CREATE);
    const clock = recordingClock();
    const result = await runCli(
      ['groups', 'create', '--csv', path, '--timeout', '0.2', '--grace', '5', '--max-retries', '2'],
      mock,
      { clock },
    );
    expect(result.code, result.stderr).toBe(1);
    const log = latestLog(dir, 'slow');
    expect(log.map((entry) => entry.status).sort()).toEqual(['created', 'created', 'unresolved']);
    expect(result.stderr).toContain('it was not resent');
    const unresolved = log.find((entry) => entry.status === 'unresolved');
    const key = unresolved?.household_key ?? '';
    // The window was polled to its end: a lookup at once, then one after each backoff, the last
    // wait cut to what was left of the 5 s (less the real time the lookups took).
    const lookups = mock.stats
      .log()
      .filter((entry) => entry.method === 'GET' && entry.url.includes(ids.get(key) ?? '-'));
    const polls = clock.waits.length;
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(clock.waits.slice(0, -1)).toEqual(clock.waits.slice(0, -1).map((_, poll) => backoffBefore(poll)));
    expect(clock.waits.at(-1)).toBeLessThanOrEqual(exponentialBackoffMs(polls - 1, () => 1));
    const waited = clock.waits.reduce((sum, ms) => sum + ms, 0);
    expect(waited).toBeLessThanOrEqual(5_000 + CLOCK_RESOLUTION_SLACK_MS);
    expect(waited).toBeGreaterThan(4_500);
    expect(result.stderr).toContain(`grace window (${polls + 1} lookups)`);
    // One lookup before anything was created, one under the gate's lease, then the window's.
    expect(lookups).toHaveLength(1 + 1 + polls + 1);
    // The server is still working; once it commits, exactly one group exists for that household.
    await until(() => countCreated(mock, ids) === 3, 'the held create to commit');
    const again = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('0 created, 3 already existed');
    expect(groupsByKey(mock, ids).get(key)).toHaveLength(1);
    expectExactlyOnce(mock, ids);
  });

  it('--log FILE that exists is kept: the run writes a timestamped sibling', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'named-log.csv', { households: 2 });
    const logPath = join(dir, 'run.json');
    writeFileSync(logPath, '{"earlier":true}\n');
    const result = await runCli(['groups', 'create', '--csv', path, '--log', logPath, '-q'], mock);
    expect(result.code).toBe(0);
    expect(readFileSync(logPath, 'utf8')).toBe('{"earlier":true}\n');
    const sibling = readdirSync(dir).find((file) => /^run\.\d{8}T\d{6}\.\d{3}Z\.json$/.test(file));
    expect(sibling).toBeDefined();
    const log = JSON.parse(readFileSync(join(dir, sibling ?? ''), 'utf8')) as {
      summary: Record<string, number>;
    };
    expect(log.summary).toMatchObject({ created: 2, failed: 0 });
  });
});

describe('groups create: the results log as rows settle', () => {
  it('--log FILE.jsonl gets each household as it settles, before the run ends', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'streamed.csv', { households: 6 });
    const ids = await correlationIds(path);
    const logPath = join(dir, 'streamed.jsonl');
    // One create at a time, each held: the run is still going when the first rows are on disk.
    mock.faults.next(6, { latencyMs: 150 }, CREATE);
    const run = startCli(
      ['groups', 'create', '--csv', path, '--log', logPath, '--concurrency', '1', '-q'],
      mock,
    );
    let finished = false;
    void run.result.then(() => {
      finished = true;
    });
    const lines = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8').trim().split('\n') : []);
    await until(() => lines().length >= 2, 'two rows in the log', 10_000);
    expect(finished).toBe(false);
    expect((await run.result).code).toBe(0);
    const entries = lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toHaveLength(6);
    const groups = new Map(mock.groups.applicant().map((group) => [group.id, group.correlation_id]));
    for (const entry of entries) {
      expect(entry.status).toBe('created');
      expect(groups.get(String(entry.group_id))).toBe(entry.correlation_id);
    }
    expectExactlyOnce(mock, ids);
    expect(statSync(logPath).mode & 0o777).toBe(0o600);
  });
});

describe('groups create: checking rows', () => {
  it('reports all three bad rows with their line numbers and sends nothing', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'three-bad.csv', {
      households: 40,
      pairEvery: 9,
      bad: [5, 17, 38],
    });
    const before = mock.stats.count();
    const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('three-bad.csv: line 5, column email: is not a valid email address');
    expect(result.stderr).toContain('three-bad.csv: line 17, column monthly_rent:');
    expect(result.stderr).toContain('three-bad.csv: line 38, column phone:');
    expect(result.stderr).toContain(
      `3 problem(s) on 3 line(s) of ${path}: 3 invalid value(s) (email 1, monthly_rent 1, phone 1); nothing was sent`,
    );
    expect(result.stderr).toContain('nothing was sent');
    expect(result.stderr).toContain('--skip-invalid');
    expect(mock.stats.count()).toBe(before);
    expect(existsSync(join(dir, 'three-bad.mock-client-id.journal.jsonl'))).toBe(false);
  });

  it('--skip-invalid creates the valid households, logs the invalid ones, exits 1', async () => {
    const dir = tempDir();
    // Line 4 is household U-3's only row; line 7 the second row of U-5 (pairs every 5th).
    const { path } = writeHouseholds(dir, 'skip.csv', { households: 6, pairEvery: 5, bad: [4, 7] });
    const result = await runCli(['groups', 'create', '--csv', path, '--skip-invalid', ...FAST], mock);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('skip.csv: line 4, column email');
    expect(result.stderr).toMatch(/leaves out 2 household\(s\) \(U-3, U-5\) and creates the other 4/);
    const log = latestLog(dir, 'skip');
    const byKey = new Map(log.map((entry) => [entry.household_key, entry]));
    expect(byKey.get('U-3')).toMatchObject({ status: 'invalid', line: '4' });
    expect(byKey.get('U-3')?.error).toContain('column email');
    expect(byKey.get('U-5')).toMatchObject({ status: 'invalid' });
    expect(byKey.get('U-1')).toMatchObject({ status: 'created' });
    const server = [...mock.groups.applicant()].filter((group) =>
      group.applicants.some((applicant) => applicant.email.startsWith('skipcsv-')),
    );
    // U-5 is never created with half its applicants.
    expect(server.map((group) => group.unit_number).sort()).toEqual(['U-1', 'U-2', 'U-4', 'U-6']);
  });

  it('--dry-run prints the plan and sends nothing; --no-invitations creates groups without inviting', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'quiet-building.csv', { households: 6, pairEvery: 3 });
    const ids = await correlationIds(path);
    const before = mock.stats.count();
    const dry = await runCli(['groups', 'create', '--csv', path, '--dry-run'], mock);
    expect(dry.code).toBe(0);
    expect(mock.stats.count()).toBe(before);
    for (const id of ids.values()) expect(dry.stdout).toContain(id);
    expect(dry.stderr).toContain('6 household(s), 8 applicant(s)');

    const run = await runCli(['groups', 'create', '--csv', path, '--no-invitations', '-q'], mock);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const found = groupsByKey(mock, ids);
    expect(found.size).toBe(6);
    for (const [, groups] of found) expect(mock.outbox.forGroup(groups[0]?.id ?? '')).toEqual([]);
  });

  it("a row the server refuses is logged with its line and the server's fields; the others are created", async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'refused.csv', { households: 5 });
    // The mock treats the reserved .invalid domain as a mailbox that does not exist (400 + fields).
    rows(path, (text) => text.replace('refusedcsv-3-0@example.com', 'someone@nowhere.invalid'));
    const result = await runCli(['groups', 'create', '--csv', path], mock);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refused\.csv: line 4 \(household U-3\): BadRequestError: 400/);
    expect(result.stderr).toMatch(/fields: applicants\[0\]\.email/);
    expect(result.stderr).not.toContain('someone@nowhere.invalid');
    const log = latestLog(dir, 'refused');
    expect(log.map((entry) => entry.status)).toEqual(['created', 'created', 'failed', 'created', 'created']);
  });

  it('a two-letter state is accepted, with a hint that screening groups need the full name', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'codes.csv', { households: 1, stateCode: true });
    const result = await runCli(['groups', 'create', '--csv', path, '--dry-run'], mock);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('state "IL" is fine for applicant groups; screening groups need');
    expect(result.stderr).toContain('"Illinois"');
  });
});

describe('groups create: credentials', () => {
  it('wrong credentials say exactly that, exit 5, and write no results, journal or lock', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'wrong-key.csv', { households: 30 });
    const auth = () => mock.stats.count('POST /api/v1/tenants/auth');
    const before = auth();
    const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock, {
      env: { VERIFICATION_SECRET_KEY: 'sk_test_super_secret_value' },
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('authentication failed: check VERIFICATION_CLIENT_ID / secret');
    expect(result.stderr).not.toContain('run the same command again');
    expect(result.stderr).not.toContain('sk_test_super_secret_value');
    expect(auth() - before).toBe(1);
    expect(readdirSync(dir)).toEqual(['wrong-key.csv']);
  });
});

describe('groups create: one run at a time', () => {
  it('a second concurrent run on the same file exits 4 and creates nothing; nobody is invited twice', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'twice.csv', { households: 12 });
    const ids = await correlationIds(path);
    mock.faults.next(12, { latencyMs: 20 }, CREATE);
    const first = startCli(['groups', 'create', '--csv', path, ...FAST], mock);
    await until(() => existsSync(join(dir, 'twice.mock-client-id.lock')), 'the first run to take the lock');
    const second = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(second.code).toBe(4);
    expect(second.stderr).toContain('another run is working on this batch');
    expect(second.stderr).toContain(`process ${process.pid}`);
    expect((await first.result).code).toBe(0);
    expectExactlyOnce(mock, ids);
    // Only the first run's log.
    expect(resultFiles(dir, 'twice')).toHaveLength(1);
  });

  it('a stale lock of a process that no longer runs is taken over with a warning', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'stale.csv', { households: 2 });
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const { hostname } = await import('node:os');
    writeFileSync(
      join(dir, 'stale.mock-client-id.lock'),
      JSON.stringify({ pid: gone, host: hostname(), started_at: '2026-01-01T00:00:00Z', token: 'x' }),
    );
    const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`taking over the lock`);
    expect(result.stderr).toContain(`process ${gone}`);
    expect(existsSync(join(dir, 'stale.mock-client-id.lock'))).toBe(false);
  });
});

describe('groups create: correlation ids and conflicts', () => {
  it('the same file name in another folder with a new applicant creates the new household, never "already existed"', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'jan'));
    mkdirSync(join(root, 'feb'));
    const jan = writeHouseholds(join(root, 'jan'), 'building7.csv', { households: 3, tag: 'b7' });
    const feb = writeHouseholds(join(root, 'feb'), 'building7.csv', { households: 3, tag: 'b7' });
    // February: household U-1 is a new applicant under last month's key.
    rows(feb.path, (text) => text.replace('b7-1-0@example.com', 'new-tenant@example.com'));
    const janIds = await correlationIds(jan.path);
    const febIds = await correlationIds(feb.path);
    expect(febIds.get('U-1')).not.toBe(janIds.get('U-1'));
    expect(febIds.get('U-2')).toBe(janIds.get('U-2'));

    expect((await runCli(['groups', 'create', '--csv', jan.path, ...FAST], mock)).code).toBe(0);
    const result = await runCli(['groups', 'create', '--csv', feb.path, ...FAST], mock);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('1 created, 2 already existed');
    const log = latestLog(join(root, 'feb'), 'building7');
    expect(log.find((entry) => entry.household_key === 'U-1')?.status).toBe('created');
    // The new applicant was invited; January's households have exactly one group each.
    const newGroup = groupsByKey(mock, febIds).get('U-1')?.[0];
    expect(newGroup?.applicants.map((applicant) => applicant.email)).toEqual(['new-tenant@example.com']);
    expect(mock.outbox.forGroup(newGroup?.id ?? '')).toHaveLength(1);
    expectExactlyOnce(mock, janIds);
  });

  it('a household edited after its group was created is a conflict: both values reported, exit 3, nothing created', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'edited.csv', { households: 3, tag: 'ed' });
    expect((await runCli(['groups', 'create', '--csv', path, ...FAST], mock)).code).toBe(0);
    const groupsBefore = mock.groups.applicant().length;
    // Rent of U-2 changed (1202 → 1999) and its applicant replaced.
    rows(path, (text) => text.replace(',1202,', ',1999,').replace('ed-2-0@example.com', 'other@example.com'));
    const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('line 3 (household U-2): conflict: group');
    expect(result.stderr).toContain(
      'rent $1,202.00; the row has applicants o***@example.com and rent $1,999.00',
    );
    expect(result.stderr).toContain('0 created, 2 already existed, 1 conflict(s)');
    expect(mock.groups.applicant()).toHaveLength(groupsBefore);
    const entry = latestLog(dir, 'edited').find((row) => row.household_key === 'U-2');
    expect(entry?.status).toBe('conflict');
    expect(entry?.error).toContain('ed-2-0@example.com');
    expect(entry?.error).toContain('other@example.com');

    // A new --batch-id is a new round: the edited household is created under a new id.
    const round = await runCli(['groups', 'create', '--csv', path, '--batch-id', 'round-2', ...FAST], mock);
    expect(round.code, round.stderr).toBe(0);
    expect(round.stderr).toContain('3 created');
  });

  it("a group found under the row's own correlation id with other applicants is a conflict too", async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'taken.csv', { households: 1, tag: 'tk' });
    const ids = await correlationIds(path);
    await sdk.applicantGroups.create({
      applicants: [{ first_name: 'Someone', last_name: 'Else', email: 'else@example.com' }],
      property: { name: 'P', street_address: '1 A St', city: 'C', state: 'Illinois', zip_code: '62701' },
      decision_maker_display_name: 'D',
      monthly_rent: 1201,
      correlation_id: ids.get('U-1') ?? '',
      is_invitation_disabled: true,
    });
    const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('e***@example.com');
    expect(result.stderr).not.toContain('already existed, 0 conflict');
    expect(groupsByKey(mock, ids).get('U-1')).toHaveLength(1);
  });
});

describe('groups create: the journal', () => {
  // The account's own journal, or (`shared`) the one journal per file that earlier versions kept,
  // which runs still read.
  function journalOf(dir: string, name: string, entries: (object | string)[], shared = false): void {
    const lines = entries.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry)));
    const file = shared ? `${name}.journal.jsonl` : `${name}.${mock.clientId}.journal.jsonl`;
    writeFileSync(join(dir, file), `${lines.join('\n')}\n`);
  }

  it('a create an earlier run sent and never settled is polled for within --grace before anything is created', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'late.csv', { households: 3, tag: 'late' });
    const ids = await correlationIds(path);
    const id = ids.get('U-2') ?? '';
    // The killed run journaled U-2 as sending just now; the server is still working on it.
    journalOf(dir, 'late', [
      {
        type: 'sending',
        at: new Date().toISOString(),
        household_key: 'U-2',
        correlation_id: id,
        batch_id: '',
        line: 3,
      },
    ]);
    const lookupsOfU2 = () =>
      mock.stats.log().filter((entry) => entry.method === 'GET' && entry.url.includes(id)).length;
    // The command's polls wait on this clock; the first is held until the group exists, so the
    // group appears only after the run looked for it and did not find it: it is found by polling.
    const recording = recordingClock();
    let groupCreated!: () => void;
    const created = new Promise<void>((resolve) => {
      groupCreated = resolve;
    });
    const clock = {
      now: recording.now,
      sleep: async (ms: number, signal?: AbortSignal | null) => {
        await created;
        return recording.sleep(ms, signal);
      },
    };
    const run = startCli(['groups', 'create', '--csv', path, '--grace', '5'], mock, { clock });
    await until(() => lookupsOfU2() >= 1, 'the first lookup of U-2');
    // Nothing was created while U-2 is unresolved.
    expect(countCreated(mock, ids)).toBe(0);
    await sdk.applicantGroups.create({
      applicants: [{ first_name: 'Test', last_name: 'Applicant 2-0', email: 'late-2-0@example.com' }],
      property: {
        name: 'Batch Towers',
        street_address: '1 Main Street',
        city: 'Springfield',
        state: 'Illinois',
        zip_code: '62701',
        unit: 'U-2',
      },
      decision_maker_display_name: 'Batch Towers LLC',
      monthly_rent: 1202,
      correlation_id: id,
    });
    const afterServerCreate = mock.stats.log().length;
    groupCreated();
    const result = await run.result;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('2 created, 1 already existed');
    expectExactlyOnce(mock, ids);
    // The run created U-1 and U-3 only after U-2's group appeared: U-2's lookups came first (the
    // gate then looks each household up again, under its lease, just before creating it).
    const requests = mock.stats.log().slice(afterServerCreate);
    const firstCreate = requests.findIndex(
      (entry) => entry.method === 'POST' && entry.url.endsWith('/applicant_groups'),
    );
    const lastLookupOfU2 = requests.findLastIndex(
      (entry) => entry.method === 'GET' && entry.url.includes(id),
    );
    expect(lastLookupOfU2).toBeGreaterThanOrEqual(0);
    expect(firstCreate).toBeGreaterThan(lastLookupOfU2);
    // One poll, at the command's interval, found it on the second lookup.
    expect(lookupsOfU2()).toBe(2);
    expect(recording.waits).toEqual([500]);
  });

  it('an unsettled create whose grace window has passed without a group is sent again, and said so', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'lost.csv', { households: 2, tag: 'lost' });
    const ids = await correlationIds(path);
    journalOf(
      dir,
      'lost',
      [
        {
          type: 'sending',
          at: new Date(Date.now() - 60_000).toISOString(),
          household_key: 'U-1',
          correlation_id: ids.get('U-1'),
          batch_id: '',
          line: 2,
        },
        '{"type":"settled","at":"2026-0', // a torn last line: the process died mid-write
      ],
      true,
    );
    const result = await runCli(['groups', 'create', '--csv', path, '--grace', '30'], mock);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `line 2 (household U-1): the create an earlier run sent has not appeared within --grace; sending it again, unless the gate still holds it unresolved (for 10 minutes after it was sent)`,
    );
    expectExactlyOnce(mock, ids);
  });
});
