/**
 * The results log of `groups create`: one entry per household with its group id or its error.
 * CSV by default (opens in the same spreadsheet as the input), JSON Lines when the path ends in
 * `.jsonl`, one JSON document for `.json`, CSV on stdout for `-`. Each run writes a new file: the
 * default name carries the run's start time, and a `--log` path that exists gets one too, so
 * earlier logs are never replaced.
 *
 * A CSV or JSON Lines log gets each row appended as its household settles, so a killed run leaves
 * what it did (the journal stays the source of truth a rerun reads); at the end the CSV is
 * rewritten in input order from what was appended (its rows are not kept in memory). `.json` and `-` are written at the end only.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { extname } from 'node:path';
import { toCsv } from '../../shared/csv-output.js';
import { unusedPath, writeNewFile } from '../../shared/files.js';
import { type CliIO, write } from '../../shared/io.js';
import { toJson } from '../../shared/json-output.js';

/** What happened to one household. */
export type HouseholdStatus =
  /** Created by this run. */
  | 'created'
  /** A group with this household's correlation id already existed, with the same applicants and rent. */
  | 'skipped_existing'
  /**
   * The household's groups have all expired (not completed within 14 days): nothing sent;
   * `--reinvite-expired` invites it again.
   */
  | 'expired'
  /** A group found for this household differs from the row (applicants or rent): nothing created. */
  | 'conflict'
  /** A row of the household is invalid (`--skip-invalid`): nothing sent. */
  | 'invalid'
  /** Could not be created; `error` says why. A rerun tries again. */
  | 'failed'
  /** The create may have reached the server and its group has not appeared yet: a rerun finds out. */
  | 'unresolved'
  /** Stopped by a signal while its request was in flight: it may exist; a rerun finds out. */
  | 'interrupted'
  /** Stopped by a signal before it started. */
  | 'not_attempted';

/** One entry of the results log. */
export interface HouseholdResult {
  /** Line of the household's first row in the CSV. */
  line: number;
  household_key: string;
  /** Empty for an invalid household (it has no id). */
  correlation_id: string;
  status: HouseholdStatus;
  /** Id of the created or existing (or conflicting) group; empty when there is none. */
  group_id: string;
  /** Number of applicants (rows) of the household. */
  applicants: number;
  /** Why it failed or conflicts; empty otherwise. */
  error: string;
  /**
   * For an `unresolved` household the gate still holds back: when (ISO time) a rerun can create it
   * if its group has not appeared by then. Empty otherwise (a rerun may go at once).
   */
  retry_after: string;
  /** A re-invitation (`--reinvite-expired`): the expired group this run's new group replaces. */
  reinvitation_of: string;
  /**
   * A possible duplicate: the household's other live groups (space-separated ids), as the lookup
   * or the create saw them (docs/fault-model.md, "A duplicate was reported"). Empty otherwise.
   */
  possible_duplicate: string;
}

/** Columns of the CSV log, in order. */
export const RESULT_COLUMNS = [
  'line',
  'household_key',
  'correlation_id',
  'status',
  'group_id',
  'applicants',
  'error',
  'retry_after',
  'reinvitation_of',
  'possible_duplicate',
] as const satisfies readonly (keyof HouseholdResult)[];

/** Counts per status. */
export type ResultSummary = Record<HouseholdStatus, number>;

/** Zero households of every status. */
export function emptySummary(): ResultSummary {
  return {
    created: 0,
    skipped_existing: 0,
    expired: 0,
    conflict: 0,
    invalid: 0,
    failed: 0,
    unresolved: 0,
    interrupted: 0,
    not_attempted: 0,
  };
}

/** Counts the results per status. */
function summarize(results: readonly HouseholdResult[]): ResultSummary {
  const summary = emptySummary();
  for (const result of results) summary[result.status]++;
  return summary;
}

/** Facts about the run, kept in the JSON log. */
export interface RunInfo {
  csv: string;
  batchId: string;
  startedAt: Date;
  finishedAt: Date;
}

