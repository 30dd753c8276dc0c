/**
 * From CSV records to create bodies: the header is mapped to the documented columns, each row is
 * checked, rows are gathered into households by key, household fields are reconciled across a
 * household's rows, and each household becomes one applicant-group body with its correlation id.
 * Every problem is collected (none stops the others), so one run lists all of them.
 */
import type { ApplicantCreateParams, ApplicantGroupCreateParams, RentUnit } from 'applicant-verification';
import { applicantGroupCreateWireSchema } from '../../../internal.js';
import { correlationIdFor } from './correlation.js';
import type { CsvTable } from './csv-input.js';
import {
  type ColumnName,
  HOUSEHOLD_COLUMNS,
  isColumnName,
  normalizeColumnName,
} from './household-columns.js';
import { type HouseholdRow, parseRow, type RowCells, type RowError } from './household-rows.js';

/** One household of the CSV: one applicant group to create. */
export interface Household {
  /** The `household_key` of its rows. */
  key: string;
  /** Line of its first row. */
  line: number;
  /** Lines of all its rows (one per applicant). */
  lines: number[];
  /** The deterministic correlation id (see {@link correlationIdFor}). */
  correlationId: string;
  /** The create body, valid against the SDK's request schema. */
  body: ApplicantGroupCreateParams;
}

/** How the header maps to columns, and what is wrong with it. */
export interface HeaderMap {
  /** For each cell of a row, the column it holds (`undefined` for an unknown column). */
  columns: (ColumnName | undefined)[];
  /** Required columns the header lacks. */
  missing: ColumnName[];
  /** Header cells that name no documented column (ignored, with a warning). */
  unknown: string[];
  /** Columns named twice. */
  duplicates: ColumnName[];
}

/** Maps the header cells to the documented columns. */
export function mapHeader(header: readonly string[]): HeaderMap {
  const seen = new Set<ColumnName>();
  const duplicates: ColumnName[] = [];
  const unknown: string[] = [];
  const columns = header.map((cell) => {
    const name = normalizeColumnName(cell);
    if (!isColumnName(name)) {
      if (name !== '') unknown.push(cell.trim());
      return undefined;
    }
    if (seen.has(name)) duplicates.push(name);
    seen.add(name);
    return name;
  });
  const missing = HOUSEHOLD_COLUMNS.filter((column) => column.required && !seen.has(column.name)).map(
    (column) => column.name,
  );
  return { columns, missing, unknown, duplicates };
}

/** Options of {@link buildHouseholds}. */
export interface HouseholdOptions {
  /** How the API reads `monthly_rent` (`--api-rent-unit`): the rent rules follow it. Default dollars. */
  apiRentUnit?: RentUnit | undefined;
  /** `--batch-id`, part of every correlation id; `''` when none was given. */
  batchId: string;
  /** Decision maker for households whose `decision_maker` cell is blank. */
  decisionMaker?: string | undefined;
  /** `false` sends `is_invitation_disabled: true` (nobody is emailed or texted). */
  invitations: boolean;
}

/** The households of a file, and every problem found in it. */
export interface HouseholdPlan {
  /** The valid households: none of their rows has a problem. */
  households: Household[];
  /** Every problem, sorted by line. */
  errors: RowError[];
  /** Keys of the households left out because one of their rows has a problem. */
  invalidKeys: string[];
}

type HouseholdField =
  | 'property_name'
  | 'street_address'
  | 'city'
  | 'state'
  | 'zip_code'
  | 'unit'
  | 'monthly_rent'
  | 'decision_maker';

const HOUSEHOLD_FIELDS: readonly HouseholdField[] = [
  'property_name',
  'street_address',
  'city',
  'state',
  'zip_code',
  'unit',
  'monthly_rent',
  'decision_maker',
];
const REQUIRED_HOUSEHOLD_FIELDS: ReadonlySet<HouseholdField> = new Set([
  'property_name',
  'street_address',
  'city',
  'state',
  'zip_code',
  'monthly_rent',
]);

/** A household field's value and the line it was first given on. */
type Merged = Map<HouseholdField, { value: string | number; line: number }>;

function textField(merged: Merged, field: Exclude<HouseholdField, 'monthly_rent'>): string | undefined {
  const value = merged.get(field)?.value;
  return typeof value === 'string' ? value : undefined;
}

interface ParsedRow {
  line: number;
  row: HouseholdRow;
}

function cellsOf(values: readonly string[], columns: readonly (ColumnName | undefined)[]): RowCells {
  const cells: RowCells = {
    household_key: '',
    first_name: '',
    last_name: '',
    email: '',
    phone: '',
    verification_types: '',
    property_name: '',
    street_address: '',
    city: '',
    state: '',
    zip_code: '',
    unit: '',
    monthly_rent: '',
    decision_maker: '',
  };
  columns.forEach((column, index) => {
    if (column !== undefined) cells[column] = values[index] ?? '';
  });
  return cells;
}

// A household's fields may be repeated on each row or given once; two different values are a
// mistake (a pasted row from another unit) that must not be resolved by guessing.
function mergeHouseholdFields(key: string, rows: readonly ParsedRow[], errors: RowError[]): Merged {
  const merged: Merged = new Map();
  for (const { line, row } of rows) {
    for (const field of HOUSEHOLD_FIELDS) {
      const value = row[field];
      if (value === undefined) continue;
      const first = merged.get(field);
      if (first === undefined) {
        merged.set(field, { value, line });
      } else if (first.value !== value) {
        errors.push({
          line,
          column: field,
          message: `differs from line ${first.line} of household "${key}": leave it blank or repeat the same value`,
        });
      }
    }
  }
  return merged;
}

