/**
 * The households CSV: parsing with true line numbers, row checks naming line and column,
 * households gathered by key, and correlation ids that survive edits and reruns.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { correlationIdFor } from '../../src/cli/commands/groups-create/correlation.js';
import { CsvSyntaxError, readCsv } from '../../src/cli/commands/groups-create/csv-input.js';
import { HEADER_LINE } from '../../src/cli/commands/groups-create/household-columns.js';
import {
  buildHouseholds,
  type HouseholdOptions,
  mapHeader,
} from '../../src/cli/commands/groups-create/households.js';
import { expose } from '../support/exposure.js';

const dir = mkdtempSync(join(tmpdir(), 'av-households-'));
let fileNumber = 0;

function csvFile(text: string): string {
  const path = join(dir, `file-${fileNumber++}.csv`);
  writeFileSync(path, text);
  return path;
}

const OPTIONS: HouseholdOptions = { batchId: '', invitations: true };

function row(key: string, first: string, email: string, extra: Partial<Record<string, string>> = {}): string {
  const cells: Record<string, string> = {
    household_key: key,
    first_name: first,
    last_name: 'Doe',
    email,
    phone: '',
    verification_types: '',
    property_name: 'Elm Court',
    street_address: '12 Elm Street',
    city: 'Springfield',
    state: 'Illinois',
    zip_code: '62701',
    unit: key,
    monthly_rent: '1850',
    decision_maker: 'Acme',
    ...extra,
  };
  return HEADER_LINE.split(',')
    .map((name) => {
      const value = cells[name] ?? '';
      return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
    })
    .join(',');
}

async function plan(text: string, options: HouseholdOptions = OPTIONS) {
  const table = await readCsv(csvFile(text));
  const result = buildHouseholds(table, mapHeader(table.header), options);
  for (const error of result.errors) expose(`line ${error.line} ${error.column ?? ''}: ${error.message}`);
  return result;
}

describe('readCsv', () => {
  it('counts lines as an editor shows them: multi-line quoted fields, blank lines, CRLF, BOM', async () => {
    for (const eol of ['\n', '\r\n']) {
      const text = `\uFEFF${['a,b', '"x, y","line one', 'line two"', '', '1,2', ',', '"3",4'].join(eol)}${eol}`;
      const table = await readCsv(csvFile(text));
      expect(table.header).toEqual(['a', 'b']);
      expect(table.records).toEqual([
        { line: 2, values: ['x, y', `line one${eol}line two`] },
        { line: 5, values: ['1', '2'] },
        { line: 7, values: ['3', '4'] },
      ]);
    }
  });

  it.each([
    ['mid-file', 'a,b\n1,2\n"unclosed,3\n4,5\n6,7\n', 3],
    ['after blank lines, CRLF', 'a,b\r\n1,2\r\n\r\n\r\n"unclosed,3\r\n4,5\r\n', 5],
    ['on the last line', 'a,b\n1,2\n"unclosed,3', 3],
  ])(
    'reports broken quoting as a syntax error with the line the quote opened on (%s)',
    async (_name, text, line) => {
      const error = await readCsv(csvFile(text)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CsvSyntaxError);
      expect((error as CsvSyntaxError).line).toBe(line);
      expect((error as CsvSyntaxError).message).toContain(`line ${line}`);
    },
  );

  it('refuses an empty file', async () => {
    await expect(readCsv(csvFile(''))).rejects.toBeInstanceOf(CsvSyntaxError);
  });
});

describe('mapHeader', () => {
  it('accepts any case, spaces or hyphens; lists missing, unknown and duplicate columns', () => {
    const header = mapHeader(['Household Key', 'FIRST-NAME', 'last_name', 'email', 'notes', 'email']);
    expect(header.columns).toEqual(['household_key', 'first_name', 'last_name', 'email', undefined, 'email']);
    expect(header.unknown).toEqual(['notes']);
    expect(header.duplicates).toEqual(['email']);
    expect(header.missing).toEqual([
      'property_name',
      'street_address',
      'city',
      'state',
      'zip_code',
      'monthly_rent',
    ]);
  });
});

describe('buildHouseholds', () => {
  it('gathers rows by household key into one body each, household fields from any row', async () => {
    const text = [
      HEADER_LINE,
      row('A', 'Ada', 'ada@example.com', {
        phone: '+1 (415) 555-0101',
        verification_types: 'payroll_income_verification; identity_verification',
        monthly_rent: '$1,850.00',
      }),
      row('B', 'Bob', 'bob@example.com'),
      row('A', 'Al', 'al@example.com', {
        property_name: '',
        street_address: '',
        city: '',
        state: '',
        zip_code: '',
        unit: '',
        monthly_rent: '',
        decision_maker: '',
      }),
    ].join('\n');
    const result = await plan(text);
    expect(result.errors).toEqual([]);
    expect(result.households.map((household) => [household.key, household.line, household.lines])).toEqual([
      ['A', 2, [2, 4]],
      ['B', 3, [3]],
    ]);
    const [a] = result.households;
    expect(a?.body).toEqual({
      applicants: [
        {
          first_name: 'Ada',
          last_name: 'Doe',
          email: 'ada@example.com',
          phone_number: '+14155550101',
          verifications: [{ type: 'payroll_income_verification' }, { type: 'identity_verification' }],
        },
        { first_name: 'Al', last_name: 'Doe', email: 'al@example.com' },
      ],
      property: {
        name: 'Elm Court',
        street_address: '12 Elm Street',
        city: 'Springfield',
        state: 'Illinois',
        zip_code: '62701',
        unit: 'A',
      },
      decision_maker_display_name: 'Acme',
      monthly_rent: 1850,
      correlation_id: correlationIdFor({
        batchId: '',
        householdKey: 'A',
        emails: ['ada@example.com', 'al@example.com'],
        monthlyRent: 1850,
      }),
    });
  });

  it('reports every bad row with its line and column; only households without a bad row are returned', async () => {
    const text = [
      HEADER_LINE,
      row('A', 'Ada', 'ada@example.com'),
      row('B', 'Bob', 'not-an-email'),
      row('C', '', 'carol@example.com', { monthly_rent: 'abc' }),
      row('D', 'Dan', 'dan@example.com', { phone: '415 555 0101' }),
      row('E', 'Eve', 'eve@example.com', { verification_types: 'payroll;credit_check' }),
      'F,Fay,Doe',
    ].join('\n');
    const result = await plan(text);
    expect(result.households.map((household) => household.key)).toEqual(['A']);
    expect(result.invalidKeys.sort()).toEqual(['B', 'C', 'D', 'E', 'F']);
    const found = result.errors.map((error) => [error.line, error.column]);
    expect(found).toEqual([
      [3, 'email'],
      [4, 'first_name'],
      [4, 'monthly_rent'],
      [5, 'phone'],
      [6, 'verification_types'],
      [7, undefined],
    ]);
    // Personal data is not echoed back.
    expect(result.errors.map((error) => error.message).join('\n')).not.toContain('not-an-email');
  });

  it('refuses conflicting household fields, missing ones, and the same applicant twice', async () => {
    const text = [
      HEADER_LINE,
      row('A', 'Ada', 'ada@example.com'),
      row('A', 'Al', 'al@example.com', { monthly_rent: '1900' }),
      row('A', 'Ada', 'ADA@example.com'),
      row('B', 'Bob', 'bob@example.com', { city: '', decision_maker: '' }),
    ].join('\n');
    const result = await plan(text);
    expect(result.errors.map((error) => [error.line, error.column])).toEqual([
      [3, 'monthly_rent'],
      [4, 'email'],
      [5, 'city'],
      [5, 'decision_maker'],
    ]);
    expect(result.errors[0]?.message).toContain('line 2');
  });

  it('uses --decision-maker for blank cells and marks groups without invitations', async () => {
    const text = [HEADER_LINE, row('A', 'Ada', 'ada@example.com', { decision_maker: '' })].join('\n');
    const result = await plan(text, { batchId: 'x', invitations: false, decisionMaker: 'Flag LLC' });
    expect(result.households[0]?.body).toMatchObject({
      decision_maker_display_name: 'Flag LLC',
      is_invitation_disabled: true,
    });
  });

  it('skips rows of empty cells, as spreadsheets export them', async () => {
    const text = [HEADER_LINE, row('A', 'Ada', 'ada@example.com'), ',,,,,,,,,,,,,', ''].join('\n');
    const result = await plan(text);
    expect(result.errors).toEqual([]);
    expect(result.households).toHaveLength(1);
  });
});

describe('correlation ids', () => {
  const base = {
    batchId: '',
    householdKey: 'ELM-101',
    emails: ['a@example.com', 'b@example.com'],
    monthlyRent: 1850,
  };

  it('depend on the household (key, emails, rent) and --batch-id, never on the file name or path', () => {
    const id = correlationIdFor(base);
    expect(id).toMatch(/^cli-[0-9a-f]{16}$/);
    // Order and case of the emails do not matter.
    expect(correlationIdFor({ ...base, emails: ['B@example.com', 'a@example.com'] })).toBe(id);
    expect(correlationIdFor({ ...base, emails: ['a@example.com', 'c@example.com'] })).not.toBe(id);
    expect(correlationIdFor({ ...base, monthlyRent: 1851 })).not.toBe(id);
    expect(correlationIdFor({ ...base, householdKey: 'ELM-102' })).not.toBe(id);
    expect(correlationIdFor({ ...base, batchId: 'march' })).not.toBe(id);
    // Parts never run into each other.
    expect(correlationIdFor({ ...base, batchId: 'ab', householdKey: 'c' })).not.toBe(
      correlationIdFor({ ...base, batchId: 'a', householdKey: 'bc' }),
    );
  });
});
