/**
 * A households CSV too large to hold, read as a stream, twice. The checking reading lists every
 * problem (as `parseHouseholds` does) and keeps of each valid household only a summary: its key,
 * lines and correlation id, and what the comparator of "is this group this household?" reads
 * (emails, rent, unit). A later reading, `bodies()`, streams the file again and yields each
 * household's full create body once its last row is read. Rows are held only while their
 * household is open (its last row not yet read): a file whose households' rows are together holds
 * one household's rows at a time, whatever its size.
 */
import type { Household } from './body.js';
import type { ColumnName } from './columns.js';
import { type CsvRecord, CsvSyntaxError, streamCsvRecords } from './csv-text.js';
import { type GatheredFix, gatherRecord, keyOf, type OpenHousehold, settleHousehold } from './gather.js';
import {
  finish,
  type HouseholdColumns,
  type HouseholdFix,
  headerProblems,
  type InvalidHousehold,
  noRows,
  type ParsedHouseholds,
  type ParseHouseholdsOptions,
  readHeader,
  type Settings,
  settingsOf,
} from './parse.js';
import type { HouseholdProblem } from './problems.js';

/**
 * The households CSV, read from its start on each call (the file is read twice): for a file,
 * `() => createReadStream(path)`; an array of strings or buffers works too.
 */
export type HouseholdsSource = () => AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

/** Options of {@link checkHouseholds}: those of `parseHouseholds`, and a hook. */
export interface CheckHouseholdsOptions extends ParseHouseholdsOptions {
  /**
   * Called with each valid household, body included, as the checking reading completes it (in
   * the order households' last rows come in the file). The body is not kept after the call.
   */
  onHousehold?: ((household: Household) => void) | undefined;
}

/**
 * What the comparator of "is this group this household?" reads of a household's body (the
 * applicants' emails, the rent in dollars, the unit), shaped as that body is: pass it where a body
 * is compared with a group.
 */
export interface HouseholdMatch {
  /** The applicants' emails, as in the body. */
  applicants: { email: string }[];
  /** The household's rent in dollars, as in the body. */
  monthly_rent: number;
  /** The unit, when the household has one. */
  property: { unit?: string };
}

/** A valid household as the checking reading keeps it: no applicant's name or phone, no body. */
export interface HouseholdSummary {
  /** The `household_key` of its rows. */
  key: string;
  /** Line of its first row (the header is line 1). */
  line: number;
  /** Lines of its rows (one per applicant). */
  lines: number[];
  /** The correlation id its body carries. */
  correlationId: string;
  /** What the comparator reads of its body. */
  match: HouseholdMatch;
}

/** What {@link checkHouseholds} found: every problem, a summary of each valid household, and a way to their bodies. */
export interface CheckedHouseholds extends Omit<ParsedHouseholds, 'households'> {
  /** The valid households, in file order (of their first rows), as summaries. */
  households: HouseholdSummary[];
  /**
   * Reads the file again and yields the full household of each summary whose correlation id is in
   * `wanted` (every valid household without it), as its last row is read. Rows of other households
   * are not checked again. `wanted` is read when `bodies` is called, not kept: it may change after.
   *
   * @throws HouseholdsChangedError when the file no longer holds what the check found (it was
   *   edited in between): a household with another correlation id, a problem, or none at all.
   */
  bodies(wanted?: ReadonlySet<string>): AsyncGenerator<Household>;
}

/** The file read by `bodies()` is not the file {@link checkHouseholds} checked: it was changed in between. */
export class HouseholdsChangedError extends Error {
  override name = 'HouseholdsChangedError';
  /** The household found changed, when one is named. */
  readonly householdKey: string | undefined;

  /** @param householdKey The household found changed, when one is named. */
  constructor(message: string, householdKey?: string) {
    super(message);
    this.householdKey = householdKey;
  }
}

const NO_COLUMNS: HouseholdColumns = { found: [], missing: [], duplicated: [], unknown: [] };

/**
 * A summary as it is held: flat fields, a few dozen bytes beside its strings, for 100,000 of them
 * (docs/benchmarks.md, "Scale, round 2"). `lines` and `match` are built when read.
 */
class HeldSummary implements HouseholdSummary {
  readonly key: string;
  readonly line: number;
  readonly correlationId: string;

