/**
 * `groups create` reads its CSV as a stream (docs/cli.md, "Large files"): every problem is still
 * listed with its line and column before anything is sent, also for households whose rows are
 * apart in the file; the creates read the file again, and a file edited in between stops them,
 * naming the household, rather than send what was never checked.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { batchFiles } from '../../src/cli/commands/groups-create/batch-files.js';
import { journalLine } from '../../src/cli/commands/groups-create/journal.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { recordingClock } from '../support/clock.js';
import {
  correlationIds,
  countCreated,
  HEADER_LINE,
  latestResults,
  runCli,
  tempDir,
  writeHouseholds,
} from './helpers.js';

const FAST = ['--max-retries', '6', '--timeout', '5', '--grace', '1'];

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ seed: 53, pageSize: 50 });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.faults.clear();
});

describe('groups create: the file read as a stream', () => {
  it('lists every problem with its line and column, households whose rows are apart included; nothing is sent', async () => {
    const dir = tempDir();
    const row = (key: string, email: string, rent: string, unit = key) =>
      `${key},Test,Person,${email},,,Batch Towers,1 Main Street,Springfield,Illinois,62701,${unit},${rent},Batch Towers LLC`;
    const path = `${dir}/apart.csv`;
    writeFileSync(
      path,
      `${[
        HEADER_LINE,
        row('U-1', 'one@example.com', '1201'),
        row('U-2', 'two@example', '1202'),
        row('U-3', 'three@example.com', '1203'),
        row('U-1', 'one-b@example.com', '1999', ''),
        row('U-3', 'three@example.com', ''),
      ].join('\n')}\n`,
    );
    const posts = mock.stats.count('POST /api/v1/applicant_groups');
    const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr.split('\n').filter((line) => line.startsWith(`${path}: line`))).toEqual([
      `${path}: line 3, column email: is not a valid email address: its domain has no dot (e.g. example.com); got "t***@example"`,
      `${path}: line 5, column monthly_rent: is $1,999 here but $1,201 on line 2 of household "U-1": leave it blank on later rows or repeat the same value`,
      `${path}: line 6, column email: the same applicant (email) is already on line 4 of household "U-3"`,
    ]);
    expect(result.stderr).toContain('3 problem(s) on 3 line(s)');
    expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(posts);
  });

  it('a file edited between the check and the creates: the creates stop naming the household; the rest is not_attempted', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'edited.csv', { households: 6 });
    const ids = await correlationIds(path);
    // A create an earlier run sent for U-1 and never saw settle: this run waits for it through
    // its clock, after the check and before the creates; the file is edited during that wait.
    const journal = batchFiles(path, mock.clientId).journal;
    const sentAt = new Date();
    writeFileSync(
      journal,
      `${journalLine({ type: 'sending', at: sentAt.toISOString(), household_key: 'U-1', correlation_id: ids.get('U-1') ?? '', batch_id: '', line: 2 })}\n`,
    );
    const clock = recordingClock();
    let edited = false;
    const sleep = clock.sleep.bind(clock);
    clock.sleep = async (ms, signal) => {
      if (!edited) {
        edited = true;
        writeFileSync(path, readFileSync(path, 'utf8').replace('-4-0@example.com', '-4-x@example.com'));
      }
      await sleep(ms, signal);
    };
    const result = await runCli(['groups', 'create', '--csv', path, '--concurrency', '1', ...FAST], mock, {
      clock,
    });
    expect(edited).toBe(true);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      `Stopped: ${path} could not be read again for the creates: HouseholdsChangedError: household "U-4" (line 5) changed since the file was checked.`,
    );
    const statuses = latestResults(dir, 'edited').map((entry) => [entry.household_key, entry.status]);
    expect(statuses).toEqual([
      ['U-1', 'created'],
      ['U-2', 'created'],
      ['U-3', 'created'],
      ['U-4', 'not_attempted'],
      ['U-5', 'not_attempted'],
      ['U-6', 'not_attempted'],
    ]);
    expect(countCreated(mock, ids)).toBe(3);
    const sent = mock.stats
      .log()
      .filter((entry) => entry.method === 'POST' && entry.url.endsWith('/api/v1/applicant_groups'));
    expect(JSON.stringify(sent)).not.toContain('-4-x@');
  });
});
