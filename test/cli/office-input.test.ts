/**
 * Input an office cannot see (issue 50, point 6): a ZIP a spreadsheet cut to four digits is flagged
 * with its likely fix and fixed only under `--pad-zip-codes`; every problem line shows the value it
 * refused (an email or phone masked); a refusal by the server shows what was sent; `--help` says
 * `decision_maker` is required unless `--decision-maker` gives it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { HEADER_LINE, latestResults, runCli, tempDir, writeHouseholds } from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ seed: 50, pageSize: 50 });
});
afterAll(async () => {
  await mock.close();
});

// One applicant per household: key, email, phone, zip, rent.
function office(
  dir: string,
  name: string,
  rows: ReadonlyArray<readonly [string, string, string, string, string]>,
) {
  const lines = [HEADER_LINE];
  for (const [key, email, phone, zip, rent] of rows) {
    lines.push(
      [
        key,
        'Ann',
        `Lee ${key}`,
        email,
        phone,
        '',
        'Charles Court',
        '1 Charles St',
        'Boston',
        'MA',
        zip,
        key,
        rent,
        'Acme',
      ].join(','),
    );
  }
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('groups create: a ZIP a spreadsheet cut short', () => {
  it('a four-digit ZIP is a problem naming the likely fix, and nothing is sent', async () => {
    const dir = tempDir();
    const path = office(dir, 'boston.csv', [
      ['B-1', 'zip-1@example.com', '', '2134', '2100'],
      ['B-2', 'zip-2@example.com', '', '02135', '2200'],
      ['B-3', 'zip-3@example.com', '', '601-1234', '900'],
    ]);
    const before = mock.stats.count();
    const result = await runCli(['groups', 'create', '--csv', path], mock);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      'boston.csv: line 2, column zip_code: has 4 digits: a spreadsheet probably dropped its leading zero(s); did you mean "02134"?',
    );
    expect(result.stderr).toContain('--pad-zip-codes');
    expect(result.stderr).toContain('; got "2134"');
    expect(result.stderr).toContain('line 4, column zip_code: has 3 digits');
    expect(result.stderr).toContain('did you mean "00601-1234"?');
    expect(result.stderr).not.toContain('line 3, column zip_code');
    expect(mock.stats.count()).toBe(before);
  });

  it('--pad-zip-codes sends the padded ZIP and says so for each cell it changed', async () => {
    const dir = tempDir();
    const path = office(dir, 'padded.csv', [
      ['P-1', 'pad-1@example.com', '', '2134', '2100'],
      ['P-2', 'pad-2@example.com', '', '02135', '2200'],
    ]);
    const result = await runCli(['groups', 'create', '--csv', path, '--pad-zip-codes'], mock);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'padded.csv: line 2, column zip_code: "2134" read as "02134" (--pad-zip-codes)',
    );
    expect(result.stderr).not.toContain('line 3, column zip_code');
    const zips = mock.groups
      .applicant()
      .filter((group) => group.applicants.some((applicant) => applicant.email.startsWith('pad-')))
      .map((group) => [group.unit_number, group.property?.zip_code])
      .sort();
    expect(zips).toEqual([
      ['P-1', '02134'],
      ['P-2', '02135'],
    ]);
  });
});

describe('groups create: every problem line shows the value it refused', () => {
  it('an email and a phone masked, a rent and a ZIP as typed', async () => {
    const dir = tempDir();
    const path = office(dir, 'values.csv', [
      ['V-1', 'jane.doe@example..com', '', '02134', '2100'],
      ['V-2', 'sam.lee.example.com', '', '02134', '2100'],
      ['V-3', 'v3@example.com', '+1 415 555 01234', '02134', '2100'],
      ['V-4', 'v4@example.com', '', '02134', 'twelve hundred'],
      ['V-5', 'v5@example.com', '', '21', '2100'],
    ]);
    const result = await runCli(['groups', 'create', '--csv', path, '--dry-run'], mock);
    expect(result.code).toBe(1);
    const line = (n: number) =>
      (result.stderr.split('\n').find((text) => text.includes(`line ${n},`)) ?? '').replace(`${dir}/`, '');
    expect(line(2)).toBe(
      'values.csv: line 2, column email: is not a valid email address: it has two dots in a row; got "j***@example..com"',
    );
    expect(line(3)).toBe(
      'values.csv: line 3, column email: is not a valid email address: it has no "@"; got "s*** (19 characters, no \\"@\\")"',
    );
    expect(line(4)).toMatch(
      /column phone: is not a valid international number: .*; got "\+\* \*\*\* \*\*\* \*\*\*34"$/,
    );
    expect(line(5)).toContain('column monthly_rent: must be a positive amount of dollars (not cents)');
    expect(line(5)).toContain('; got "twelve hundred"');
    expect(line(6)).toContain(
      'column zip_code: is not a ZIP code: expected 5 digits (02134) or ZIP+4 (02134-1234); got "21"',
    );
    expect(result.stderr).not.toContain('jane.doe');
    expect(result.stderr).not.toContain('sam.lee');
  });

  it('a row the server refuses shows the value it was sent, masked', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'refusedvalue.csv', { households: 2 });
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace('refusedvaluecsv-2-0@example.com', 'someone@nowhere.invalid'),
    );
    const result = await runCli(['groups', 'create', '--csv', path], mock);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /line 3 \(household U-2\): BadRequestError: 400 .*applicants\[0\]\.email.*; sent "s\*\*\*@nowhere\.invalid"/,
    );
    expect(result.stderr).not.toContain('someone@');
    const log = latestResults(dir, 'refusedvalue');
    expect(log.find((entry) => entry.household_key === 'U-2')?.error).toContain(
      'sent "s***@nowhere.invalid"',
    );
  });
});

describe('groups create --help', () => {
  it('calls decision_maker required unless --decision-maker gives it', async () => {
    const result = await runCli(['groups', 'create', '--help'], undefined);
    const row = result.stdout.split('\n').find((text) => text.trimStart().startsWith('decision_maker')) ?? '';
    expect(row).toMatch(/^ {2}decision_maker +required\* +household +Display name/);
    expect(row).not.toContain('optional');
    expect(result.stdout).toContain(
      '* the column may be left out, or a cell blank, only with --decision-maker NAME',
    );
    expect(result.stdout).toContain('--pad-zip-codes');
  });
});
