/**
 * The results log of `groups create`: one entry per household with its group id or its error.
 * CSV by default (opens in the same spreadsheet as the input), JSON when the path ends in
 * `.json`, CSV on stdout for `-`. Each run writes a new file: the default name carries the run's
 * start time, and a `--log` path that exists gets one too, so earlier logs are never replaced.
 */
import { extname, join, parse as parsePath } from 'node:path';
import { toCsv } from '../../shared/csv-output.js';
import { timestampTag, unusedPath, writeNewFile } from '../../shared/files.js';
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

/** `households.csv` → `households.results.20261123T123714.120Z.csv`, beside the input. */
export function defaultLogPath(csvPath: string, startedAt: Date): string {
  const { dir, name } = parsePath(csvPath);
  return join(dir, `${name}.results.${timestampTag(startedAt)}.csv`);
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
