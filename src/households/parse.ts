/**
 * From the text of a households CSV to create bodies: the header is mapped to the documented
 * columns, each cell is checked, rows are gathered into households by key, each household's rows
 * are checked against each other, and each household becomes one applicant-group body with its
 * correlation id. Every problem is collected (none stops the others, and a household with a bad
 * row is still checked as a household), so one pass lists all of them.
 */
import type { CountryCode } from 'libphonenumber-js/min';
import { ConfigurationError } from '../core/options.js';
import {
  type ApplicantCreateParams,
  type ApplicantGroupCreateParams,
  applicantGroupCreateWireSchema,
} from '../schemas/applicant-groups.js';
import { isRentUnit, type RentUnit } from '../schemas/rent.js';
import { type ColumnName, HOUSEHOLD_COLUMNS, isColumnName, normalizeColumnName } from './columns.js';
import { correlationIdFor } from './correlation.js';
import { CsvSyntaxError, type CsvTable, readCsvText } from './csv-text.js';
import { checkDefaultCountry } from './phone.js';
import { type CellProblem, type RowCells, type RowValues, readRow } from './rows.js';

/** Options of {@link parseHouseholds}. */
export interface ParseHouseholdsOptions {
  /**
   * Part of every correlation id (the CLI's `--batch-id`): a new value starts a new round for the
   * same households. Default `''`.
   */
  batchId?: string | undefined;
  /** Decision maker for households whose `decision_maker` cells are all blank (`--decision-maker`). */
  decisionMaker?: string | undefined;
  /** `false` sends `is_invitation_disabled: true` (nobody is emailed or texted). Default `true`. */
  invitations?: boolean | undefined;
  /**
   * The country of phone numbers written without `+` and a country code (`(415) 555-0123` with
   * `'US'`), an ISO 3166-1 alpha-2 code (`--default-country`). Without it such numbers are refused,
   * never guessed.
   */
  defaultCountry?: string | undefined;
  /**
   * How the API reads `monthly_rent` (the client's `apiRentUnit`, `--api-rent-unit`): the bodies
   * are checked against its rules. The CSV's `monthly_rent` is in dollars either way. Default
   * `'dollars'`.
   */
  apiRentUnit?: RentUnit | undefined;
}

/** One household of the CSV: one applicant group to create. */
export interface Household {
  /** The `household_key` of its rows. */
  key: string;
  /** Line of its first row (the header is line 1). */
  line: number;
  /** Lines of all its rows (one per applicant). */
  lines: number[];
  /** The deterministic correlation id, also in `body` (docs/households.md, "Correlation ids"). */
  correlationId: string;
  /** The create body, valid against the SDK's request rules: pass it to `createOnce`. */
  body: ApplicantGroupCreateParams;
}

/** A household left out because it has a problem: never created with some of its applicants missing. */
export interface InvalidHousehold {
  /** Its `household_key`. */
  key: string;
  /** Lines of all its rows. */
  lines: number[];
}

/**
 * What kind of problem a {@link HouseholdProblem} is:
 * - `csv_syntax`: the text is not CSV (an unclosed quote); nothing else is checked;
 * - `header`: a required column is missing or a column is named twice; no row is checked;
 * - `no_rows`: a header and no rows;
 * - `field_count`: a row has more or fewer fields than the header (an unquoted comma?);
 * - `invalid_value`: a cell is refused (blank where required, an email, phone, rent or
 *   verification type that is not one);
 * - `missing_household_value`: a household field required on at least one row of the household is
 *   on none of them (or no decision maker at all);
 * - `household_conflict`: two rows of a household give different values for a household field
 *   (text compares case- and space-insensitively: `ma` is `MA`; rents as amounts);
 * - `duplicate_row`: a row repeats an earlier row of its household (a copy-pasted row);
 * - `duplicate_applicant`: two rows of a household have the same email;
 * - `invalid_body`: the household's assembled body breaks a rule of the API's create.
 */
export type HouseholdProblemKind =
  | 'csv_syntax'
  | 'header'
  | 'no_rows'
  | 'field_count'
  | 'invalid_value'
  | 'missing_household_value'
  | 'household_conflict'
  | 'duplicate_row'
  | 'duplicate_applicant'
  | 'invalid_body';