/**
 * Writes the log as a new file (mode 0600: conflicts quote applicants' emails) and returns the
 * path written, which differs from `path` when a file was already there.
 */
export async function writeResultLog(
  path: string,
  results: readonly HouseholdResult[],
  info: RunInfo,
  io: CliIO,
): Promise<string> {
  const sorted = [...results].sort((a, b) => a.line - b.line);
  const csv = () => toCsv(sorted, RESULT_COLUMNS, true);
  if (path === '-') {
    await write(io.stdout, csv());
    return path;
  }
  const target = await unusedPath(path, info.startedAt);
  if (extname(target).toLowerCase() === '.json') {
    const document = {
      csv: info.csv,
      batch_id: info.batchId,
      started_at: info.startedAt.toISOString(),
      finished_at: info.finishedAt.toISOString(),
      summary: summarize(sorted),
      possible_duplicates: sorted.filter((result) => result.possible_duplicate !== '').length,
      reinvitations: sorted.filter((result) => result.reinvitation_of !== '').length,
      results: sorted,
    };
    await writeNewFile(target, `${toJson(document, 2)}\n`, 0o600);
  } else {
    await writeNewFile(target, csv(), 0o600);
  }
  return target;
}

/** Whether a log at `path` is appended to as rows settle (CSV and JSON Lines files). */
function streams(path: string): boolean {
  const ext = extname(path).toLowerCase();
  return path !== '-' && ext !== '.json';
}

/**
 * The results log of one run, appended to as households settle. The file is created on the first
 * row, so a run that settles nothing (its credentials were refused) leaves none.
 *
 * What it holds per household: for a CSV file, where its row was appended (three numbers: its
 * line, its byte offset and length; about 24 bytes each, 2.4 MB at 100,000 households), so the
 * final rewrite in input order reads the rows back from the file instead of keeping them; for
 * JSON Lines, nothing; for `.json` and `-` (written at the end only), the rows themselves.
 */
export class ResultLog {
  readonly #path: string;
  readonly #startedAt: Date;
  readonly #format: 'csv' | 'jsonl' | 'end';
  #target: string | undefined;
  /**
   * The file appended to, kept open from its first row to {@link finish} (or {@link close}): the
   * rows settled in one turn of the event loop are one synchronous write to the page cache (not
   * synced: the journal is what a rerun trusts), not an open, a write and a close on the thread
   * pool (docs/benchmarks.md, "Scale, round 4").
   */
  #fd: number | undefined;
  #writing: Promise<void> = Promise.resolve();
  /** Lines settled while a write was on its way: appended together by the next write. */
  #pending: string[] = [];
  #error: unknown;
  /** CSV: bytes the file will have once every pending line is written (the header first). */
  #end: number;
  /**
   * CSV: each appended row's input line and byte offset, in the order appended (a row ends where
   * the next starts, the last at `#end`).
   */
  readonly #lines: number[] = [];
  readonly #offsets: number[] = [];
  /** `.json` and `-`: the rows, written at the end. */
  readonly #held: HouseholdResult[] = [];

  constructor(path: string, startedAt: Date) {
    this.#path = path;
    this.#startedAt = startedAt;
    const ext = extname(path).toLowerCase();
    this.#format = !streams(path) ? 'end' : ext === '.jsonl' ? 'jsonl' : 'csv';
    this.#end = Buffer.byteLength(toCsv([], RESULT_COLUMNS, true));
  }

