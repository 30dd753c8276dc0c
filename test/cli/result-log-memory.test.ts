/**
 * What `groups create` holds of its results: the CSV log's rewrite in input order reads the rows
 * back from the file (by the offsets it appended them at), with the rows changed since (hold
 * times) written as they are now; the tally keeps counts and only the rows the end prints.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type HouseholdResult, ResultLog } from '../../src/cli/commands/groups-create/result-log.js';
import { ResultTally } from '../../src/cli/commands/groups-create/result-tally.js';
import type { CliIO } from '../../src/cli/shared/io.js';
import { parseCsv, tempDir } from './helpers.js';

function row(line: number, status: HouseholdResult['status'], error = ''): HouseholdResult {
  return {
    line,
    household_key: `U-${line}`,
    correlation_id: `cli-${line}`,
    status,
    group_id: status === 'created' ? `g-${line}` : '',
    applicants: 1,
    error,
    retry_after: '',
    reinvitation_of: '',
    possible_duplicate: '',
  };
}

function ioOf(cwd: string): CliIO {
  return {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {},
    cwd,
    signal: new AbortController().signal,
  };
}

const info = { csv: 'x.csv', batchId: '', startedAt: new Date(), finishedAt: new Date() };

describe('the results log rewrite', () => {
  it('reads the appended rows back in input order, multi-byte and quoted cells intact, updated rows as they are now', async () => {
    const dir = tempDir();
    const log = new ResultLog(join(dir, 'r.csv'), new Date('2026-12-07T00:00:00Z'));
    // Settled out of order; errors with commas, quotes, a newline and multi-byte characters.
    const lines = [7, 3, 12, 5, 9, 2];
    const rows = lines.map((line, i) =>
      row(line, i % 2 === 0 ? 'failed' : 'unresolved', `Zoë "Ł" ${line}, café\nnext ✓`),
    );
    for (const result of rows) log.append(result);
    const updated = { ...row(5, 'unresolved', 'held'), retry_after: '2026-12-07T00:10:00.000Z' };
    const target = await log.finish([updated], info, ioOf(dir));
    const written = parseCsv(readFileSync(target, 'utf8'));
    expect(written.map((result) => result.line)).toEqual(['2', '3', '5', '7', '9', '12']);
    expect(written.map((result) => result.error)).toEqual([
      'Zoë "Ł" 2, café\nnext ✓',
      'Zoë "Ł" 3, café\nnext ✓',
      'held',
      'Zoë "Ł" 7, café\nnext ✓',
      'Zoë "Ł" 9, café\nnext ✓',
      'Zoë "Ł" 12, café\nnext ✓',
    ]);
    expect(written.map((result) => result.retry_after)).toEqual([
      '',
      '',
      '2026-12-07T00:10:00.000Z',
      '',
      '',
      '',
    ]);
    expect(written.map((result) => result.status)).toEqual([
      'unresolved',
      'unresolved',
      'unresolved',
      'failed',
      'failed',
      'failed',
    ]);
  });

  it('a .json log, written at the end, holds the rows and takes the updated ones', async () => {
    const dir = tempDir();
    const log = new ResultLog(join(dir, 'r.json'), new Date('2026-12-07T00:00:00Z'));
    for (const line of [4, 2]) log.append(row(line, 'unresolved'));
    const updated = { ...row(4, 'unresolved'), retry_after: '2026-12-07T00:10:00.000Z' };
    const target = await log.finish([updated], info, ioOf(dir));
    const document: unknown = JSON.parse(readFileSync(target, 'utf8'));
    expect(document).toMatchObject({
      summary: { unresolved: 2, created: 0 },
      results: [
        { line: 2, retry_after: '' },
        { line: 4, retry_after: '2026-12-07T00:10:00.000Z' },
      ],
    });
  });
});

describe('the tally of a run', () => {
  it('counts every status and keeps the failures with the lowest lines, every unresolved and duplicate row', () => {
    const tally = new ResultTally(3);
    // 40 failures settled from the highest line down: only the lowest ones are printed.
    for (let line = 80; line > 0; line -= 2) tally.add(row(line, 'failed'));
    tally.add(row(7, 'unresolved'));
    tally.add(row(1, 'unresolved'));
    tally.add({ ...row(91, 'created'), reinvitation_of: 'g-old' });
    tally.add({ ...row(93, 'skipped_existing'), possible_duplicate: 'g-a g-b' });
    expect(tally.summary).toEqual({
      created: 1,
      skipped_existing: 1,
      expired: 0,
      conflict: 0,
      invalid: 0,
      failed: 40,
      unresolved: 2,
      interrupted: 0,
      not_attempted: 0,
    });
    expect(tally.reinvited).toBe(1);
    expect(tally.duplicates.map((result) => result.line)).toEqual([93]);
    expect(tally.unresolved.map((result) => result.line)).toEqual([7, 1]);
    const all = tally.failures(new Set());
    expect(all.shown.map((result) => result.line)).toEqual([1, 2, 4]);
    expect(all.total).toBe(42);
    // An unresolved row said elsewhere is left out of both.
    const except = tally.failures(new Set([1]));
    expect(except.shown.map((result) => result.line)).toEqual([2, 4, 6]);
    expect(except.total).toBe(41);
  });
});
