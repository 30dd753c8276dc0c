/**
 * CSV text into a header and records that know their line numbers. Parsing is left to csv-parse:
 * quoted fields, embedded commas and newlines, doubled quotes, CRLF files from spreadsheets and
 * byte-order marks all have edge cases a hand-written splitter gets wrong.
 */
import { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';

/** One data record and the line of the file it starts on (1-based; the header is line 1). */
export interface CsvRecord {
  line: number;
  values: string[];
}

/** A parsed CSV text. */
export interface CsvTable {
  /** Column names as written in the first line. */
  header: string[];
  /** Data records, blank ones (every field empty, as spreadsheets export trailing rows) left out. */
  records: CsvRecord[];
}

/** The text is not well-formed CSV (an unclosed quote, for example). */
export class CsvSyntaxError extends Error {
  override name = 'CsvSyntaxError';
  /** Line the problem was found on, when the parser said. */
  readonly line: number | undefined;

  constructor(message: string, line: number | undefined) {
    super(message);
    this.line = line;
  }
}

const LINE_BREAK = /\r\n|\r|\n/g;
const LEADING_BREAKS = /^(?:\r\n|\r|\n)*/;

function countBreaks(text: string): number {
  return text.match(LINE_BREAK)?.length ?? 0;
}

// With `raw: true` the parser yields `{ record, raw }`; checked rather than cast.
function isParserRecord(value: unknown): value is { record: string[]; raw: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'record' in value &&
    'raw' in value &&
    Array.isArray(value.record) &&
    value.record.every((field) => typeof field === 'string') &&
    typeof value.raw === 'string'
  );
}

/**
 * Reads `text` as CSV. Line numbers are counted from the raw text of each record, because a
 * record may span lines (a quoted address with a line break) and skipped blank lines still count:
 * the numbers must match what the user sees in an editor.
 *
 * @throws CsvSyntaxError when the text is not CSV.
 */
export function readCsvText(text: string): CsvTable {
  let header: string[] | undefined;
  const records: CsvRecord[] = [];
  let breaksBefore = 0;
  try {
    parse(text, {
      bom: true,
      raw: true,
      skip_empty_lines: true,
      relax_column_count: true,
      // Each record as it is read, so the lines before a syntax error are counted when it comes.
      on_record: (item: unknown) => {
        if (!isParserRecord(item)) return null;
        const { record, raw } = item;
        const leading = countBreaks(LEADING_BREAKS.exec(raw)?.[0] ?? '');
        const line = breaksBefore + leading + 1;
        breaksBefore += countBreaks(raw);
        if (header === undefined) header = record;
        else if (record.some((field) => field.trim() !== '')) records.push({ line, values: record });
        return null;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // csv-parse reports an unclosed quote at the end of the text; the line to fix is where the
    // quote opened: the first line of the record it began (its raw text follows the last record).
    const { raw } = error;
    if (error.code === 'CSV_QUOTE_NOT_CLOSED' && typeof raw === 'string') {
      const line = breaksBefore + countBreaks(LEADING_BREAKS.exec(raw)?.[0] ?? '') + 1;
      throw new CsvSyntaxError(`Quote Not Closed: the quote opened at line ${line} is never closed`, line);
    }
    const line = typeof error.lines === 'number' ? error.lines : undefined;
    throw new CsvSyntaxError(error.message, line);
  }
  if (header === undefined) throw new CsvSyntaxError('the file is empty: expected a header line', 1);
  return { header, records };
}
