/**
 * A damaged journal never switches the edit check off (issue 50, point 2): each line carries its
 * own checksum; a changed or garbled line stops the run before any lookup or create (exit 6),
 * naming the file, the line and the repair; a torn last line (a kill mid-write) is tolerated,
 * said in one line, and acknowledged so that it is said once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalLine, readJournal } from '../../src/cli/commands/groups-create/journal.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { runCli, tempDir, writeHouseholds } from './helpers.js';

const FAST = ['--concurrency', '4', '--max-retries', '2', '--timeout', '5', '--grace', '1'];

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ seed: 502, pageSize: 50 });
});
afterAll(async () => {
  await mock.close();
});

function journalPath(dir: string, name: string): string {
  return join(dir, `${name}.${mock.clientId}.journal.jsonl`);
}

function editLine(path: string, index: (lines: string[]) => number, edit: (line: string) => string): number {
  const lines = readFileSync(path, 'utf8').split('\n');
  const at = index(lines);
  lines[at] = edit(lines[at] ?? '');
  writeFileSync(path, lines.join('\n'));
  return at + 1;
}

// A created household's run, then its rent edited in the CSV: the edit check needs the journal.
async function editedAfterRun(name: string) {
  const dir = tempDir();
  const { path } = writeHouseholds(dir, `${name}.csv`, { households: 3, tag: name });
  const first = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
  expect(first.code, first.stderr).toBe(0);
  writeFileSync(path, readFileSync(path, 'utf8').replace(',1202,', ',1999,'));
  return { dir, path };
}

describe('the journal of groups create: damage', () => {
  it('with the journal intact, an edited rent is a conflict (exit 3)', async () => {
    const { path } = await editedAfterRun('intact');
    const before = mock.groups.applicant().length;
    const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(result.code, result.stderr).toBe(3);
    expect(mock.groups.applicant()).toHaveLength(before);
  });

  it('a garbled line (checksum) stops the run before any request: file, line, repair; exit 6', async () => {
    const { dir, path } = await editedAfterRun('garbled');
    const journal = journalPath(dir, 'garbled');
    // One character of U-2's settled line changed, as a disk or an editor might.
    const line = editLine(
      journal,
      (lines) => lines.findIndex((text) => text.includes('"settled"') && text.includes('"U-2"')),
      (text) =>
        text.replace(/"group_id":"(.)/, (_, first: string) => `"group_id":"${first === 'a' ? 'b' : 'a'}`),
    );
    const requests = mock.stats.count();
    const before = mock.groups.applicant().length;
    const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toContain(
      `the journal ${journal} is damaged at line ${line}: its checksum does not match`,
    );
    expect(result.stderr).toContain('nothing was sent');
    expect(result.stderr).toContain(
      `Repair: restore the file from a backup, or correct line ${line} by hand`,
    );
    expect(result.stderr).toContain('it was about household "U-2"');
    // Not one request: no lookup, no create, no invitation.
    expect(mock.stats.count()).toBe(requests);
    expect(mock.groups.applicant()).toHaveLength(before);
  });

  it('a line cut short in the middle (not the last) is damage too, not a torn write', async () => {
    const { dir, path } = await editedAfterRun('truncated');
    const journal = journalPath(dir, 'truncated');
    const line = editLine(
      journal,
      (lines) => lines.findIndex((text) => text.includes('"sending"')),
      (text) => text.slice(0, 30),
    );
    const before = mock.groups.applicant().length;
    const result = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toContain(`damaged at line ${line}: it is not a complete JSON line`);
    expect(mock.groups.applicant()).toHaveLength(before);
  });

  it('a torn last line is tolerated and said once; the next run acknowledges it and the edit is still a conflict', async () => {
    const { dir, path } = await editedAfterRun('torn');
    const journal = journalPath(dir, 'torn');
    const text = readFileSync(journal, 'utf8');
    writeFileSync(journal, `${text}{"type":"sending","at":"2026-12-0`);
    const tornAt = text.split('\n').length;
    const first = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr.split('\n').filter((line) => line.includes('was cut off'))).toEqual([
      `note: ${journal}: line ${tornAt} was cut off (a run was killed while writing it); ignored: the create it announced was never sent`,
    ]);
    // This run ended the torn line and acknowledged it; what it appended parses on its own.
    const read = await readJournal(journal);
    expect(read.tornLine).toBeUndefined();
    expect(readFileSync(journal, 'utf8')).toContain(`"type":"torn"`);
    const again = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(again.code, again.stderr).toBe(3);
    expect(again.stderr).not.toContain('was cut off');
  });

  it('each line carries a checksum of its own text; lines of earlier versions (no checksum) still read', async () => {
    const dir = tempDir();
    const path = join(dir, 'lines.jsonl');
    const sending = {
      type: 'sending',
      at: '2026-12-01T00:00:00.000Z',
      household_key: 'K',
      correlation_id: 'cli-0000000000000001',
      batch_id: '',
      line: 2,
    } as const;
    const line = journalLine(sending);
    expect(line).toMatch(/^\{"type":"sending",.*,"line":2,"sum":"[0-9a-f]{16}"\}$/);
    writeFileSync(
      path,
      `${JSON.stringify({ ...sending, correlation_id: 'cli-0000000000000002' })}\n${line}\n`,
    );
    const read = await readJournal(path);
    expect([...read.states.keys()]).toEqual(['cli-0000000000000002', 'cli-0000000000000001']);
    writeFileSync(path, `${line.replace('"K"', '"L"')}\n${line}\n`);
    await expect(readJournal(path)).rejects.toMatchObject({ name: 'JournalDamagedError', line: 1 });
  });
});
