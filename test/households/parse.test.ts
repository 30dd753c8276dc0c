/**
 * `parseHouseholds`: CSV text with true line numbers, cell checks naming line and column,
 * households gathered by key and checked as households, and correlation ids that survive edits
 * and reruns.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, readCsvText } from '../../src/households/csv-text.js';
import {
  correlationIdFor,
  type ParseHouseholdsOptions,
  parseHouseholds,
} from '../../src/households/index.js';
import { ConfigurationError } from '../../src/index.js';
import { expose } from '../support/exposure.js';
import { HEADER_LINE, row } from './rows.js';

function plan(text: string, options: ParseHouseholdsOptions = {}) {
  const result = parseHouseholds(text, options);
  for (const problem of result.problems)
    expose(`line ${problem.line} ${problem.column ?? ''}: ${problem.message}`);
  return result;
}

describe('readCsvText', () => {
  it('counts lines as an editor shows them: multi-line quoted fields, blank lines, CRLF, BOM', async () => {
    for (const eol of ['\n', '\r\n']) {
      const text = `\uFEFF${['a,b', '"x, y","line one', 'line two"', '', '1,2', ',', '"3",4'].join(eol)}${eol}`;
      const table = readCsvText(text);
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
    (_name, text, line) => {
      expect(() => readCsvText(text)).toThrow(CsvSyntaxError);
      const result = plan(text);
      expect(result.problems).toEqual([
        { kind: 'csv_syntax', line, message: expect.stringContaining(`line ${line}`) },
      ]);
      expect(result.counts.csv_syntax).toBe(1);
    },
  );

  it('refuses an empty file', () => {
    expect(() => readCsvText('')).toThrow(CsvSyntaxError);
  });
});

describe('the header', () => {
  it('accepts any case, spaces or hyphens; lists missing, unknown and duplicate columns', () => {
    const result = plan(
      'Household Key,FIRST-NAME,last_name,E-mail,notes,email\nA,Ada,Doe,a@example.com,,a@example.com\n',
    );
    expect(result.columns.found).toEqual(['household_key', 'first_name', 'last_name', 'email']);
    expect(result.columns.unknown).toEqual(['notes']);
    expect(result.columns.duplicated).toEqual(['email']);
    expect(result.households).toEqual([]);
    expect(result.counts.header).toBe(7);
    expect(result.columns.missing).toEqual([
      'property_name',
      'street_address',
      'city',
      'state',
      'zip_code',
      'monthly_rent',
    ]);
  });
});

describe('parseHouseholds', () => {
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
    const result = plan(text);
    expect(result.problems).toEqual([]);
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
    const result = plan(text);
    expect(result.households.map((household) => household.key)).toEqual(['A']);
    expect(result.invalid.map((household) => household.key)).toEqual(['B', 'C', 'D', 'E', 'F']);
    const found = result.problems.map((problem) => [problem.line, problem.column]);
    expect(found).toEqual([
      [3, 'email'],
      [4, 'first_name'],
      [4, 'monthly_rent'],
      [5, 'phone'],
      [6, 'verification_types'],
      [7, undefined],
    ]);
    // Personal data is not echoed back.
    expect(result.problems.map((problem) => problem.message).join('\n')).not.toContain('not-an-email');
    expect(result.problems.find((problem) => problem.column === 'phone')?.message).toContain(
      '+1 415 555 0123',
    );
    expect(result.counts).toMatchObject({ invalid_value: 5, field_count: 1 });
  });

  it('refuses conflicting household fields, missing ones, copied rows and the same applicant twice', () => {
    const text = [
      HEADER_LINE,
      row('A', 'Ada', 'ada@example.com', { state: 'ma' }),
      row('A', 'Al', 'al@example.com', { monthly_rent: '1900', state: 'MA' }),
      row('A', 'Ada', 'ADA@example.com', { state: 'ma ' }),
      row('A', 'Ann', 'ada@example.com', { state: 'MA' }),
      row('B', 'Bob', 'bob@example.com', { city: '', decision_maker: '' }),
    ].join('\n');
    const result = plan(text);
    expect(result.problems.map((problem) => [problem.line, problem.column, problem.kind])).toEqual([
      [3, 'monthly_rent', 'household_conflict'],
      [4, undefined, 'duplicate_row'],
      [5, 'email', 'duplicate_applicant'],
      [6, 'city', 'missing_household_value'],
      [6, 'decision_maker', 'missing_household_value'],
    ]);
    // Both rents are named, and where the first was given; `ma` and `MA` are one state.
    expect(result.problems[0]?.message).toBe(
      'is $1,900 here but $1,850 on line 2 of household "A": leave it blank on later rows or repeat the same value',
    );
    expect(result.problems[1]?.message).toContain('repeats line 2');
    expect(result.counts).toMatchObject({
      household_conflict: 1,
      duplicate_row: 1,
      duplicate_applicant: 1,
      missing_household_value: 2,
    });
    expect(result.invalid).toEqual([
      { key: 'A', lines: [2, 3, 4, 5] },
      { key: 'B', lines: [6] },
    ]);
  });

  it('checks a household with a bad row as a household too: one pass finds everything', () => {
    const text = [
      HEADER_LINE,
      row('A', 'Ada', 'ada@example.com', { phone: '415 555 0101' }),
      row('A', 'Al', 'al@example.com', { monthly_rent: '1900' }),
    ].join('\n');
    const result = plan(text);
    expect(result.problems.map((problem) => [problem.line, problem.column, problem.kind])).toEqual([
      [2, 'phone', 'invalid_value'],
      [3, 'monthly_rent', 'household_conflict'],
    ]);
  });

  it('reads national phone numbers with a default country, and says which form it expected', () => {
    const text = [
      HEADER_LINE,
      row('A', 'Ada', 'ada@example.com', { phone: '(415) 555-0123' }),
      row('B', 'Bob', 'bob@example.com', { phone: '415.555.0124' }),
      row('C', 'Cy', 'cy@example.com', { phone: '+44 20 7946 0958' }),
      row('D', 'Di', 'di@example.com', { phone: '555-01' }),
    ].join('\n');
    const without = plan(text);
    expect(without.problems.map((problem) => [problem.line, problem.column])).toEqual([
      [2, 'phone'],
      [3, 'phone'],
      [5, 'phone'],
    ]);
    expect(without.problems[0]?.message).toContain('--default-country');
    const us = plan(text, { defaultCountry: 'us' });
    expect(us.households.map((household) => household.body.applicants[0]?.phone_number)).toEqual([
      '+14155550123',
      '+14155550124',
      '+442079460958',
    ]);
    expect(us.problems).toEqual([
      {
        kind: 'invalid_value',
        line: 5,
        column: 'phone',
        householdKey: 'D',
        // The number masked but for its punctuation and last two digits: what is wrong stays visible.
        message:
          'is not a valid US number: expected a national number like (201) 555-0123, or "+" and the country code (+1 for US); got "***-01"',
        value: '"***-01"',
      },
    ]);
    // The correlation ids do not depend on the phone, nor on the default country.
    expect(us.households[0]?.correlationId).toBe(
      correlationIdFor({ batchId: '', householdKey: 'A', emails: ['ada@example.com'], monthlyRent: 1850 }),
    );
  });

  it('flags a ZIP a spreadsheet cut to 3 or 4 digits with its likely fix; padZipCodes applies it and lists it', () => {
    const text = [
      HEADER_LINE,
      row('A', 'Ada', 'ada@example.com', { zip_code: '2134' }),
      row('B', 'Bo', 'bo@example.com', { zip_code: '02134-0001' }),
      row('C', 'Cy', 'cy@example.com', { zip_code: '601' }),
      row('D', 'Di', 'di@example.com', { zip_code: '123456' }),
      row('E', 'Ed', 'ed@example.com', { zip_code: 'SW1A 1AA' }),
    ].join('\n');
    const flagged = plan(text);
    expect(flagged.problems.map((problem) => [problem.line, problem.column, problem.value])).toEqual([
      [2, 'zip_code', '"2134"'],
      [4, 'zip_code', '"601"'],
      [5, 'zip_code', '"123456"'],
    ]);
    expect(flagged.problems[0]?.message).toContain('did you mean "02134"?');
    expect(flagged.problems[1]?.message).toContain('did you mean "00601"?');
    expect(flagged.problems[2]?.message).toContain('is not a ZIP code');
    expect(flagged.fixes).toEqual([]);
    expect(flagged.households.map((household) => household.key)).toEqual(['B', 'E']);

    const padded = plan(text, { padZipCodes: true });
    expect(padded.problems.map((problem) => problem.line)).toEqual([5]);
    expect(padded.fixes).toEqual([
      { line: 2, column: 'zip_code', householdKey: 'A', from: '2134', to: '02134' },
      { line: 4, column: 'zip_code', householdKey: 'C', from: '601', to: '00601' },
    ]);
    const zips = new Map(
      padded.households.map((household) => [household.key, household.body.property.zip_code]),
    );
    expect(zips.get('A')).toBe('02134');
    expect(zips.get('C')).toBe('00601');
    // The ZIP is no part of a correlation id: padding it finds the household's group as before.
    const fixedByHand = plan(text.replace(',2134,', ',02134,'));
    expect(padded.households[0]?.correlationId).toBe(fixedByHand.households[0]?.correlationId);
    expect(() => parseHouseholds(text, { padZipCodes: 'yes' as unknown as boolean })).toThrow(/padZipCodes/);
  });

  it('refuses a wrong option with a ConfigurationError naming it', () => {
    expect(() => parseHouseholds(HEADER_LINE, { defaultCountry: 'XX' })).toThrow(ConfigurationError);
    expect(() => parseHouseholds(HEADER_LINE, { defaultCountry: 'XX' })).toThrow(
      /defaultCountry must be a two-letter/,
    );
    expect(() => parseHouseholds(HEADER_LINE, { apiRentUnit: 'euros' as 'cents' })).toThrow(/apiRentUnit/);
  });

  it('uses --decision-maker for blank cells and marks groups without invitations', async () => {
    const text = [HEADER_LINE, row('A', 'Ada', 'ada@example.com', { decision_maker: '' })].join('\n');
    const result = plan(text, { batchId: 'x', invitations: false, decisionMaker: 'Flag LLC' });
    expect(result.households[0]?.body).toMatchObject({
      decision_maker_display_name: 'Flag LLC',
      is_invitation_disabled: true,
    });
  });

  it('skips rows of empty cells, as spreadsheets export them', async () => {
    const text = [HEADER_LINE, row('A', 'Ada', 'ada@example.com'), ',,,,,,,,,,,,,', ''].join('\n');
    const result = plan(text);
    expect(result.problems).toEqual([]);
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

  it('follow the documented contract (docs/households.md, "Correlation ids") to the byte', () => {
    // Written from the document, not from the code: a change to the scheme fails here.
    const material = [
      'v2',
      'spring',
      'ELM-101',
      ['a@example.com', 'b@example.com'].join('\u0001'),
      '2450',
    ].join('\u0000');
    const documented = `cli-${createHash('sha256').update(material, 'utf8').digest('hex').slice(0, 16)}`;
    expect(
      correlationIdFor({
        batchId: 'spring',
        householdKey: 'ELM-101',
        emails: [' B@example.com', 'a@example.com', 'A@EXAMPLE.COM'],
        monthlyRent: 2450,
      }),
    ).toBe(documented);
    // And parseHouseholds gives a household that id, its rent read from " $2,450.00 ".
    const text = [
      HEADER_LINE,
      row('ELM-101', 'Bea', 'B@example.com', { monthly_rent: ' $2,450.00 ' }),
      row('ELM-101', 'Al', 'a@example.com', { monthly_rent: '' }),
    ].join('\r\n');
    expect(plan(text, { batchId: 'spring' }).households[0]?.correlationId).toBe(documented);
  });
});
