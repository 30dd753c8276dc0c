/**
 * `checkHouseholds`: the households CSV read as a stream. It finds what `parseHouseholds` finds
 * (every problem, with its line and column, in one pass), keeps of each valid household only a
 * summary (no row, no applicant's name), and `bodies()` streams the file again: a household's
 * body is yielded once its last row is read, before the rest of the file is.
 */
import { describe, expect, it } from 'vitest';
import {
  checkHouseholds,
  type Household,
  type HouseholdSummary,
  HouseholdsChangedError,
  type HouseholdsSource,
  type ParseHouseholdsOptions,
  parseHouseholds,
} from '../../src/households/index.js';
import { ConfigurationError } from '../../src/index.js';
import { expose } from '../support/exposure.js';
import { HEADER_LINE, row } from './rows.js';

/** The text as a source of chunks of `size` characters (a file's read stream, in small). */
function chunked(text: string, size = 7): HouseholdsSource {
  return function* () {
    for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
  };
}

async function all(households: AsyncIterable<Household>): Promise<Household[]> {
  const found: Household[] = [];
  for await (const household of households) found.push(household);
  return found;
}

/** `checkHouseholds` over `text` in small chunks, checked against `parseHouseholds` of the same text. */
async function bothWays(text: string, options: ParseHouseholdsOptions = {}) {
  const parsed = parseHouseholds(text, options);
  const checked = await checkHouseholds(chunked(text), options);
  for (const problem of checked.problems)
    expose(`line ${problem.line} ${problem.column ?? ''}: ${problem.message}`);
  expect(checked.problems).toEqual(parsed.problems);
  expect(checked.counts).toEqual(parsed.counts);
  expect(checked.columns).toEqual(parsed.columns);
  expect(checked.fixes).toEqual(parsed.fixes);
  expect(checked.invalid).toEqual(parsed.invalid);
  expect(
    checked.households.map(({ key, line, lines, correlationId }) => ({ key, line, lines, correlationId })),
  ).toEqual(
    parsed.households.map(({ key, line, lines, correlationId }) => ({ key, line, lines, correlationId })),
  );
  const bodies = (await all(checked.bodies())).sort((a, b) => a.line - b.line);
  expect(bodies).toEqual(parsed.households);
  return checked;
}

const VALID = [
  HEADER_LINE,
  row('A', 'Ada', 'ada@example.com', { phone: '+1 (415) 555-0101', monthly_rent: '$1,850.00' }),
  row('A', 'Al', 'al@example.com', { property_name: '', monthly_rent: '', unit: '' }),
  row('B', 'Bob', 'bob@example.com', { unit: '' }),
  row('C', 'Cy', 'cy@example.com', { street_address: '12 Elm Street\nBack door' }),
].join('\r\n');

