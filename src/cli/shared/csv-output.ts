/**
 * Every CSV the command line writes goes through here, because operators open them in
 * spreadsheets: a cell from the server that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return would run as a formula (`=HYPERLINK(...)` exfiltrating the row, `@SUM(...)`), so
 * csv-stringify's `escape_formulas` prefixes such cells with a quote, which spreadsheets show as
 * text. Other control characters (a carriage return included) are made visible (see
 * `terminal.ts`): the file may be `cat`-ed to a terminal. Line feeds are quoted by CSV.
 */
import { stringify } from 'csv-stringify/sync';
import { safeCsvText } from './terminal.js';

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return safeCsvText(String(value));
}

/**
 * `rows` as CSV text, in the order of `columns`, formula-leading cells neutralised. `header`
 * writes the header line first (also when there are no rows).
 */
export function toCsv<T extends object>(
  rows: readonly T[],
  columns: readonly (keyof T & string)[],
  header: boolean,
): string {
  const records = rows.map((row) => columns.map((column) => cellText(row[column])));
  return stringify(records, {
    header,
    columns: [...columns],
    escape_formulas: true,
  });
}
