/** How `groups create` words the problems `parseHouseholds` finds: one line each, and a count of each kind. */
import {
  HOUSEHOLD_PROBLEM_KINDS,
  type HouseholdProblem,
  type HouseholdProblemKind,
} from 'applicant-verification/households';

/** `line 5, column email: is not a valid email address`. */
export function problemLine(problem: HouseholdProblem): string {
  const column = problem.column === undefined ? '' : `, column ${problem.column}`;
  return `line ${problem.line}${column}: ${problem.message}`;
}

// The kinds a summary names, in the words a person fixing the file uses.
const KIND_WORDS: Readonly<Record<HouseholdProblemKind, string>> = {
  csv_syntax: 'CSV syntax error(s)',
  header: 'header problem(s)',
  no_rows: 'empty file',
  field_count: 'row(s) with the wrong number of fields',
  invalid_value: 'invalid value(s)',
  missing_household_value: 'missing household value(s)',
  household_conflict: 'conflicting household value(s)',
  duplicate_row: 'duplicate row(s)',
  duplicate_applicant: 'applicant(s) listed twice in a household',
  invalid_body: 'value(s) the API refuses',
};

/**
 * `12 problem(s) on 9 line(s) of households.csv: 6 invalid value(s) (phone 4, email 2), 3
 * conflicting household value(s) (monthly_rent 2, state 1), 2 duplicate row(s), ...`: every kind
 * counted, and within a kind the columns, so the first fix to make is the biggest.
 */
export function describeProblems(problems: readonly HouseholdProblem[], shown: string): string {
  const parts = HOUSEHOLD_PROBLEM_KINDS.flatMap((kind) => {
    const found = problems.filter((problem) => problem.kind === kind);
    if (found.length === 0) return [];
    const columns = new Map<string, number>();
    for (const { column } of found)
      if (column !== undefined) columns.set(column, (columns.get(column) ?? 0) + 1);
    const detail = [...columns]
      .sort((a, b) => b[1] - a[1])
      .map(([column, count]) => `${column} ${count}`)
      .join(', ');
    return `${found.length} ${KIND_WORDS[kind]}${detail === '' ? '' : ` (${detail})`}`;
  });
  const lines = new Set(problems.map((problem) => problem.line)).size;
  return `${problems.length} problem(s) on ${lines} line(s) of ${shown}: ${parts.join(', ')}`;
}