/** Every kind, in the order a summary lists them. */
export const HOUSEHOLD_PROBLEM_KINDS: readonly HouseholdProblemKind[] = [
  'csv_syntax',
  'header',
  'no_rows',
  'field_count',
  'invalid_value',
  'missing_household_value',
  'household_conflict',
  'duplicate_row',
  'duplicate_applicant',
  'invalid_body',
];

/** One problem of the CSV: where (line, column), in which household, and what. */
export interface HouseholdProblem {
  /** What kind of problem it is (counted in {@link ParsedHouseholds.counts}). */
  kind: HouseholdProblemKind;
  /** 1-based line of the file, as an editor numbers it; the header is line 1. */
  line: number;
  /** The column at fault, when one is. */
  column?: ColumnName | undefined;
  /** The household the row belongs to, when it has a key. */
  householdKey?: string | undefined;
  /** What is wrong, without the cell's email or phone (error output ends up in tickets). */
  message: string;
}

/** How the header was read. */
export interface HouseholdColumns {
  /** The documented columns the header has. */
  found: ColumnName[];
  /** Required columns it lacks. */
  missing: ColumnName[];
  /** Columns it names twice. */
  duplicated: ColumnName[];
  /** Header cells that name no documented column: ignored (a caller may warn). */
  unknown: string[];
}

/** What {@link parseHouseholds} found: the households to create, and every problem. */
export interface ParsedHouseholds {
  /** The valid households, in file order: none of their rows has a problem. */
  households: Household[];
  /** The households left out, in file order, because one of their rows or checks has a problem. */
  invalid: InvalidHousehold[];
  /** Every problem, by line (then column). Empty when every household is valid. */
  problems: HouseholdProblem[];
  /** How many problems of each kind. */
  counts: Record<HouseholdProblemKind, number>;
  /** How the header was read: the columns found, missing, named twice and unknown. */
  columns: HouseholdColumns;
}

type HouseholdField = Extract<
  ColumnName,
  | 'property_name'
  | 'street_address'
  | 'city'
  | 'state'
  | 'zip_code'
  | 'unit'
  | 'monthly_rent'
  | 'decision_maker'
>;

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
const REQUIRED_HOUSEHOLD_FIELDS: readonly HouseholdField[] = [
  'property_name',
  'street_address',
  'city',
  'state',
  'zip_code',
  'monthly_rent',
];

interface Settings {
  batchId: string;
  decisionMaker: string | undefined;
  invitations: boolean;
  defaultCountry: CountryCode | undefined;
  apiRentUnit: RentUnit;
}

function settingsOf(options: ParseHouseholdsOptions): Settings {
  const {
    batchId = '',
    decisionMaker,
    invitations = true,
    defaultCountry,
    apiRentUnit = 'dollars',
  } = options;
  if (typeof batchId !== 'string') throw new ConfigurationError('batchId must be a string.');
  if (decisionMaker !== undefined && (typeof decisionMaker !== 'string' || decisionMaker.trim() === '')) {
    throw new ConfigurationError('decisionMaker must be a non-empty string.');
  }
  if (typeof invitations !== 'boolean') throw new ConfigurationError('invitations must be true or false.');
  if (!isRentUnit(apiRentUnit)) {
    throw new ConfigurationError(`apiRentUnit must be dollars or cents, got "${String(apiRentUnit)}".`);
  }
  return {
    batchId,
    decisionMaker: decisionMaker?.trim(),
    invitations,
    defaultCountry: defaultCountry === undefined ? undefined : checkDefaultCountry(defaultCountry),
    apiRentUnit,
  };
}

function readHeader(header: readonly string[]): {
  columns: HouseholdColumns;
  positions: (ColumnName | undefined)[];
} {
  const seen = new Set<ColumnName>();
  const duplicated: ColumnName[] = [];
  const unknown: string[] = [];
  const positions = header.map((cell) => {
    const name = normalizeColumnName(cell);
    if (!isColumnName(name)) {
      if (name !== '') unknown.push(cell.trim());
      return undefined;
    }
    if (seen.has(name)) duplicated.push(name);
    seen.add(name);
    return name;
  });
  const missing = HOUSEHOLD_COLUMNS.filter((column) => column.required && !seen.has(column.name)).map(
    (column) => column.name,
  );
  return { columns: { found: [...seen], missing, duplicated, unknown }, positions };
}

function cellsOf(values: readonly string[], positions: readonly (ColumnName | undefined)[]): RowCells {
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
  positions.forEach((column, index) => {
    if (column !== undefined) cells[column] = values[index] ?? '';
  });
  return cells;
}