describe('checkHouseholds: the same findings as parseHouseholds', () => {
  it('a valid file: the same households, bodies and correlation ids (CRLF, a BOM, a quoted line break)', async () => {
    const checked = await bothWays(`\uFEFF${VALID}\r\n\r\n`, { batchId: 'r1', invitations: false });
    expect(checked.problems).toEqual([]);
    expect(checked.households.map(({ key, line, lines }) => [key, line, lines])).toEqual([
      ['A', 2, [2, 3]],
      ['B', 4, [4]],
      ['C', 5, [5]],
    ]);
  });

  it('every problem with its line and column, also of households whose rows are apart in the file', async () => {
    const text = [
      HEADER_LINE,
      row('A', 'Ada', 'ada@example.com'),
      row('B', 'Bob', 'bob@example', { phone: '555' }),
      row('A', 'Al', 'al@example.com', { monthly_rent: '1900' }),
      row('C', 'Cy', 'cy@example.com'),
      row('C', 'Cy', 'cy@example.com'),
      row('D', 'Di', 'di@example.com', { zip_code: '2134', state: '' }),
      'E,only,three',
      row('F', 'Fay', 'fay@example.com', { decision_maker: '' }),
      row('A', 'Ann', 'ada@example.com'),
      row('G', 'Gus', 'gus@example.com'),
    ].join('\n');
    const checked = await bothWays(text);
    expect(
      checked.problems.map(({ kind, line, column, householdKey }) => ({ kind, line, column, householdKey })),
    ).toEqual([
      { kind: 'invalid_value', line: 3, column: 'email', householdKey: 'B' },
      { kind: 'invalid_value', line: 3, column: 'phone', householdKey: 'B' },
      { kind: 'household_conflict', line: 4, column: 'monthly_rent', householdKey: 'A' },
      { kind: 'duplicate_row', line: 6, column: undefined, householdKey: 'C' },
      { kind: 'missing_household_value', line: 7, column: 'state', householdKey: 'D' },
      { kind: 'invalid_value', line: 7, column: 'zip_code', householdKey: 'D' },
      { kind: 'field_count', line: 8, column: undefined, householdKey: 'E' },
      { kind: 'missing_household_value', line: 9, column: 'decision_maker', householdKey: 'F' },
      { kind: 'duplicate_applicant', line: 10, column: 'email', householdKey: 'A' },
    ]);
    expect(checked.invalid).toEqual([
      { key: 'A', lines: [2, 4, 10] },
      { key: 'B', lines: [3] },
      { key: 'C', lines: [5, 6] },
      { key: 'D', lines: [7] },
      { key: 'E', lines: [8] },
      { key: 'F', lines: [9] },
    ]);
    expect(checked.households.map((household) => household.key)).toEqual(['G']);
  });

  it.each([
    ['a syntax error', `${HEADER_LINE}\n${row('A', 'Ada', 'ada@example.com')}\n"unclosed,x\n`],
    ['a header without required columns', 'household_key,email\nA,a@example.com\n'],
    ['a header and no rows', `${HEADER_LINE}\n\n`],
    ['an empty file', ''],
  ])('%s: the one problem parseHouseholds reports', async (_name, text) => {
    const checked = await bothWays(text);
    expect(checked.problems.length).toBeGreaterThan(0);
    expect(checked.households).toEqual([]);
    expect(await all(checked.bodies())).toEqual([]);
  });

  it('bytes split inside a character (a file read in chunks): the same bodies', async () => {
    const text = `${[HEADER_LINE, row('A', 'Zoë', 'zoe@example.com', { last_name: 'Müller-Łukasz', city: 'Montréal' })].join('\n')}\n`;
    const bytes = Buffer.from(text, 'utf8');
    for (const size of [1, 2, 3, 5]) {
      const source: HouseholdsSource = function* () {
        for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
      };
      const checked = await checkHouseholds(source);
      expect(checked.problems).toEqual([]);
      expect(await all(checked.bodies())).toEqual(parseHouseholds(text).households);
    }
  });

  it('padded ZIP codes are listed as fixes, by line', async () => {
    const text = [
      HEADER_LINE,
      row('A', 'Ada', 'ada@example.com', { zip_code: '2134' }),
      row('B', 'Bo', 'bo@example.com', { zip_code: '601' }),
    ].join('\n');
    const checked = await bothWays(text, { padZipCodes: true });
    expect(checked.fixes.map(({ line, to }) => [line, to])).toEqual([
      [2, '02134'],
      [3, '00601'],
    ]);
  });

  it('a wrong option is a ConfigurationError before anything is read', async () => {
    let opened = 0;
    const source = () => {
      opened++;
      return [VALID];
    };
    await expect(checkHouseholds(source, { defaultCountry: 'XX' })).rejects.toThrow(ConfigurationError);
    expect(opened).toBe(0);
  });
});

