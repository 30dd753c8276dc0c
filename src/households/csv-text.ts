/**
 * CSV text into a header and records that know their line numbers. Parsing is left to csv-parse:
 * quoted fields, embedded commas and newlines, doubled quotes, CRLF files from spreadsheets and
 * byte-order marks all have edge cases a hand-written splitter gets wrong.
 */
import { pipeline, Readable } from 'node:stream';
import { CsvError, parse as parseStream } from 'csv-parse';
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

/** The options both readers give csv-parse. */
const PARSE_OPTIONS = { bom: true, raw: true, skip_empty_lines: true, relax_column_count: true } as const;

/**
 * Line numbers from the raw text of each record, because a record may span lines (a quoted
 * address with a line break) and skipped blank lines still count: the numbers must match what the
 * user sees in an editor. One per reading.
 */
class LineCounter {
  #breaksBefore = 0;

  /** The line `raw` starts on; counts its breaks for the next. */
  lineOf(raw: string): number {
    const leading = countBreaks(LEADING_BREAKS.exec(raw)?.[0] ?? '');
    const line = this.#breaksBefore + leading + 1;
    this.#breaksBefore += countBreaks(raw);
    return line;
  }

  /** csv-parse's error as a {@link CsvSyntaxError} naming the line to fix. */
  syntaxError(error: CsvError): CsvSyntaxError {
    // csv-parse reports an unclosed quote at the end of the text; the line to fix is where the
    // quote opened: the first line of the record it began (its raw text follows the last record).
    const { raw } = error;
    if (error.code === 'CSV_QUOTE_NOT_CLOSED' && typeof raw === 'string') {
      const line = this.#breaksBefore + countBreaks(LEADING_BREAKS.exec(raw)?.[0] ?? '') + 1;
      return new CsvSyntaxError(`Quote Not Closed: the quote opened at line ${line} is never closed`, line);
    }
    const line = typeof error.lines === 'number' ? error.lines : undefined;
    return new CsvSyntaxError(error.message, line);
  }
}

const isBlank = (record: readonly string[]): boolean => record.every((field) => field.trim() === '');

/**
 * Reads `text` as CSV. Line numbers are counted from the raw text of each record (see
 * `LineCounter`).
 *
 * @throws CsvSyntaxError when the text is not CSV.
 */
export function readCsvText(text: string): CsvTable {
  let header: string[] | undefined;
  const records: CsvRecord[] = [];
  const lines = new LineCounter();
  try {
    parse(text, {
      ...PARSE_OPTIONS,
      // Each record as it is read, so the lines before a syntax error are counted when it comes.
      on_record: (item: unknown) => {
        if (!isParserRecord(item)) return null;
        const { record, raw } = item;
        const line = lines.lineOf(raw);
        if (header === undefined) header = record;
        else if (!isBlank(record)) records.push({ line, values: record });
        return null;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw lines.syntaxError(error);
  }
  if (header === undefined) throw new CsvSyntaxError('the file is empty: expected a header line', 1);
  return { header, records };
}

/** The bytes or text of a CSV, in chunks (a file's read stream, or an array of strings). */
export type CsvChunks = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

/**
 * Reads `chunks` as CSV, one record at a time, with the line numbers {@link readCsvText} gives:
 * the header first (line 1), then each record that is not blank. Holds one record at a time (and
 * csv-parse's buffer), whatever the size of the input.
 *
 * @throws CsvSyntaxError when the text is not CSV (after the records before the fault), or when
 *   it is empty.
 */
export async function* streamCsvRecords(chunks: CsvChunks): AsyncGenerator<CsvRecord> {
  const counter = new LineCounter();
  // Lines are counted as the parser reads, not as the loop below takes records: a syntax error
  // comes while records before it still wait in the stream's buffer. Each record kept queues its
  // line, taken in the same order below.
  const lines: number[] = [];
  let header = true;
  const parser = parseStream({
    ...PARSE_OPTIONS,
    // With `raw: true` the item is `{ record, raw }`, whatever csv-parse's type says.
    on_record: (item: string[]) => {
      if (!isParserRecord(item)) return null;
      const line = counter.lineOf(item.raw);
      if (!header && isBlank(item.record)) return null;
      header = false;
      lines.push(line);
      return item;
    },
  });
  // An input that fails (a read error) destroys the parser with its error, which the loop throws.
  pipeline(Readable.from(chunks), parser, () => {});
  try {
    for await (const item of parser) {
      const line = lines.shift();
      if (isParserRecord(item) && line !== undefined) yield { line, values: item.record };
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw counter.syntaxError(error);
  } finally {
    parser.destroy();
  }
  if (header) throw new CsvSyntaxError('the file is empty: expected a header line', 1);
}