/** One row of a household: its line, its cells as read, what was valid, and its own problems. */
interface Row {
  line: number;
  values: RowValues;
  /** The row's cells, compared to find a copy-pasted row. */
  fingerprint: string;
  /** Columns whose cell was refused. */
  refused: ReadonlySet<ColumnName>;
}

// Spreadsheet text compares as a person reads it: `ma` is `MA`, `12  Elm St` is `12 Elm St`.
function comparable(value: string | number): string {
  return typeof value === 'number' ? String(value) : value.replace(/\s+/g, ' ').toLowerCase();
}

function fingerprintOf(cells: RowCells): string {
  return Object.values(cells)
    .map((cell) => comparable(cell.trim()))
    .join('\u0000');
}

function shown(value: string | number): string {
  return typeof value === 'number' ? `$${value.toLocaleString('en-US')}` : `"${value}"`;
}

/** The household's fields from its rows: the first value given for each. */
type Merged = Map<HouseholdField, { value: string | number; line: number }>;

// A household's fields may be repeated on each row or given once; two different values are a
// mistake (a pasted row from another unit) that must not be resolved by guessing.
function mergeHouseholdFields(key: string, rows: readonly Row[], problems: HouseholdProblem[]): Merged {
  const merged: Merged = new Map();
  for (const { line, values } of rows) {
    for (const field of HOUSEHOLD_FIELDS) {
      const value = values[field];
      if (value === undefined) continue;
      const first = merged.get(field);
      if (first === undefined) {
        merged.set(field, { value, line });
      } else if (comparable(first.value) !== comparable(value)) {
        problems.push({
          kind: 'household_conflict',
          line,
          column: field,
          householdKey: key,
          message: `is ${shown(value)} here but ${shown(first.value)} on line ${first.line} of household "${key}": leave it blank on later rows or repeat the same value`,
        });
      }
    }
  }
  return merged;
}

function textField(merged: Merged, field: Exclude<HouseholdField, 'monthly_rent'>): string | undefined {
  const value = merged.get(field)?.value;
  return typeof value === 'string' ? value : undefined;
}