describe('checkHouseholds: bounded holding', () => {
  it('a summary holds the comparator fields only: no row, no name, no phone', async () => {
    const checked = await checkHouseholds(chunked(VALID));
    const [a, b] = checked.households;
    const fields = (summary: HouseholdSummary | undefined) =>
      summary && {
        key: summary.key,
        line: summary.line,
        lines: summary.lines,
        correlationId: summary.correlationId,
        match: summary.match,
      };
    expect(fields(a)).toEqual({
      key: 'A',
      line: 2,
      lines: [2, 3],
      correlationId: expect.stringMatching(/^cli-[0-9a-f]{16}$/),
      match: {
        applicants: [{ email: 'ada@example.com' }, { email: 'al@example.com' }],
        monthly_rent: 1850,
        property: { unit: 'A' },
      },
    });
    expect(b?.match).toEqual({
      applicants: [{ email: 'bob@example.com' }],
      monthly_rent: 1850,
      property: {},
    });
    expect(JSON.stringify(checked.households)).not.toMatch(/Ada|Doe|555|Elm/);
    // Held as flat fields: no row, no body, no array per household but of its extra lines.
    expect(Object.values(a ?? {})).toEqual(['A', 2, expect.stringMatching(/^cli-/)]);
    expect(JSON.parse(JSON.stringify(a))).toEqual(fields(a));
  });

  it('each household is handed on as its last row is read, before the rest of the file is', async () => {
    // Enough lines that the streams' read-ahead (bytes, not lines: 64 KiB from Node 22, about 650
    // of these lines) is a small part of the file on every Node the package supports.
    const households = 6000;
    const lines = [HEADER_LINE];
    for (let i = 0; i < households; i++) lines.push(row(`H-${i}`, 'Ten', `t${i}@example.com`));
    const text = `${lines.join('\n')}\n`;
    // One chunk a line: how far the reader had pulled when each household came out.
    let pulled = 0;
    const source: HouseholdsSource = async function* () {
      pulled = 0;
      for (const line of text.split(/(?<=\n)/)) {
        pulled++;
        yield line;
      }
    };
    const seenAt: number[] = [];
    const checked = await checkHouseholds(source, { onHousehold: () => seenAt.push(pulled) });
    expect(checked.households).toHaveLength(households);
    // The checking reading: the first household is complete long before the last line is read
    // (the streams between the source and the parser read ahead their buffers' worth at most).
    expect(seenAt[0]).toBeLessThan(households / 4);
    expect(seenAt.at(-1)).toBe(households + 1);
    // The body reading: the first body comes out likewise, not after the whole file.
    const bodies = checked.bodies();
    const first = await bodies.next();
    expect(first.value?.key).toBe('H-0');
    expect(pulled).toBeLessThan(households / 4);
    const wanted = new Set([checked.households[40]?.correlationId ?? '']);
    const only = await all(checked.bodies(wanted));
    expect(only.map((household) => household.key)).toEqual(['H-40']);
    await bodies.return(undefined);
  });

  it('bodies(wanted) reads `wanted` when called: the set may be emptied while the bodies are read', async () => {
    // Households whose rows are apart: each completes at its last row, found through its summary.
    const text = [
      HEADER_LINE,
      row('A', 'Ada', 'ada@example.com'),
      row('B', 'Bob', 'bob@example.com'),
      row('A', 'Al', 'al@example.com'),
      row('C', 'Cy', 'cy@example.com'),
      row('B', 'Bea', 'bea@example.com'),
    ].join('\n');
    const checked = await checkHouseholds(chunked(text));
    const [a, b, c] = checked.households;
    const wanted = new Set([a?.correlationId ?? '', b?.correlationId ?? '']);
    const reading = checked.bodies(wanted);
    // What the batch does: a household leaves the set as its create settles.
    wanted.clear();
    const read = await all(reading);
    expect(read.map(({ key, lines }) => ({ key, lines }))).toEqual([
      { key: 'A', lines: [2, 4] },
      { key: 'B', lines: [3, 6] },
    ]);
    expect(read.map((household) => household.body.applicants.map((applicant) => applicant.email))).toEqual([
      ['ada@example.com', 'al@example.com'],
      ['bob@example.com', 'bea@example.com'],
    ]);
    expect(c?.key).toBe('C');
    expect((await all(checked.bodies(new Set()))).length).toBe(0);
  });
});

describe('bodies(): the file changed since it was checked', () => {
  it.each([
    ['a household edited', (text: string) => text.replace('cy@example.com', 'cyrus@example.com'), 'C'],
    ['a household removed', (text: string) => text.split('\r\n').slice(0, 4).join('\r\n'), 'C'],
    ['a row broken', (text: string) => text.replace('bob@example.com', 'bob@'), 'B'],
  ])('%s: HouseholdsChangedError naming it', async (_name, edit, key) => {
    let text = VALID;
    const checked = await checkHouseholds(() => [text]);
    text = edit(VALID);
    const error = await all(checked.bodies()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HouseholdsChangedError);
    expect(error).toMatchObject({ householdKey: key });
  });

  it('a header changed', async () => {
    let text = VALID;
    const checked = await checkHouseholds(() => [text]);
    text = VALID.replace('household_key', 'Household Key');
    await expect(all(checked.bodies())).rejects.toThrow(HouseholdsChangedError);
  });
});
