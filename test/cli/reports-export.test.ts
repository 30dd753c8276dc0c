/**
 * `reports export` in-process against the mock: JSON and PDF per report, each file written once,
 * private file modes, an index of whose file is whose, expired reports reported.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplicantGroup, VerificationClient } from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { parseCsv, runCli, tempDir } from './helpers.js';

let mock: MockServer;
let sdk: VerificationClient;
let groups: ApplicantGroup[];

function body(i: number, applicants: number) {
  return {
    applicants: Array.from({ length: applicants }, (_, a) => ({
      // A name a spreadsheet would run as a formula, for the index.
      first_name: i === 0 && a === 0 ? '@SUM(1+1)' : 'Pat',
      last_name: `Report ${i}-${a}`,
      email: `pat-${i}-${a}@example.com`,
    })),
    property: {
      name: 'Archive House',
      street_address: '9 Vault Rd',
      city: 'Dover',
      state: 'Delaware',
      zip_code: '19901',
    },
    decision_maker_display_name: 'Archive LLC',
    monthly_rent: 2000,
    correlation_id: `export-${i}`,
  };
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'index.csv')
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

beforeAll(async () => {
  mock = await createMockServer({ seed: 21 });
  sdk = new VerificationClient({ baseURL: mock.url, clientId: mock.clientId, secretKey: mock.secretKey });
  groups = [];
  for (const [i, size] of [2, 1, 2].entries()) groups.push(await sdk.applicantGroups.create(body(i, size)));
  // Groups 0 and 1 complete (individual + household reports); group 2 has one applicant done.
  for (const group of groups.slice(0, 2)) for (const a of group.applicants) mock.applicants.complete(a.id);
  const third = groups[2];
  if (third?.applicants[0]) mock.applicants.complete(third.applicants[0].id);
});
afterAll(async () => {
  await sdk.close();
  await mock.close();
});

describe('reports export', () => {
  it('writes every report of the completed groups once; a second run fetches nothing', async () => {
    const out = tempDir('av-export-');
    const first = await runCli(['reports', 'export', '--status', 'completed', '--out', out], mock);
    expect(first.code, first.stderr).toBe(0);
    const expected = groups
      .slice(0, 2)
      .flatMap((group) =>
        mock.reports
          .forGroup(group.id)
          .flatMap((report) => [
            join(out, group.id, `${report.id}.json`),
            join(out, group.id, `${report.id}.pdf`),
          ]),
      );
    // 2 + 1 individual reports and 2 household reports.
    expect(expected).toHaveLength(10);
    expect(files(out)).toEqual([...expected].sort());
    expect(first.stdout.trim().split('\n').sort()).toEqual([...expected].sort());
    for (const path of expected) {
      if (path.endsWith('.pdf')) expect(readFileSync(path).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      else {
        const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
        expect(json).toMatchObject({ report_type: 'income' });
        expect(json).not.toHaveProperty('pdf_url');
      }
    }
    // Financial data: files 0600, directories 0700.
    for (const path of expected) expect(statSync(path).mode & 0o777, path).toBe(0o600);
    expect(statSync(out).mode & 0o777).toBe(0o700);
    for (const group of groups.slice(0, 2)) expect(statSync(join(out, group.id)).mode & 0o777).toBe(0o700);
    // index.csv names the group, household (correlation id, unit) and applicant of every file.
    expect(statSync(join(out, 'index.csv')).mode & 0o777).toBe(0o600);
    const index = parseCsv(readFileSync(join(out, 'index.csv'), 'utf8'));
    expect(index.map((row) => join(out, row.file ?? '')).sort()).toEqual([...expected].sort());
    const firstGroup = groups[0];
    const firstApplicant = firstGroup?.applicants[0];
    const individual = mock.reports
      .forGroup(firstGroup?.id ?? '')
      .find((report) => report.applicantId === firstApplicant?.id);
    const row = index.find((entry) => entry.report_id === individual?.id && entry.kind === 'pdf');
    expect(row).toMatchObject({
      group_id: firstGroup?.id,
      correlation_id: 'export-0',
      report_scope: 'individual',
      applicant_id: firstApplicant?.id,
      applicant_name: "'@SUM(1+1) Report 0-0",
      applicant_email: 'pat-0-0@example.com',
    });
    expect(index.filter((entry) => entry.report_scope === 'household')).toHaveLength(4);
    const mtimes = expected.map((path) => statSync(path).mtimeMs);

    const routes = () => mock.stats.routes();
    const before = routes();
    const second = await runCli(['reports', 'export', '--status', 'completed', '--out', out], mock);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain('0 file(s) written, 10 already there');
    const after = routes();
    expect(after['GET /api/v1/reports/:id']).toBe(before['GET /api/v1/reports/:id']);
    expect(after['GET /files/reports/:file']).toBe(before['GET /files/reports/:file']);
    expect(expected.map((path) => statSync(path).mtimeMs)).toEqual(mtimes);

    // A lost PDF is fetched again (with a fresh link, however old the JSON is), and nothing else.
    const pdf = expected.find((path) => path.endsWith('.pdf')) ?? '';
    rmSync(pdf);
    mock.clock.advance(3 * 60 * 60_000);
    const third = await runCli(['reports', 'export', '--status', 'completed', '--out', out, '-q'], mock);
    expect(third.code).toBe(0);
    expect(third.stdout.trim()).toBe(pdf);
    expect(readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('--group exports one group; an expired report is reported and does not fail the run', async () => {
    const out = tempDir('av-export-');
    const third = groups[2];
    if (!third) throw new Error('no group');
    const [report] = mock.reports.forGroup(third.id);
    if (!report) throw new Error('no report');
    mock.reports.expire(report.id);
    const result = await runCli(['reports', 'export', '--group', third.id, '--out', out], mock);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`report ${report.id} has expired`);
    expect(files(out)).toEqual([]);
  });

  it('an unknown group fails the run with exit 1; the others are still exported', async () => {
    const out = tempDir('av-export-');
    const known = groups[0];
    if (!known) throw new Error('no group');
    const result = await runCli(
      [
        'reports',
        'export',
        '--group',
        known.id,
        '--group',
        '00000000-0000-4000-8000-000000000000',
        '--out',
        out,
      ],
      mock,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '00000000-0000-4000-8000-000000000000: could not list reports: NotFoundError',
    );
    expect(files(out)).toHaveLength(mock.reports.forGroup(known.id).length * 2);
    // Groups named by id are looked up, so the index still names the household.
    const index = parseCsv(readFileSync(join(out, 'index.csv'), 'utf8'));
    expect(index).toHaveLength(files(out).length);
    for (const row of index) expect(row).toMatchObject({ group_id: known.id, correlation_id: 'export-0' });
  });
});