// Which CSV column a path of the request body comes from, to point a final issue at a cell.
const BODY_PATH_COLUMNS: Readonly<Record<string, ColumnName>> = {
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

function applicantOf(values: RowValues): ApplicantCreateParams {
  const types = values.verification_types ?? [];
  return {
    first_name: values.first_name ?? '',
    last_name: values.last_name ?? '',
    email: values.email ?? '',
    ...(values.phone === undefined ? {} : { phone_number: values.phone }),
    ...(types.length > 0 ? { verifications: types.map((type) => ({ type })) } : {}),
  };
}

/** The household-level checks: copies, repeated applicants, agreeing fields, required fields. */
function checkHousehold(
  key: string,
  rows: readonly Row[],
  settings: Settings,
  problems: HouseholdProblem[],
): { applicants: Row[]; merged: Merged; decisionMaker: string | undefined } {
  const applicants: Row[] = [];
  const copies = new Map<string, number>();
  const emails = new Map<string, number>();
  for (const row of rows) {
    const copied = copies.get(row.fingerprint);
    if (copied !== undefined) {
      problems.push({
        kind: 'duplicate_row',
        line: row.line,
        householdKey: key,
        message: `repeats line ${copied} of household "${key}" (a copy-pasted row?): delete one of them`,
      });
      continue;
    }
    copies.set(row.fingerprint, row.line);
    applicants.push(row);
    const address = row.values.email?.toLowerCase();
    if (address === undefined) continue;
    const earlier = emails.get(address);
    if (earlier === undefined) emails.set(address, row.line);
    else {
      problems.push({
        kind: 'duplicate_applicant',
        line: row.line,
        column: 'email',
        householdKey: key,
        message: `the same applicant (email) is already on line ${earlier} of household "${key}"`,
      });
    }
  }
  const merged = mergeHouseholdFields(key, applicants, problems);
  const first = rows[0]?.line ?? 0;
  for (const field of REQUIRED_HOUSEHOLD_FIELDS) {
    // A refused cell is reported already; "missing" would send the reader looking for a blank.
    if (merged.has(field) || rows.some((row) => row.refused.has(field))) continue;
    problems.push({
      kind: 'missing_household_value',
      line: first,
      column: field,
      householdKey: key,
      message: rows.length > 1 ? `is required on at least one row of household "${key}"` : 'is required',
    });
  }
  const decisionMaker = textField(merged, 'decision_maker') ?? settings.decisionMaker;
  if (decisionMaker === undefined) {
    problems.push({
      kind: 'missing_household_value',
      line: first,
      column: 'decision_maker',
      householdKey: key,
      message: 'is required (or give a default decision maker: decisionMaker, --decision-maker)',
    });
  }
  return { applicants, merged, decisionMaker };
}

function buildHousehold(
  key: string,
  applicants: readonly Row[],
  merged: Merged,
  decisionMaker: string,
  settings: Settings,
  problems: HouseholdProblem[],
): Household | undefined {
  const first = applicants[0]?.line ?? 0;
  const unit = textField(merged, 'unit');
  const rent = merged.get('monthly_rent')?.value;
  const monthlyRent = typeof rent === 'number' ? rent : 0;
  const correlationId = correlationIdFor({
    batchId: settings.batchId,
    householdKey: key,
    emails: applicants.map(({ values }) => values.email ?? ''),
    monthlyRent,
  });
  const body: ApplicantGroupCreateParams = {
    applicants: applicants.map(({ values }) => applicantOf(values)),
    property: {
      name: textField(merged, 'property_name') ?? '',
      street_address: textField(merged, 'street_address') ?? '',
      city: textField(merged, 'city') ?? '',
      state: textField(merged, 'state') ?? '',
      zip_code: textField(merged, 'zip_code') ?? '',
      ...(unit === undefined ? {} : { unit }),
    },
    decision_maker_display_name: decisionMaker,
    monthly_rent: monthlyRent,
    correlation_id: correlationId,
    ...(settings.invitations ? {} : { is_invitation_disabled: true }),
  };
  // The SDK checks the body again before sending; checking here keeps "nothing is sent while
  // any row is bad" true even where its rules are stricter than the cells' (a name's length).
  const check = applicantGroupCreateWireSchema(settings.apiRentUnit).safeParse(body);
  if (check.success) {
    return { key, line: first, lines: applicants.map((row) => row.line), correlationId, body };
  }
  for (const issue of check.error.issues) {
    const [head, index] = issue.path;
    const row = head === 'applicants' && typeof index === 'number' ? applicants[index] : undefined;
    const leaf = issue.path.findLast((part): part is string => typeof part === 'string');
    problems.push({
      kind: 'invalid_body',
      line: row?.line ?? first,
      column: leaf === undefined ? undefined : BODY_PATH_COLUMNS[leaf],
      householdKey: key,
      message: issue.message,
    });
  }
  return undefined;
}

function countsOf(problems: readonly HouseholdProblem[]): Record<HouseholdProblemKind, number> {
  const counts: Record<HouseholdProblemKind, number> = {
    csv_syntax: 0,
    header: 0,
    no_rows: 0,
    field_count: 0,
    invalid_value: 0,
    missing_household_value: 0,
    household_conflict: 0,
    duplicate_row: 0,
    duplicate_applicant: 0,
    invalid_body: 0,
  };
  for (const problem of problems) counts[problem.kind] += 1;
  return counts;
}

const COLUMN_ORDER = new Map<string, number>(HOUSEHOLD_COLUMNS.map((column, index) => [column.name, index]));

function byPlace(a: HouseholdProblem, b: HouseholdProblem): number {
  const columnOf = (problem: HouseholdProblem) =>
    problem.column === undefined ? -1 : (COLUMN_ORDER.get(problem.column) ?? -1);
  return a.line - b.line || columnOf(a) - columnOf(b);
}

function finish(
  households: Household[],
  invalid: InvalidHousehold[],
  problems: HouseholdProblem[],
  columns: HouseholdColumns,
): ParsedHouseholds {
  // A stable sort: a line's problems keep the order they were found in within a column.
  problems.sort(byPlace);
  return { households, invalid, problems, counts: countsOf(problems), columns };
}

function tableOf(csvText: string): CsvTable | HouseholdProblem {
  try {
    return readCsvText(csvText);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    return { kind: 'csv_syntax', line: error.line ?? 1, message: error.message };
  }
}

/**
 * Reads the text of a households CSV (docs/households.md: one row per applicant, rows sharing a
 * `household_key` form one applicant group) into one create body per household, and lists every
 * problem in one pass: each refused cell, and for every household (also one with a bad row) its
 * rows that disagree, repeat each other or repeat an applicant, and its missing fields. A
 * household with any problem is left out whole (in `invalid`); the others are in `households`,
 * each body carrying its deterministic correlation id, the same the command line gives it, so a
 * script's creates and the command line's find each other.
 *
 * @param csvText The file's text, as a spreadsheet exports it (a byte-order mark and CRLF line
 *   ends are fine).
 * @throws ConfigurationError when an option is wrong (an unknown `defaultCountry`, say): a problem
 *   of the caller, not of the file.
 */
export function parseHouseholds(csvText: string, options: ParseHouseholdsOptions = {}): ParsedHouseholds {
  if (typeof csvText !== 'string') throw new ConfigurationError('parseHouseholds takes the CSV as text.');
  const settings = settingsOf(options);
  const problems: HouseholdProblem[] = [];
  const noColumns: HouseholdColumns = { found: [], missing: [], duplicated: [], unknown: [] };
  const table = tableOf(csvText);
  if ('kind' in table) return finish([], [], [table], noColumns);
  const { columns, positions } = readHeader(table.header);
  if (columns.missing.length > 0 || columns.duplicated.length > 0) {
    for (const name of columns.missing) {
      problems.push({
        kind: 'header',
        line: 1,
        column: name,
        message: 'is a required column; the header lacks it',
      });
    }
    for (const name of new Set(columns.duplicated)) {
      problems.push({ kind: 'header', line: 1, column: name, message: 'is named twice in the header' });
    }
    return finish([], [], problems, columns);
  }
  if (table.records.length === 0) {
    return finish(
      [],
      [],
      [{ kind: 'no_rows', line: 2, message: 'the file has a header but no rows' }],
      columns,
    );
  }

  // Rows by household key, in file order; keys of households with a row that cannot be used.
  const byKey = new Map<string, Row[]>();
  const badKeys = new Set<string>();
  const keyIndex = positions.indexOf('household_key');
  for (const record of table.records) {
    if (record.values.length !== positions.length) {
      // The key cell is a best guess on a misaligned row: enough to hold its household back.
      const guess = record.values[keyIndex]?.trim() ?? '';
      if (guess !== '') {
        badKeys.add(guess);
        if (!byKey.has(guess)) byKey.set(guess, []);
      }
      problems.push({
        kind: 'field_count',
        line: record.line,
        householdKey: guess === '' ? undefined : guess,
        message: `has ${record.values.length} fields, the header has ${positions.length} (a missing comma or an unquoted comma?)`,
      });
      continue;
    }
    const cells = cellsOf(record.values, positions);
    const { values, problems: cellProblems } = readRow(cells, settings.defaultCountry);
    const key = cells.household_key.trim();
    problems.push(...cellProblems.map((problem: CellProblem) => cellProblem(record.line, key, problem)));
    if (key === '') continue;
    if (cellProblems.length > 0) badKeys.add(key);
    const rows = byKey.get(key) ?? [];
    rows.push({
      line: record.line,
      values,
      fingerprint: fingerprintOf(cells),
      refused: new Set(cellProblems.map((problem) => problem.column)),
    });
    byKey.set(key, rows);
  }

  const households: Household[] = [];
  const invalid: InvalidHousehold[] = [];
  for (const [key, rows] of byKey) {
    const before = problems.length;
    // Misaligned rows only: nothing of the household can be read to check.
    const checked = rows.length > 0 ? checkHousehold(key, rows, settings, problems) : undefined;
    const household =
      checked === undefined ||
      badKeys.has(key) ||
      problems.length > before ||
      checked.decisionMaker === undefined
        ? undefined
        : buildHousehold(key, checked.applicants, checked.merged, checked.decisionMaker, settings, problems);
    if (household) households.push(household);
    else {
      const lines = table.records
        .filter((record) => record.values[keyIndex]?.trim() === key)
        .map((record) => record.line);
      invalid.push({ key, lines });
    }
  }
  return finish(households, invalid, problems, columns);
}

function cellProblem(line: number, key: string, problem: CellProblem): HouseholdProblem {
  return {
    kind: 'invalid_value',
    line,
    column: problem.column,
    householdKey: key === '' ? undefined : key,
    message: problem.message,
  };
}