  /** Lines of its rows after the first (none for one applicant). */
  readonly #more: readonly number[] | undefined;
  /** The applicants' emails, one a line (an email has no line break). */
  readonly #emails: string;
  readonly #rent: number;
  readonly #unit: string | undefined;
  /** Line of its last row: where the body reading completes it. */
  readonly #lastLine: number;

  constructor(household: Household, lastLine: number) {
    const { body, lines } = household;
    this.key = household.key;
    this.line = household.line;
    this.correlationId = household.correlationId;

    this.#more = lines.length > 1 ? lines.slice(1) : undefined;
    this.#emails = body.applicants.map((applicant) => applicant.email).join('\n');
    this.#rent = body.monthly_rent ?? 0;
    this.#unit = body.property.unit;
    this.#lastLine = lastLine;
  }

  /** Line of its last row: where the body reading completes it. */
  get lastLine(): number {
    return this.#lastLine;
  }

  get lines(): number[] {
    return [this.line, ...(this.#more ?? [])];
  }

  get match(): HouseholdMatch {
    return {
      applicants: this.#emails.split('\n').map((email) => ({ email })),
      monthly_rent: this.#rent,
      property: this.#unit === undefined ? {} : { unit: this.#unit },
    };
  }

  /** What `JSON.stringify` writes: the fields as the interface names them. */
  toJSON(): HouseholdSummary {
    return {
      key: this.key,
      line: this.line,
      lines: this.lines,
      correlationId: this.correlationId,
      match: this.match,
    };
  }
}

/** The first reading: the header, and the line of each key's last record (let go once checked). */
interface Layout {
  header: string[];
  positions: (ColumnName | undefined)[];
  keyIndex: number;
  columns: HouseholdColumns;
  lastLine: Map<string, number>;
}

/** Where a household's rows end: the line of its last record, by its key. */
type LastLineOf = (key: string) => number | undefined;

function syntaxProblem(error: CsvSyntaxError): HouseholdProblem {
  return { kind: 'csv_syntax', line: error.line ?? 1, message: error.message };
}

async function readLayout(source: HouseholdsSource): Promise<Layout | ParsedHouseholds> {
  let layout: Layout | undefined;
  let records = 0;
  try {
    for await (const record of streamCsvRecords(source())) {
      if (layout === undefined) {
        const { columns, positions } = readHeader(record.values);
        const header = headerProblems(columns);
        if (header.length > 0) return finish([], [], header, columns);
        const keyIndex = positions.indexOf('household_key');
        layout = { header: record.values, positions, keyIndex, columns, lastLine: new Map() };
        continue;
      }
      records++;
      const key = keyOf(record, layout.keyIndex);
      if (key !== '') layout.lastLine.set(key, record.line);
    }
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    return finish([], [], [syntaxProblem(error)], layout?.columns ?? NO_COLUMNS);
  }
  // streamCsvRecords throws on an empty file: a layout is there.
  if (layout === undefined) return finish([], [], [], NO_COLUMNS);
  if (records === 0) return finish([], [], [noRows()], layout.columns);
  return layout;
}

/**
 * Reads the data records of `source` again, gathering those `take` accepts into households and
 * yielding each once its last record (by `lastLineOf`) is read; households left open at the end
 * (the file changed since the layout was read) are yielded then.
 */
async function* gathered(
  source: HouseholdsSource,
  layout: Layout,
  settings: Settings,
  problems: HouseholdProblem[],
  fixes: GatheredFix[],
  take: (key: string) => boolean,
  lastLineOf: LastLineOf,
): AsyncGenerator<{ key: string; household: OpenHousehold }> {
  const open = new Map<string, OpenHousehold>();
  const openOf = (key: string): OpenHousehold => {
    let household = open.get(key);
    if (household === undefined) {
      household = { rows: [], lines: [], bad: false };
      open.set(key, household);
    }
    return household;
  };
  let header = true;
  for await (const record of streamCsvRecords(source())) {
    if (header) {
      header = false;
      if (!sameHeader(record, layout))
        throw new HouseholdsChangedError('the header changed since the file was checked');
      continue;
    }
    if (!take(keyOf(record, layout.keyIndex))) continue;
    const key = gatherRecord(record, layout.positions, settings, openOf, problems, fixes);
    const household = open.get(key);
    if (household === undefined || lastLineOf(key) !== record.line) continue;
    open.delete(key);
    yield { key, household };
  }
  for (const [key, household] of open) yield { key, household };
}

function sameHeader(record: CsvRecord, layout: Layout): boolean {
  return (
    record.values.length === layout.header.length &&
    record.values.every((value, index) => value === layout.header[index])
  );
}

/**
 * Checks a households CSV read as a stream, for files too large to hold: every problem, as
 * {@link parseHouseholds} lists them (the same checks, in one pass over the rows: each problem
 * with its line and column), and of each valid household a {@link HouseholdSummary} instead of
 * its body. The file is read twice (once for where each household's rows end, once to check
 * them); a household's rows are held only until its last row is read. `bodies()` reads it a
 * third time for the bodies to send.
 *
 * @param source Opens the file from its start: `() => createReadStream('households.csv')`.
 * @throws ConfigurationError when an option is wrong, before anything is read.
 */
export async function checkHouseholds(
  source: HouseholdsSource,
  options: CheckHouseholdsOptions = {},
): Promise<CheckedHouseholds> {
  const settings = settingsOf(options);
  const { onHousehold } = options;
  const layout = await readLayout(source);
  const noBodies = async function* (): AsyncGenerator<Household> {};
  if (!('lastLine' in layout)) return { ...layout, households: [], bodies: noBodies };
  const problems: HouseholdProblem[] = [];
  const fixes: HouseholdFix[] = [];
  const summaries: HeldSummary[] = [];
  const invalid: InvalidHousehold[] = [];
  // Read through `layout`, never kept in a variable: the `bodies` closure below shares this
  // function's variables, and would keep the map of every key alive through the creates.
  try {
    for await (const { key, household } of gathered(
      source,
      layout,
      settings,
      problems,
      fixes,
      () => true,
      (key) => layout.lastLine.get(key),
    )) {
      const built = settleHousehold(key, household, settings, problems);
      if (built === undefined) invalid.push({ key, lines: household.lines });
      else {
        summaries.push(new HeldSummary(built, layout.lastLine.get(key) ?? 0));
        onHousehold?.(built);
      }
    }
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    return { ...finish([], [], [syntaxProblem(error)], layout.columns), households: [], bodies: noBodies };
  }
  // Households settle in the order of their last rows; they are listed by their first.
  summaries.sort((a, b) => a.line - b.line);
  // The body reading finds each household's last line in its summary: the first reading's map of
  // every key is let go (docs/benchmarks.md, "Scale, round 4").
  layout.lastLine = new Map();
  invalid.sort((a, b) => (a.lines[0] ?? 0) - (b.lines[0] ?? 0));
  const result = finish([], invalid, problems, layout.columns, fixes);
  return {
    ...result,
    households: summaries,
    bodies: (wanted) => {
      // Made now, so the reading holds the summaries it still has to yield, not `wanted`.
      const byKey = new Map<string, HeldSummary>();
      for (const summary of summaries) {
        if (wanted === undefined || wanted.has(summary.correlationId)) byKey.set(summary.key, summary);
      }
      return bodiesOf(source, layout, settings, byKey);
    },
  };
}

async function* bodiesOf(
  source: HouseholdsSource,
  layout: Layout,
  settings: Settings,
  byKey: Map<string, HeldSummary>,
): AsyncGenerator<Household> {
  if (byKey.size === 0) return;
  // Problems of households checked already: none, unless the file changed (then the body differs).
  const problems: HouseholdProblem[] = [];
  const fixes: GatheredFix[] = [];
  try {
    for await (const { key, household } of gathered(
      source,
      layout,
      settings,
      problems,
      fixes,
      (k) => byKey.has(k),
      (k) => byKey.get(k)?.lastLine,
    )) {
      const summary = byKey.get(key);
      const built = settleHousehold(key, household, settings, problems);
      problems.length = 0;
      fixes.length = 0;
      if (summary === undefined || built?.correlationId !== summary.correlationId) {
        throw new HouseholdsChangedError(
          `household "${key}" (line ${summary?.line ?? household.lines[0]}) changed since the file was checked`,
          key,
        );
      }
      byKey.delete(key);
      yield built;
    }
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    throw new HouseholdsChangedError(`the file changed since it was checked: ${error.message}`);
  }
  const [missing] = byKey.values();
  if (missing !== undefined) {
    throw new HouseholdsChangedError(
      `household "${missing.key}" (line ${missing.line}) is no longer in the file it was checked in`,
      missing.key,
    );
  }
}
