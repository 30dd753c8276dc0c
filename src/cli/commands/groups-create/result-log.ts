/**
 * The results log of `groups create`: one entry per household with its group id or its error.
 * CSV by default (opens in the same spreadsheet as the input), JSON Lines when the path ends in
 * `.jsonl`, one JSON document for `.json`, CSV on stdout for `-`. Each run writes a new file: the
 * default name carries the run's start time, and a `--log` path that exists gets one too, so
 * earlier logs are never replaced.
 *
 * A CSV or JSON Lines log gets each row appended as its household settles, so a killed run leaves
 * what it did (the journal stays the source of truth a rerun reads); at the end the CSV is
 * rewritten in input order. `.json` and `-` are written at the end only.
 */
import { appendFile, rm } from 'node:fs/promises';
import { extname } from 'node:path';
import { toCsv } from '../../shared/csv-output.js';
import { unusedPath, writeFileAtomic, writeNewFile } from '../../shared/files.js';
import { type CliIO, write } from '../../shared/io.js';
import { toJson } from '../../shared/json-output.js';

/** What happened to one household. */
export type HouseholdStatus =
  /** Created by this run. */
  | 'created'
  /** A group with this household's correlation id already existed, with the same applicants and rent. */
  | 'skipped_existing'
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
] as const satisfies readonly (keyof HouseholdResult)[];

/** Counts per status. */
export type ResultSummary = Record<HouseholdStatus, number>;

/** Counts the results per status. */
export function summarize(results: readonly HouseholdResult[]): ResultSummary {
  const summary: ResultSummary = {
    created: 0,
    skipped_existing: 0,
    conflict: 0,
    invalid: 0,
    failed: 0,
    unresolved: 0,
    interrupted: 0,
    not_attempted: 0,
  };
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
 */
export class ResultLog {
  readonly #path: string;
  readonly #startedAt: Date;
  #target: string | undefined;
  #writing: Promise<void> = Promise.resolve();
  /** Rows settled and not written yet. */
  readonly #pending: string[] = [];
  /** A write of the pending rows is queued. */
  #scheduled = false;
  #error: unknown;

  constructor(path: string, startedAt: Date) {
    this.#path = path;
    this.#startedAt = startedAt;
  }

  /**
   * Appends one settled row (CSV line or JSON line); a write error is kept for {@link finish}. Rows
   * settled while a write is under way go out together in the next one.
   */
  append(result: HouseholdResult): void {
    if (!streams(this.#path)) return;
    const jsonl = extname(this.#path).toLowerCase() === '.jsonl';
    this.#pending.push(jsonl ? `${toJson(result)}\n` : toCsv([result], RESULT_COLUMNS, false));
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#writing = this.#writing
      .then(async () => {
        this.#scheduled = false;
        const lines = this.#pending.splice(0).join('');
        if (this.#target === undefined) {
          const target = await unusedPath(this.#path, this.#startedAt);
          await writeNewFile(target, jsonl ? '' : toCsv([], RESULT_COLUMNS, true), 0o600);
          this.#target = target;
        }
        await appendFile(this.#target, lines);
      })
      .catch((error: unknown) => {
        this.#error ??= error;
      });
  }

  /** Writes the final log and returns its path (CSV rewritten in input order; `.json`, `-` written now). */
  async finish(results: readonly HouseholdResult[], info: RunInfo, io: CliIO): Promise<string> {
    await this.#writing;
    if (this.#error !== undefined) throw this.#error;
    if (!streams(this.#path) || this.#target === undefined)
      return writeResultLog(this.#path, results, info, io);
    if (extname(this.#target).toLowerCase() !== '.jsonl') {
      const sorted = [...results].sort((a, b) => a.line - b.line);
      await writeFileAtomic(this.#target, toCsv(sorted, RESULT_COLUMNS, true), 0o600);
    }
    return this.#target;
  }

  /** Removes what was appended (a run that turned out to send nothing keeps no log). */
  async discard(): Promise<void> {
    await this.#writing;
    if (this.#target !== undefined) await rm(this.#target, { force: true });
  }
}