  /**
   * Appends one settled row (CSV line or JSON line); a write error is kept for {@link finish}.
   * Rows settled while a write is on its way are appended together, in one write.
   */
  append(result: HouseholdResult): void {
    if (this.#format === 'end') {
      this.#held.push(result);
      return;
    }
    const jsonl = this.#format === 'jsonl';
    const text = jsonl ? `${toJson(result)}\n` : toCsv([result], RESULT_COLUMNS, false);
    if (!jsonl) {
      const length = Buffer.byteLength(text);
      this.#lines.push(result.line);
      this.#offsets.push(this.#end);
      this.#end += length;
    }
    this.#pending.push(text);
    if (this.#pending.length > 1) return;
    this.#writing = this.#writing
      // The rows that settle in this turn of the event loop go in the same write.
      .then(() => new Promise<void>((done) => setImmediate(done)))
      .then(async () => {
        let header = '';
        if (this.#target === undefined) {
          const target = await unusedPath(this.#path, this.#startedAt);
          // Made here ('ax': never over a file that appeared since), owner-only from the first byte.
          this.#fd = openSync(target, 'ax', 0o600);
          this.#target = target;
          header = jsonl ? '' : toCsv([], RESULT_COLUMNS, true);
        }
        // Opened again after close(): rows settled after it (the households --skip-invalid left out).
        this.#fd ??= openSync(this.#target, 'a', 0o600);
        const bytes = Buffer.from(`${header}${this.#pending.join('')}`);
        this.#pending = [];
        for (let done = 0; done < bytes.length; )
          done += writeSync(this.#fd, bytes, done, bytes.length - done);
      })
      .catch((error: unknown) => {
        this.#error ??= error;
      });
  }

  /**
   * Writes the final log and returns its path: a CSV rewritten in input order, `.json` and `-`
   * written now. `updated`: rows changed since they were appended (an unresolved row's
   * `retry_after`), written as they are now in place of what was appended for their line.
   */
  async finish(updated: readonly HouseholdResult[], info: RunInfo, io: CliIO): Promise<string> {
    await this.close();
    if (this.#error !== undefined) throw this.#error;
    const byLine = new Map(updated.map((result) => [result.line, result]));
    if (this.#format === 'end' || this.#target === undefined) {
      const rows = this.#held.map((result) => byLine.get(result.line) ?? result);
      return writeResultLog(this.#path, rows, info, io);
    }
    if (this.#format === 'csv') await this.#rewriteInOrder(this.#target, byLine);
    return this.#target;
  }

  /**
   * Rewrites the CSV in input order (atomically, through a new file renamed over it). It reads the
   * appended file back whole (about 100 bytes a household: 10 MB at 100,000, a Buffer outside
   * the JS heap) and writes its rows sorted by line, a megabyte at a time.
   */
  async #rewriteInOrder(target: string, updated: ReadonlyMap<number, HouseholdResult>): Promise<void> {
    const appended = await readFile(target);
    const order = Array.from(this.#lines.keys()).sort(
      (a, b) => (this.#lines[a] ?? 0) - (this.#lines[b] ?? 0),
    );
    const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const handle = await open(temporary, 'wx', 0o600);
    try {
      let chunk: Buffer[] = [Buffer.from(toCsv([], RESULT_COLUMNS, true))];
      let size = 0;
      for (const index of order) {
        const line = this.#lines[index] ?? 0;
        const row = updated.get(line);
        const offset = this.#offsets[index] ?? 0;
        const bytes = row
          ? Buffer.from(toCsv([row], RESULT_COLUMNS, false))
          : appended.subarray(offset, this.#offsets[index + 1] ?? this.#end);
        chunk.push(bytes);
        size += bytes.length;
        if (size >= REWRITE_CHUNK) {
          await handle.write(Buffer.concat(chunk));
          chunk = [];
          size = 0;
        }
      }
      if (chunk.length > 0) await handle.write(Buffer.concat(chunk));
      await handle.close();
      await rename(temporary, target);
    } catch (error) {
      await handle.close().catch(() => {});
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /**
   * Waits for the rows appended so far to be written and closes the file, which keeps them (a row
   * appended later opens it again). {@link finish} and {@link discard} close it too.
   */
  async close(): Promise<void> {
    await this.#writing;
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch (error) {
      this.#error ??= error;
    }
  }

  /** Removes what was appended (a run that turned out to send nothing keeps no log). */
  async discard(): Promise<void> {
    await this.close();
    if (this.#target !== undefined) await rm(this.#target, { force: true });
  }
}

/** Bytes of rows the final rewrite gathers before each write. */
const REWRITE_CHUNK = 1 << 20;
