/**
 * The results log of `groups create`: one entry per household with its group id or its error.
 * CSV by default (opens in the same spreadsheet as the input), JSON when the path ends in
 * `.json`, CSV on stdout for `-`.
 */
import { dirname, extname, join, parse as parsePath } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { writeFileAtomic } from './files.js';
import { type CliIO, write } from './io.js';

/** What happened to one household. */
export type HouseholdStatus =
  /** Created by this run. */
  | 'created'
  /** A group with this household's correlation id already existed (an earlier run made it). */
  | 'skipped_existing'
  /** Could not be created; `error` says why. A rerun tries again. */
  | 'failed'
  /** Stopped by a signal while its request was in flight: it may exist; a rerun finds out. */
  | 'interrupted'
  /** Stopped by a signal before it started. */
  | 'not_attempted';

/** One entry of the results log. */
export interface HouseholdResult {
  /** Line of the household's first row in the CSV. */
  line: number;
  household_key: string;
  correlation_id: string;
  status: HouseholdStatus;
  /** Id of the created or existing group; empty when there is none. */
  group_id: string;
  /** Number of applicants (rows) of the household. */
  applicants: number;
  /** Why it failed, masked; empty otherwise. */
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
    failed: 0,
    interrupted: 0,
    not_attempted: 0,
  };
  for (const result of results) summary[result.status]++;
  return summary;
}

/** `households.csv` → `households.results.csv`, beside the input. */
export function defaultLogPath(csvPath: string): string {
  const { name } = parsePath(csvPath);
  return join(dirname(csvPath), `${name}.results.csv`);
}

/** Facts about the run, kept in the JSON log. */
export interface RunInfo {
  csv: string;
  batch: string;
  startedAt: Date;
  finishedAt: Date;
}

/** Writes the log (atomically, so an interrupted write never leaves half a log). */
export async function writeResultLog(
  path: string,
  results: readonly HouseholdResult[],
  info: RunInfo,
  io: CliIO,
): Promise<void> {
  const sorted = [...results].sort((a, b) => a.line - b.line);
  if (path === '-') {
    await write(io.stdout, stringify(sorted, { header: true, columns: [...RESULT_COLUMNS] }));
    return;
  }
  if (extname(path).toLowerCase() === '.json') {
    const document = {
      csv: info.csv,
      batch: info.batch,
      started_at: info.startedAt.toISOString(),
      finished_at: info.finishedAt.toISOString(),
      summary: summarize(sorted),
      results: sorted,
    };
    await writeFileAtomic(path, `${JSON.stringify(document, null, 2)}\n`);
    return;
  }
  await writeFileAtomic(path, stringify(sorted, { header: true, columns: [...RESULT_COLUMNS] }));
}
