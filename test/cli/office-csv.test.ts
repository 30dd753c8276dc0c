/**
 * An office's export, as a spreadsheet writes it (test/fixtures/office-households.csv: byte-order
 * mark, CRLF line ends, spreadsheet headers, local phone numbers, rents like " $2,450.00 ",
 * two-letter and lower-case states, a copy-pasted row, a trailing row of empty cells): the dry run
 * lists every problem in one pass and counts each kind; `--default-country US` makes the phones
 * valid; `parseHouseholds` on the same file gives the command line's bodies and correlation ids,
 * and a script's `createOnce` with them finds the command line's groups.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHouseholds } from '../../src/households/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { REPO, runCli, tempDir } from './helpers.js';

const FIXTURE = join(REPO, 'test/fixtures/office-households.csv');
const FILE = 'office-households.csv';

let mock: MockServer;
let dir: string;

beforeAll(async () => {
  mock = await createMockServer({ seed: 38 });
  dir = tempDir('av-office-');
  copyFileSync(FIXTURE, join(dir, FILE));
});
afterAll(async () => {
  await mock.close();
});

/** The `line N[, column C]` of each problem line the command printed, in order. */
function listed(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith(`${FILE}: line `))
    .map((line) => (/^office-households\.csv: (line \d+(?:, column \w+)?):/.exec(line) ?? [])[1] ?? line);
}

