/**
 * Rows into households, one record at a time: each record's cells are checked as it is read, its
 * row goes to its household (by key), and a household whose rows are all read is checked as a
 * household and built into its body. `parseHouseholds` (the whole text at once) and
 * `checkHouseholds` (a stream, read twice) both gather through here, so they find the same
 * problems and build the same bodies.
 */
import { type BodySettings, buildHousehold, type Household } from './body.js';
import type { ColumnName } from './columns.js';
import type { CsvRecord } from './csv-text.js';
import { checkHousehold, fingerprintOf, type Row } from './household-checks.js';
import type { HouseholdProblem } from './problems.js';
import { type CellProblem, type RowCells, type RowSettings, readRow } from './rows.js';

/** What gathering needs of the options: how cells are read, the default decision maker, the body's settings. */
export interface GatherSettings extends BodySettings, RowSettings {
  decisionMaker: string | undefined;
}

/** A cell read otherwise than written (`padZipCodes`), with where it is. */
export interface GatheredFix {
  line: number;
  column: ColumnName;
  householdKey: string;
  from: string;
  to: string;
}

/** The rows of one household read so far. */
export interface OpenHousehold {
  /** Its rows that could be read (misaligned ones are not). */
  rows: Row[];
  /** The lines of all its records, misaligned ones included. */
  lines: number[];
  /** Whether one of its records has a problem of its own (a refused cell, a wrong field count). */
  bad: boolean;
}

/** The key of a record: its `household_key` cell, trimmed (on a misaligned row, a best guess). */
export function keyOf(record: CsvRecord, keyIndex: number): string {
  return record.values[keyIndex]?.trim() ?? '';
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

function cellProblem(line: number, key: string, problem: CellProblem): HouseholdProblem {
  return {
    kind: 'invalid_value',
    line,
    column: problem.column,
    householdKey: key === '' ? undefined : key,
    message: problem.message,
    ...(problem.value === undefined ? {} : { value: problem.value }),
  };
}

/**
 * Reads one data record into `open` (the household of its key, made when it is the key's first),
 * adding its problems and fixes. Returns the record's key (`''`: a row without one, belonging to no
 * household).
 */
export function gatherRecord(
  record: CsvRecord,
  positions: readonly (ColumnName | undefined)[],
  settings: GatherSettings,
  open: (key: string) => OpenHousehold,
  problems: HouseholdProblem[],
  fixes: GatheredFix[],
): string {
  const keyIndex = positions.indexOf('household_key');
  if (record.values.length !== positions.length) {
    // The key cell is a best guess on a misaligned row: enough to hold its household back.
    const guess = keyOf(record, keyIndex);
    if (guess !== '') {
      const household = open(guess);
      household.bad = true;
      household.lines.push(record.line);
    }
    problems.push({
      kind: 'field_count',
      line: record.line,
      householdKey: guess === '' ? undefined : guess,
      message: `has ${record.values.length} fields, the header has ${positions.length} (a missing comma or an unquoted comma?)`,
    });
    return guess;
  }
  const cells = cellsOf(record.values, positions);
  const { values, problems: cellProblems, fixes: cellFixes } = readRow(cells, settings);
  const key = cells.household_key.trim();
  for (const problem of cellProblems) problems.push(cellProblem(record.line, key, problem));
  for (const fix of cellFixes) fixes.push({ line: record.line, householdKey: key, ...fix });
  if (key === '') return key;
  const household = open(key);
  if (cellProblems.length > 0) household.bad = true;
  household.lines.push(record.line);
  household.rows.push({
    line: record.line,
    values,
    fingerprint: fingerprintOf(cells),
    refused: new Set(cellProblems.map((problem) => problem.column)),
  });
  return key;
}

/**
 * Checks a household whose rows are all read, as a household, and builds its body: `undefined`
 * (its problems added) when it has any problem, its own rows' included.
 */
export function settleHousehold(
  key: string,
  household: OpenHousehold,
  settings: GatherSettings,
  problems: HouseholdProblem[],
): Household | undefined {
  const before = problems.length;
  const { rows } = household;
  // Misaligned rows only: nothing of the household can be read to check.
  if (rows.length === 0) return undefined;
  const checked = checkHousehold(key, rows, settings.decisionMaker, problems);
  if (household.bad || problems.length > before || checked.decisionMaker === undefined) return undefined;
  return buildHousehold(key, checked.applicants, checked.merged, checked.decisionMaker, settings, problems);
}
