/**
 * From the text of a households CSV to create bodies: the header is mapped to the documented
 * columns, each cell is checked, rows are gathered into households by key, each household's rows
 * are checked against each other, and each household becomes one applicant-group body with its
 * correlation id. Every problem is collected (none stops the others, and a household with a bad
 * row is still checked as a household), so one pass lists all of them.
 */
import type { CountryCode } from 'libphonenumber-js/min';
import { ConfigurationError } from '../core/options.js';
import { isRentUnit, type RentUnit } from '../schemas/rent.js';
import type { Household } from './body.js';
import { type ColumnName, HOUSEHOLD_COLUMNS, isColumnName, normalizeColumnName } from './columns.js';
import { CsvSyntaxError, type CsvTable, readCsvText } from './csv-text.js';
import { type GatherSettings, gatherRecord, type OpenHousehold, settleHousehold } from './gather.js';
import { checkDefaultCountry } from './phone.js';
import { byPlace, countsOf, type HouseholdProblem, type HouseholdProblemKind } from './problems.js';

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
  /**
   * `true` reads a ZIP code of three or four digits (`2134`, what a spreadsheet leaves of `02134`
   * once the column was read as numbers) as the five-digit ZIP padded with zeros, and lists each
   * in `fixes` (`--pad-zip-codes`). Default `false`: such a ZIP is a problem naming the likely fix.
   */
  padZipCodes?: boolean | undefined;
}

/** A cell read otherwise than written, because an option asked for it (`padZipCodes`). */
export interface HouseholdFix {
  /** 1-based line of the file. */
  line: number;
  /** The column of the cell. */
  column: ColumnName;
  /** The household the row belongs to. */
  householdKey: string;
  /** The cell as written (`2134`). */
  from: string;
  /** What the body holds instead (`02134`). */
  to: string;
}

/** A household left out because it has a problem: never created with some of its applicants missing. */
export interface InvalidHousehold {
  /** Its `household_key`. */
  key: string;
  /** Lines of all its rows. */
  lines: number[];
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
  /** Each cell read otherwise than written because an option asked for it (`padZipCodes`), by line. */
  fixes: HouseholdFix[];
}

/** The options, checked. */
export interface Settings extends GatherSettings {
  defaultCountry: CountryCode | undefined;
  padZipCodes: boolean;
}

/** Checks the options. @throws ConfigurationError naming a wrong one. */
export function settingsOf(options: ParseHouseholdsOptions): Settings {
  const {
    batchId = '',
    decisionMaker,
    invitations = true,
    defaultCountry,
    apiRentUnit = 'dollars',
    padZipCodes = false,
  } = options;
  if (typeof padZipCodes !== 'boolean') throw new ConfigurationError('padZipCodes must be true or false.');
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
    padZipCodes,
  };
}

/** How the header was read, and the column of each position. */
export function readHeader(header: readonly string[]): {
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

/** The problems of a header without a required column or naming one twice (no row is checked then). */
export function headerProblems(columns: HouseholdColumns): HouseholdProblem[] {
  const problems: HouseholdProblem[] = [];
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
  return problems;
}

/** The problem of a file with a header and no rows. */
export function noRows(): HouseholdProblem {
  return { kind: 'no_rows', line: 2, message: 'the file has a header but no rows' };
}

/** The result of a reading, its problems sorted by place. */
export function finish(
  households: Household[],
  invalid: InvalidHousehold[],
  problems: HouseholdProblem[],
  columns: HouseholdColumns,
  fixes: HouseholdFix[] = [],
): ParsedHouseholds {
  // A stable sort: a line's problems keep the order they were found in within a column.
  problems.sort(byPlace);
  return { households, invalid, problems, counts: countsOf(problems), columns, fixes };
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
  const header = headerProblems(columns);
  if (header.length > 0) return finish([], [], header, columns);
  if (table.records.length === 0) return finish([], [], [noRows()], columns);

  // Households by key, in file order of their first record.
  const byKey = new Map<string, OpenHousehold>();
  const open = (key: string): OpenHousehold => {
    let household = byKey.get(key);
    if (household === undefined) {
      household = { rows: [], lines: [], bad: false };
      byKey.set(key, household);
    }
    return household;
  };
  const fixes: HouseholdFix[] = [];
  for (const record of table.records) gatherRecord(record, positions, settings, open, problems, fixes);

  const households: Household[] = [];
  const invalid: InvalidHousehold[] = [];
  for (const [key, gathered] of byKey) {
    const household = settleHousehold(key, gathered, settings, problems);
    if (household) households.push(household);
    else invalid.push({ key, lines: gathered.lines });
  }
  return finish(households, invalid, problems, columns, fixes);
}
