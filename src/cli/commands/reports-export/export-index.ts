/**
 * `index.csv` of an export directory: report files are named by ids, so the index says whose
 * each one is. One row per file; rows of earlier runs are kept (a rerun writes only what was
 * missing but the index covers the whole directory). Written through `toCsv`: names and
 * emails come from the server and are formula-escaped.
 */
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ApplicantGroup, ReportSummary } from 'applicant-verification';
import { parse } from 'csv-parse/sync';
import { toCsv } from '../../shared/csv-output.js';
import { writeFileAtomic } from '../../shared/files.js';

/** Name of the index file in the export directory. */
export const INDEX_FILE = 'index.csv';

/** Columns of `index.csv`, in order. */
export const INDEX_COLUMNS = [
  'file',
  'kind',
  'report_id',
  'report_scope',
  'group_id',
  'correlation_id',
  'unit',
  'property',
  'applicant_id',
  'applicant_name',
  'applicant_email',
] as const;

/** One row of `index.csv`. */
export type IndexRow = Record<(typeof INDEX_COLUMNS)[number], string>;

/** What one report contributes to the index. */
export interface IndexSource {
  outDir: string;
  jsonPath: string;
  pdfPath: string;
  groupId: string;
  /** The group, when it could be found: names the household and the applicant. */
  group: ApplicantGroup | undefined;
  report: ReportSummary;
  /** Which list of the group's reports it came from. */
  scope: 'household' | 'individual';
}

/** The two rows (JSON and PDF) of one report. */
export function indexRowsOf(source: IndexSource): IndexRow[] {
  const { group, report, scope } = source;
  // Household reports cover the whole group and belong to no single applicant.
  const applicantId = scope === 'individual' ? (report.applicant_id ?? '') : '';
  const applicant = applicantId
    ? group?.applicants.find((candidate) => candidate.id === applicantId)
    : undefined;
  const base = {
    report_id: report.id,
    report_scope: scope,
    group_id: source.groupId,
    correlation_id: group?.correlation_id ?? '',
    unit: group?.unit_number ?? '',
    property: group?.property.name ?? '',
    applicant_id: applicantId,
    applicant_name: applicant ? `${applicant.first_name} ${applicant.last_name}` : '',
    applicant_email: applicant?.email ?? '',
  };
  return [
    { file: relative(source.outDir, source.jsonPath), kind: 'json', ...base },
    { file: relative(source.outDir, source.pdfPath), kind: 'pdf', ...base },
  ];
}

function isIndexRow(value: unknown): value is IndexRow {
  return (
    typeof value === 'object' &&
    value !== null &&
    INDEX_COLUMNS.every((column) => column in value && typeof Reflect.get(value, column) === 'string')
  );
}

async function readIndex(path: string): Promise<IndexRow[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return [];
  }
  try {
    const rows: unknown = parse(text, { columns: true, skip_empty_lines: true });
    return Array.isArray(rows) ? rows.filter(isIndexRow) : [];
  } catch {
    // A damaged index is rebuilt from this run's rows rather than stopping the export.
    return [];
  }
}

/** Merges `rows` into `DIR/index.csv` (a file's row is replaced by its newer one), atomically. */
export async function updateIndex(outDir: string, rows: readonly IndexRow[], mode: number): Promise<void> {
  const path = join(outDir, INDEX_FILE);
  const byFile = new Map<string, IndexRow>();
  for (const row of await readIndex(path)) byFile.set(row.file, row);
  for (const row of rows) byFile.set(row.file, row);
  const sorted = [...byFile.values()].sort((a, b) => a.file.localeCompare(b.file));
  await writeFileAtomic(path, toCsv(sorted, INDEX_COLUMNS, true), mode);
}