function applicantOf(row: HouseholdRow): ApplicantCreateParams {
  return {
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    ...(row.phone === undefined ? {} : { phone_number: row.phone }),
    ...(row.verification_types.length > 0
      ? { verifications: row.verification_types.map((type) => ({ type })) }
      : {}),
  };
}

// Which CSV column a path of the request body comes from, to point a final schema issue at a cell.
const BODY_PATH_COLUMNS: Record<string, ColumnName> = {
  first_name: 'first_name',
  last_name: 'last_name',
  email: 'email',
  phone_number: 'phone',
  verifications: 'verification_types',
  name: 'property_name',
  street_address: 'street_address',
  city: 'city',
  state: 'state',
  zip_code: 'zip_code',
  unit: 'unit',
  monthly_rent: 'monthly_rent',
  decision_maker_display_name: 'decision_maker',
};

function buildHousehold(
  key: string,
  rows: readonly ParsedRow[],
  options: HouseholdOptions,
  errors: RowError[],
): Household | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const before = errors.length;
  const merged = mergeHouseholdFields(key, rows, errors);
  for (const field of REQUIRED_HOUSEHOLD_FIELDS) {
    if (!merged.has(field)) {
      errors.push({
        line: first.line,
        column: field,
        message: rows.length > 1 ? `is required on at least one row of household "${key}"` : 'is required',
      });
    }
  }
  const decisionMaker = textField(merged, 'decision_maker') ?? options.decisionMaker;
  if (decisionMaker === undefined) {
    errors.push({
      line: first.line,
      column: 'decision_maker',
      message: 'is required (or pass --decision-maker)',
    });
  }
  const emails = new Map<string, number>();
  for (const { line, row } of rows) {
    const address = row.email.toLowerCase();
    const earlier = emails.get(address);
    if (earlier === undefined) emails.set(address, line);
    else errors.push({ line, column: 'email', message: `the same applicant is already on line ${earlier}` });
  }
  if (errors.length > before) return undefined;

  const unit = textField(merged, 'unit');
  const rent = merged.get('monthly_rent')?.value;
  const correlationId = correlationIdFor({
    batchId: options.batchId,
    householdKey: key,
    emails: rows.map(({ row }) => row.email),
    monthlyRent: typeof rent === 'number' ? rent : 0,
  });
  const body: ApplicantGroupCreateParams = {
    applicants: rows.map(({ row }) => applicantOf(row)),
    property: {
      name: textField(merged, 'property_name') ?? '',
      street_address: textField(merged, 'street_address') ?? '',
      city: textField(merged, 'city') ?? '',
      state: textField(merged, 'state') ?? '',
      zip_code: textField(merged, 'zip_code') ?? '',
      ...(unit === undefined ? {} : { unit }),
    },
    decision_maker_display_name: decisionMaker ?? '',
    monthly_rent: typeof rent === 'number' ? rent : 0,
    correlation_id: correlationId,
    ...(options.invitations ? {} : { is_invitation_disabled: true }),
  };
  // The SDK would check the body again before sending; checking here keeps "nothing is sent
  // while any row is bad" true even if its rules are stricter than the row schema's.
  const check = applicantGroupCreateWireSchema(options.apiRentUnit ?? 'dollars').safeParse(body);
  if (!check.success) {
    for (const issue of check.error.issues) {
      const [head, index] = issue.path;
      const row = head === 'applicants' && typeof index === 'number' ? rows[index] : undefined;
      const leaf = issue.path.findLast((part): part is string => typeof part === 'string');
      errors.push({
        line: row?.line ?? first.line,
        column: leaf === undefined ? undefined : BODY_PATH_COLUMNS[leaf],
        message: issue.message,
      });
    }
    return undefined;
  }
  return { key, line: first.line, lines: rows.map((row) => row.line), correlationId, body };
}

/**
 * Checks every row and builds one body per household. `errors` lists every problem with its line
 * and column; a household with any bad row is left out of `households` whole (never created with
 * some of its applicants missing) and named in `invalidKeys`.
 */
export function buildHouseholds(
  table: CsvTable,
  header: HeaderMap,
  options: HouseholdOptions,
): HouseholdPlan {
  const errors: RowError[] = [];
  const byKey = new Map<string, ParsedRow[]>();
  const failedKeys = new Set<string>();
  const keyIndex = header.columns.indexOf('household_key');
  for (const record of table.records) {
    if (record.values.length !== header.columns.length) {
      // The key cell is a best guess on a misaligned row: enough to hold its household back.
      const guess = record.values[keyIndex]?.trim() ?? '';
      if (guess !== '') failedKeys.add(guess);
      errors.push({
        line: record.line,
        message: `has ${record.values.length} fields, the header has ${header.columns.length} (a missing comma or an unquoted comma?)`,
      });
      continue;
    }
    const cells = cellsOf(record.values, header.columns);
    const parsed = parseRow(record.line, cells);
    const key = cells.household_key.trim();
    if (!parsed.ok) {
      errors.push(...parsed.errors);
      if (key !== '') failedKeys.add(key);
      continue;
    }
    const rows = byKey.get(parsed.row.household_key) ?? [];
    rows.push({ line: record.line, row: parsed.row });
    byKey.set(parsed.row.household_key, rows);
  }
  const households: Household[] = [];
  for (const [key, rows] of byKey) {
    // A household with a bad row is not checked further: its other findings would be noise.
    if (failedKeys.has(key)) continue;
    const household = buildHousehold(key, rows, options, errors);
    if (household) households.push(household);
    else failedKeys.add(key);
  }
  if (table.records.length === 0) errors.push({ line: 2, message: 'the file has a header but no rows' });
  errors.sort((a, b) => a.line - b.line);
  return { households, errors, invalidKeys: [...failedKeys] };
}
