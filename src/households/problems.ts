/** The problems `parseHouseholds` reports: their kinds, their order, their counts. */
import { type ColumnName, HOUSEHOLD_COLUMNS } from './columns.js';

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
  /** What kind of problem it is (counted in `ParsedHouseholds.counts`). */
  kind: HouseholdProblemKind;
  /** 1-based line of the file, as an editor numbers it; the header is line 1. */
  line: number;
  /** The column at fault, when one is. */
  column?: ColumnName | undefined;
  /** The household the row belongs to, when it has a key. */
  householdKey?: string | undefined;
  /**
   * What is wrong, ending with the refused value (`; got "2134"`) when a cell was refused: an email
   * or phone masked (`"j***@example..com"`, `"(***) ***-**23"`), since error output ends up in
   * tickets.
   */
  message: string;
  /** The refused cell as the message quotes it (JSON-quoted, masked for an email or phone); absent for a blank cell and for problems of a whole row or household. */
  value?: string | undefined;
}

/** How many problems of each kind. */
export function countsOf(problems: readonly HouseholdProblem[]): Record<HouseholdProblemKind, number> {
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

/** Orders problems by line, then by column in the documented order. */
export function byPlace(a: HouseholdProblem, b: HouseholdProblem): number {
  const columnOf = (problem: HouseholdProblem) =>
    problem.column === undefined ? -1 : (COLUMN_ORDER.get(problem.column) ?? -1);
  return a.line - b.line || columnOf(a) - columnOf(b);
}
