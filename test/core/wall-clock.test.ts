/**
 * One clock inside a process (docs/safe-creates.md, "Which clock"): every wait and window a process
 * keeps for itself reads the client's `clock`, so a test clock governs them all. This lists the only
 * files of src/ that may read the wall clock (`Date.now`, `performance.now`, `new Date()`), each
 * with its reason; a reader anywhere else fails until it is listed here, with a reason.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** The files that may read the wall clock, and why. */
const WALL_CLOCK_READERS: Record<string, string> = {
  'core/clock.ts': 'realClock: the default client clock is the wall clock',
  'core/coordination/in-process-coordination.ts':
    'an InProcessCoordination built without its clients’ clock runs on the wall clock, as realClock does',
  'core/call/http.ts':
    'the transport timeout left after waiting for a limiter slot, and debug durations: real elapsed time of real sockets',
  'core/observability/tracing.ts': 'trace spans measure the real duration of calls and attempts',
  'core/errors.ts':
    'RateLimitError.retryAfter turns a Retry-After HTTP date into seconds: a date on the wall clock, for the caller to read',
  'core/coordination/file-coordination.ts':
    'where the folder’s clock cannot be kept (not Linux), leases and records run on the wall clock, unless given a store clock',
  'core/coordination/file-clock.ts':
    'a folder’s epoch for this boot is the wall time at which the monotonic clock read zero, taken once by the boot’s first process',
  'core/coordination/file-store.ts':
    'how long the folder’s lock has been kept over consecutive rounds: real elapsed time, as the lock’s staleness is judged',
  'core/coordination/file-holders.ts': 'a process’s start time, recorded with its leases for people to read',
  'core/coordination/file-locks.ts':
    'a lock folder’s age is its modification time on the file system’s clock, compared with the wall clock',
  'core/coordination/file-folder.ts':
    'the command line’s state show judges held leases and recent records on the machine’s wall clock, the clock the folder’s records were written on',
  'core/coordination/file-format.ts':
    'an earlier version’s lock folder is judged by its modification time on the file system’s clock',
  'redis/coordination.ts':
    'the wait for the fleet’s token lock is bounded by its ttl, which the Redis server keeps for every process',
  'redis/pause-channel.ts': 'a pause published by another process is an epoch time on the shared wall clock',
  'redis/token-store.ts': 'a stored token’s Redis ttl: an expiry shared by the fleet',
  'core/token/file-token-store.ts':
    'expired tokens are dropped from the file the processes of one machine share: their shared clock is the wall clock',
  'webhooks/deliveries.ts':
    'the delivery store’s retention when the receiver passes no clock (a webhook receiver has no client)',
  'testing/server/api.ts': 'the mock starts at the real current time unless pinned',
  'helpers/affordability.ts':
    'affordability has no client: without a `now` the report’s age is checked against the current time',
  'testing/state/clock.ts': 'createClock starts at the real current time unless given a start',
  'testing/server/routes.ts':
    'latency and list-lag faults run in real time unless told to use the mock clock',
  'cli/shared/progress.ts': 'progress lines show real elapsed time and rates',
  'cli/commands/groups-watch/index.ts': 'status lines are stamped with the time they are printed',
  'cli/commands/groups-create/index.ts': 'the results log records when the run started and finished',
  'cli/commands/groups-create/lock.ts': 'the batch lock records when its holder started, for people to read',
  'cli/commands/groups-create/run-batch.ts':
    'the journal stamps its records with the wall time; its grace window reads the CLI’s clock',
  'cli/commands/groups-duplicates/index.ts':
    '--since 15d counts back from now: the CLI’s clock when a test passes one, else the wall clock',
};

/** A wall-clock read: `Date.now` (called or passed), `performance.now`, or `new Date()` with no argument. */
const WALL_CLOCK_READ = /\bDate\.now\b|\bperformance\.now\b|\bnew Date\(\s*\)/;

/** The .ts files under `dir`, relative to it. */
function sourceFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, base);
    return entry.name.endsWith('.ts') ? [relative(base, path).split('\\').join('/')] : [];
  });
}

/** Whether a line is (part of) a comment, where the clock is only named. */
function isComment(line: string): boolean {
  return /^\s*(\*|\/\/|\/\*)/.test(line);
}

/** The files under `dir` that read the wall clock outside comments, with their first such line. */
function wallClockReaders(dir: string): Map<string, string> {
  const readers = new Map<string, string>();
  for (const file of sourceFiles(dir)) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    const index = lines.findIndex((line) => !isComment(line) && WALL_CLOCK_READ.test(line));
    if (index >= 0) readers.set(file, `${file}:${index + 1}: ${lines[index]?.trim()}`);
  }
  return readers;
}

describe('one clock inside a process', () => {
  it('only the listed files read the wall clock, each for its stated reason', () => {
    const unlisted = [...wallClockReaders(SRC)]
      .filter(([file]) => WALL_CLOCK_READERS[file] === undefined)
      .map(([, line]) => line);
    expect(unlisted, 'read the client clock instead, or list the file with its reason').toEqual([]);
  });

  it('lists no file that no longer reads the wall clock', () => {
    const readers = wallClockReaders(SRC);
    expect(Object.keys(WALL_CLOCK_READERS).filter((file) => !readers.has(file))).toEqual([]);
  });

  it('a reader planted in an unlisted file is found, in each of its forms; comments are not readers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wall-clock-'));
    try {
      mkdirSync(join(dir, 'resources'));
      writeFileSync(join(dir, 'resources/a.ts'), 'export const at = () => Date.now() - 5;\n');
      writeFileSync(join(dir, 'resources/b.ts'), 'export const now = options.now ?? Date.now;\n');
      writeFileSync(join(dir, 'resources/c.ts'), 'const started = performance.now();\n');
      writeFileSync(join(dir, 'resources/d.ts'), 'const stamp = new Date().toISOString();\n');
      writeFileSync(
        join(dir, 'resources/e.ts'),
        '/** Like `Date.now()`. */\n// new Date()\nconst d = new Date(0);\n',
      );
      expect([...wallClockReaders(dir).keys()].sort()).toEqual([
        'resources/a.ts',
        'resources/b.ts',
        'resources/c.ts',
        'resources/d.ts',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