describe('an office CSV', () => {
  it('the fixture is written the way a spreadsheet exports it', () => {
    const bytes = readFileSync(FIXTURE);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.split('\r\n')).toHaveLength(18);
    expect(text).toContain('Household Key,First Name,Last Name,E-mail,Phone Number');
    expect(text).toContain('" $2,450.00 "');
    expect(text).toContain('(617) 555-0101');
    expect(text).toContain('617.555.0102');
  });

  it('a dry run lists every problem in one pass, counting each kind, and sends nothing', async () => {
    const requests = mock.stats.count();
    const result = await runCli(['groups', 'create', '--csv', FILE, '--dry-run'], mock, { cwd: dir });
    expect(result.code, result.stderr).toBe(1);
    // 13 local phones (line 13's is not a number at all), 2 emails, 2 rents that differ within a
    // household (H-103; H-108, which also has a bad row), 1 copied row, 1 applicant typed twice.
    // `MA` and `ma` (H-101, H-102) agree; line 4's phone is international and valid.
    expect(listed(result.stderr)).toEqual([
      'line 2, column phone',
      'line 3, column phone',
      'line 5, column phone',
      'line 6, column phone',
      'line 6, column monthly_rent',
      'line 7, column phone',
      'line 8, column phone',
      'line 9',
      'line 9, column phone',
      'line 10, column email',
      'line 10, column phone',
      'line 11, column phone',
      'line 12, column email',
      'line 12, column phone',
      'line 13, column phone',
      'line 14, column phone',
      'line 15, column email',
      'line 15, column phone',
      'line 15, column monthly_rent',
    ]);
    expect(result.stderr).toContain(
      `19 problem(s) on 13 line(s) of ${FILE}: 15 invalid value(s) (phone 13, email 2), 2 conflicting household value(s) (monthly_rent 2), 1 duplicate row(s), 1 applicant(s) listed twice in a household (email 1); nothing was sent.`,
    );
    expect(result.stderr).toContain(
      `${FILE}: line 6, column monthly_rent: is $2,150 here but $2,100 on line 5 of household "H-103"`,
    );
    expect(result.stderr).toContain(`${FILE}: line 9: repeats line 7 of household "H-104"`);
    expect(result.stderr).toContain('is a national number without a country');
    expect(result.stderr).not.toContain('column state');
    expect(mock.stats.count()).toBe(requests);
  });

  it('with --default-country US the local phones are valid; what is left is listed and counted', async () => {
    const result = await runCli(
      ['groups', 'create', '--csv', FILE, '--dry-run', '--default-country', 'US'],
      mock,
      { cwd: dir },
    );
    expect(result.code, result.stderr).toBe(1);
    expect(listed(result.stderr)).toEqual([
      'line 6, column monthly_rent',
      'line 9',
      'line 10, column email',
      'line 12, column email',
      'line 13, column phone',
      'line 15, column email',
      'line 15, column monthly_rent',
    ]);
    expect(result.stderr).toContain(
      `7 problem(s) on 6 line(s) of ${FILE}: 3 invalid value(s) (email 2, phone 1), 2 conflicting household value(s) (monthly_rent 2), 1 duplicate row(s), 1 applicant(s) listed twice in a household (email 1); nothing was sent.`,
    );
    expect(result.stderr).toContain(
      `${FILE}: line 13, column phone: is not a valid US number: expected a national number like (201) 555-0123`,
    );
  });

  it('a real run without connection settings says so first, then lists the file, and sends nothing', async () => {
    const result = await runCli(['groups', 'create', '--csv', FILE, '--default-country', 'US'], undefined, {
      cwd: dir,
      env: { VERIFICATION_STATE_DIR: tempDir() },
    });
    expect(result.code).toBe(2);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toContain('missing connection settings: --base-url (or VERIFICATION_BASE_URL)');
    expect(listed(result.stderr)).toHaveLength(7);
  });

  it('parseHouseholds gives the bodies and correlation ids the command line creates; a script finds its groups', async () => {
    const parsed = parseHouseholds(readFileSync(FIXTURE, 'utf8'), { defaultCountry: 'US' });
    expect(parsed.counts).toMatchObject({
      invalid_value: 3,
      household_conflict: 2,
      duplicate_row: 1,
      duplicate_applicant: 1,
    });
    expect(parsed.households.map((household) => household.key)).toEqual(['H-101', 'H-102', 'H-109']);
    expect(parsed.invalid.map((household) => household.key)).toEqual([
      'H-103',
      'H-104',
      'H-105',
      'H-106',
      'H-107',
      'H-108',
    ]);
    const [h101] = parsed.households;
    expect(h101?.body).toMatchObject({
      applicants: [
        { email: 'maria.lopez@example.com', phone_number: '+16175550101' },
        { email: 'diego.lopez@example.com', phone_number: '+16175550102' },
      ],
      property: { state: 'MA', zip_code: '02110', unit: '1A' },
      monthly_rent: 2450,
    });

    const dry = await runCli(
      ['groups', 'create', '--csv', FILE, '--dry-run', '--default-country', 'US', '--skip-invalid'],
      mock,
      { cwd: dir },
    );
    // The plan's correlation ids are parseHouseholds'.
    const planned = dry.stdout
      .split('\n')
      .filter((line) => /^\d/.test(line))
      .map((line) => line.split(/\s{2,}/));
    expect(planned.map((cells) => [cells[1], cells[3]])).toEqual(
      parsed.households.map((household) => [household.key, household.correlationId]),
    );

    const run = await runCli(
      ['groups', 'create', '--csv', FILE, '--default-country', 'US', '--skip-invalid', '--grace', '0'],
      mock,
      { cwd: dir },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('3 created');
    expect(run.stderr).toContain('6 invalid');
    for (const household of parsed.households) {
      const groups = mock.groups
        .applicant()
        .filter((group) => group.correlation_id === household.correlationId);
      expect(groups, household.key).toHaveLength(1);
      const [group] = groups;
      expect(
        group?.applicants.map((applicant) => [
          applicant.first_name,
          applicant.last_name,
          applicant.email,
          applicant.phone_number ?? undefined,
        ]),
      ).toEqual(
        household.body.applicants.map((applicant) => [
          applicant.first_name,
          applicant.last_name,
          applicant.email,
          applicant.phone_number,
        ]),
      );
      const { unit, ...property } = household.body.property;
      expect(group?.property).toMatchObject(property);
      expect(group?.unit_number).toBe(unit);
      expect(group?.monthly_rent_cents).toBe(Math.round((household.body.monthly_rent ?? 0) * 100));
    }
    // A script creating the same households finds the command line's groups: nobody is invited twice.
    const client = mock.client();
    for (const household of parsed.households) {
      const { created, group } = await client.applicantGroups.createOnce(household.body);
      expect(created, household.key).toBe(false);
      expect(group.correlation_id).toBe(household.correlationId);
    }
    expect(mock.groups.applicant().filter((group) => group.correlation_id?.startsWith('cli-'))).toHaveLength(
      3,
    );
  });

  it("the README's office CSV and dry run are what the command does", async () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const csv = /```csv\n([\s\S]*?)```/.exec(readme)?.[1];
    const shown = /```\n\$ npx applicant-verification (groups create [^\n]*)\n([\s\S]*?)```/.exec(readme);
    if (csv === undefined || !shown?.[1] || shown[2] === undefined)
      throw new Error('README example not found');
    const readmeDir = tempDir('av-readme-');
    writeFileSync(join(readmeDir, 'office.csv'), csv);
    const result = await runCli(shown[1].split(' '), mock, { cwd: readmeDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(shown[2]);
  });
});
