/**
 * The journal's group commit: appends made while a write is on its way go to disk together, one
 * write and one fsync per batch (one write opened with `O_DSYNC`), and no append resolves before
 * its batch is on disk (the write-ahead rule: a create is sent only once its `sending` line is on
 * disk). The results log appends rows settled at once in one write too, through a file it keeps
 * open.
 */
import { closeSync, constants, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import {
  Journal,
  type JournalEntry,
  type JournalFile,
  journalOpenFlags,
  readJournal,
} from '../../src/cli/commands/groups-create/journal.js';
import { type HouseholdResult, ResultLog } from '../../src/cli/commands/groups-create/result-log.js';
import type { CliIO } from '../../src/cli/shared/io.js';
import { parseCsv, tempDir } from './helpers.js';

function sending(i: number): JournalEntry {
  return {
    type: 'sending',
    at: '2026-12-07T00:00:00.000Z',
    household_key: `U-${i}`,
    correlation_id: `cli-${String(i).padStart(16, '0')}`,
    batch_id: '',
    line: i + 1,
  };
}

/** A `write` of a file handle for text, as the journal calls it: `seen` gets the text. */
function fakeWrite(seen: (text: string) => Promise<void>): JournalFile['write'] {
  async function write<T extends NodeJS.ArrayBufferView>(
    buffer: T,
  ): Promise<{ bytesWritten: number; buffer: T }>;
  async function write(text: string): Promise<{ bytesWritten: number; buffer: string }>;
  async function write(data: unknown): Promise<{ bytesWritten: number; buffer: unknown }> {
    const text = typeof data === 'string' ? data : String(data);
    await seen(text);
    return { bytesWritten: text.length, buffer: data };
  }
  return write;
}

/** A file that records what happens to it, each write and fsync finishing when the test says. */
function recordingFile() {
  const events: string[] = [];
  const gates: (() => void)[] = [];
  const held = (event: string) =>
    new Promise<void>((resolve) => {
      events.push(event);
      gates.push(resolve);
    });
  const file: JournalFile = {
    write: fakeWrite(async (text) => {
      await held(`write ${text.split('\n').length - 1} line(s)`);
    }),
    datasync: () => held('datasync'),
    close: async () => {
      events.push('close');
    },
  };
  const release = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    gates.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { file, events, release };
}

describe('the journal: group commit', () => {
  it('sixteen appends at once: two writes and two fsyncs, each append resolved only after its own batch is flushed', async () => {
    const { file, events, release } = recordingFile();
    const journal = Journal.over(file);
    const appends = Array.from({ length: 16 }, (_, i) =>
      journal.append(sending(i)).then(() => {
        events.push(`resolved ${i}`);
      }),
    );
    // The first append's write is on its way; the other fifteen wait for it, as one batch.
    await release(); // write of the first line
    expect(events).toEqual(['write 1 line(s)', 'datasync']);
    await release(); // its fsync
    expect(events.slice(0, 2)).toEqual(['write 1 line(s)', 'datasync']);
    expect(events.slice(2).sort()).toEqual(['resolved 0', 'write 15 line(s)']);
    await release(); // the batch's write: nothing resolves before its fsync
    expect(events.filter((event) => event.startsWith('resolved'))).toEqual(['resolved 0']);
    await release(); // the batch's fsync
    await Promise.all(appends);
    expect(events.slice(4)).toEqual([
      'datasync',
      ...Array.from({ length: 15 }, (_, i) => `resolved ${i + 1}`),
    ]);
    await journal.close();
    expect(events.at(-1)).toBe('close');
  });

  it('a batch whose write fails fails its own appends; the next batch is written', async () => {
    let writes = 0;
    const written: string[] = [];
    const file: JournalFile = {
      write: fakeWrite(async (text) => {
        writes++;
        if (writes === 1) throw new Error('disk full');
        written.push(text);
      }),
      datasync: async () => {},
      close: async () => {},
    };
    const journal = Journal.over(file);
    const first = journal.append(sending(1));
    const second = journal.append(sending(2));
    await expect(first).rejects.toThrow('disk full');
    await expect(second).resolves.toBeUndefined();
    expect(written).toHaveLength(1);
    expect(written[0]).toContain('"household_key":"U-2"');
    await journal.close();
  });

  it('a file opened with O_DSYNC: one write per batch and no fsync, each append resolved only after its write', async () => {
    const { file, events, release } = recordingFile();
    const journal = Journal.over(file, { synced: true });
    const appends = Array.from({ length: 16 }, (_, i) =>
      journal.append(sending(i)).then(() => {
        events.push(`resolved ${i}`);
      }),
    );
    await release(); // the first line's write (on disk when it returns)
    expect(events[0]).toBe('write 1 line(s)');
    // Its append resolved, the next batch's write started: nothing else resolves before it returns.
    expect(events.slice(1).sort()).toEqual(['resolved 0', 'write 15 line(s)']);
    await release();
    await Promise.all(appends);
    expect(events.slice(3)).toEqual(Array.from({ length: 15 }, (_, i) => `resolved ${i + 1}`));
    expect(events).not.toContain('datasync');
    await journal.close();
  });

  it.runIf(process.platform === 'linux')(
    'on Linux the journal is opened for appending with O_DSYNC (the kernel keeps the flag)',
    () => {
      const { flags, synced } = journalOpenFlags();
      expect(synced).toBe(true);
      expect(typeof flags).toBe('number');
      const path = join(tempDir(), 'flags.journal.jsonl');
      const fd = openSync(path, flags, 0o600);
      try {
        // /proc/self/fdinfo/<fd> gives the open flags in octal.
        const info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
        const open = Number.parseInt(/^flags:\s*([0-7]+)/m.exec(info)?.[1] ?? '', 8);
        expect(open & constants.O_DSYNC).toBe(constants.O_DSYNC);
        expect(open & constants.O_APPEND).toBe(constants.O_APPEND);
      } finally {
        closeSync(fd);
      }
    },
  );

  it('on disk: lines appended at once read back in order, each with its checksum', async () => {
    const path = join(tempDir(), 'batched.journal.jsonl');
    const journal = await Journal.open(path);
    await Promise.all(Array.from({ length: 40 }, (_, i) => journal.append(sending(i))));
    await journal.close();
    const read = await readJournal(path);
    expect([...read.states.keys()]).toEqual(
      Array.from({ length: 40 }, (_, i) => `cli-${String(i).padStart(16, '0')}`),
    );
    expect(
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    ).toHaveLength(40);
  });
});

describe('the results log: rows settled at once, one append', () => {
  it('every row is in the log, once, in the order settled; finish rewrites it in input order', async () => {
    const dir = tempDir();
    const path = join(dir, 'households.results.csv');
    const log = new ResultLog(path, new Date('2026-12-07T00:00:00Z'));
    const rows: HouseholdResult[] = Array.from({ length: 50 }, (_, i) => ({
      line: 100 - i,
      household_key: `U-${i}`,
      correlation_id: `cli-${i}`,
      status: 'created',
      group_id: `g-${i}`,
      applicants: 1,
      error: '',
      retry_after: '',
      reinvitation_of: '',
      possible_duplicate: '',
    }));
    for (const row of rows) log.append(row);
    const io: CliIO = {
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      env: {},
      cwd: dir,
      signal: new AbortController().signal,
    };
    const info = { csv: 'x.csv', batchId: '', startedAt: new Date(), finishedAt: new Date() };
    const target = await log.finish(rows, info, io);
    const written = parseCsv(readFileSync(target, 'utf8'));
    expect(written.map((row) => row.household_key)).toEqual(rows.map((row) => row.household_key).reverse());
  });

  it('kept open: rows are in the file as they settle (what a killed run leaves); closed and appended to again, then rewritten whole', async () => {
    const dir = tempDir();
    const path = join(dir, 'kept.results.csv');
    const log = new ResultLog(path, new Date('2026-12-07T00:00:00Z'));
    const row = (i: number): HouseholdResult => ({
      line: 10 + i,
      household_key: `U-${i}`,
      correlation_id: `cli-${i}`,
      status: 'created',
      group_id: `g-${i}`,
      applicants: 1,
      error: '',
      retry_after: '',
      reinvitation_of: '',
      possible_duplicate: '',
    });
    const keys = (text: string) => parseCsv(text).map((entry) => entry.household_key);
    log.append(row(3));
    log.append(row(1));
    // The rows reach the file as they settle, before any finish (one write: settled in one turn).
    await vi.waitFor(() =>
      expect(existsSync(path) && keys(readFileSync(path, 'utf8'))).toEqual(['U-3', 'U-1']),
    );
    log.append(row(2));
    await log.close();
    expect(keys(readFileSync(path, 'utf8'))).toEqual(['U-3', 'U-1', 'U-2']);
    // A row settled after the file was closed opens it again and lands after the others.
    log.append(row(0));
    const io: CliIO = {
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      env: {},
      cwd: dir,
      signal: new AbortController().signal,
    };
    const info = { csv: 'x.csv', batchId: '', startedAt: new Date(), finishedAt: new Date() };
    const target = await log.finish([], info, io);
    expect(target).toBe(path);
    expect(keys(readFileSync(path, 'utf8'))).toEqual(['U-0', 'U-1', 'U-2', 'U-3']);
    expect(readFileSync(path, 'utf8').match(/^line,household_key/gm)).toHaveLength(1);
  });
});
