/**
 * The checks of a household as a whole, over the rows that share its key: copied rows, an
 * applicant twice, household fields that disagree, required fields given on no row. A household
 * with a bad row is checked too, with the cells of its rows that were valid, so one pass finds
 * everything.
 */
import type { ColumnName } from './columns.js';
import type { HouseholdProblem } from './problems.js';
import type { RowCells, RowValues } from './rows.js';

/** A column that describes the whole household. */
export type HouseholdField = Extract<
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

/** One row of a household: its line, its cells as read, what was valid, and its own problems. */
export interface Row {
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

/** The row's cells as compared to find a copy-pasted row. */
export function fingerprintOf(cells: RowCells): string {
  return Object.values(cells)
    .map((cell) => comparable(cell.trim()))
    .join('\u0000');
}

function shown(value: string | number): string {
  return typeof value === 'number' ? `$${value.toLocaleString('en-US')}` : `"${value}"`;
}

/** The household's fields from its rows: the first value given for each. */
export type Merged = Map<HouseholdField, { value: string | number; line: number }>;

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

/** A text household field's merged value. */
export function textField(
  merged: Merged,
  field: Exclude<HouseholdField, 'monthly_rent'>,
): string | undefined {
  const value = merged.get(field)?.value;
  return typeof value === 'string' ? value : undefined;
}

/** The household-level checks: copies, repeated applicants, agreeing fields, required fields. */
export function checkHousehold(
  key: string,
  rows: readonly Row[],
  defaultDecisionMaker: string | undefined,
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
  const decisionMaker = textField(merged, 'decision_maker') ?? defaultDecisionMaker;
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
