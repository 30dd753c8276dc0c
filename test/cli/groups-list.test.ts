/** `groups list` end to end: every page, each format, filters; CSV output parses back to the groups. */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplicantGroup, VerificationClient } from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { runCli } from './helpers.js';

let mock: MockServer;
let created: ApplicantGroup[];
let sdk: VerificationClient;

beforeAll(async () => {
  // A small page size so 20 groups take 3 pages.
  mock = await createMockServer({ seed: 11, pageSize: 7 });
  sdk = new VerificationClient({ baseURL: mock.url, clientId: mock.clientId, secretKey: mock.secretKey });
  const results = await sdk.applicantGroups.createMany(
    Array.from({ length: 20 }, (_, i) => ({
      applicants: [
        { first_name: 'Ann', last_name: `O'Neil, Jr. ${i}`, email: `ann-${i}@example.com` },
        ...(i % 4 === 0
          ? [{ first_name: 'Bo', last_name: 'Line\nBreak', email: `bo-${i}@example.com` }]
          : []),
      ],
      property: {
        name: 'The "Elm", Court',
        street_address: `${i} Elm Street`,
        city: 'Springfield',
        state: 'Illinois',
        zip_code: '62701',
        unit: `${100 + i}`,
      },
      decision_maker_display_name: 'Acme',
      monthly_rent: 1500 + i,
      correlation_id: `list-${i}`,
      is_invitation_disabled: true,
    })),
    { concurrency: 4 },
  );
  created = results.flatMap((result) => (result.ok ? [result.value] : []));
  expect(created).toHaveLength(20);
  for (const group of created.slice(0, 3)) {
    for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
  }
});
afterAll(async () => {
  await sdk.close();
  await mock.close();
});

describe('groups list', () => {
  it('--format csv walks every page and parses back to the same groups', async () => {
    const result = await runCli(['groups', 'list', '--format', 'csv'], mock);
    expect(result.code).toBe(0);
    const records: Record<string, string>[] = parse(result.stdout, { columns: true });
    const onServer = mock.groups.applicant();
    expect(records.map((record) => record.id)).toEqual(onServer.map((group) => group.id));
    for (const [index, record] of records.entries()) {
      const group = onServer[index];
      if (!group) throw new Error('missing group');
      expect(record).toMatchObject({
        id: group.id,
        status: group.status,
        is_expired: String(group.is_expired),
        correlation_id: group.correlation_id ?? '',
        property_name: group.property.name,
        street_address: group.property.street_address,
        unit_number: group.unit_number,
        monthly_rent_cents: String(group.monthly_rent_cents),
        applicant_count: String(group.applicants.length),
        applicant_names: group.applicants.map((a) => `${a.first_name} ${a.last_name}`).join('; '),
        applicant_emails: group.applicants.map((a) => a.email).join('; '),
      });
      expect(new Date(record.created_at ?? '').getTime() / 1000).toBeCloseTo(group.created_at_timestamp, 2);
    }
    // Three pages were read.
    expect(mock.stats.log().filter((entry) => entry.url.includes('page=3')).length).toBeGreaterThan(0);
  });

  it('--format json is one JSON array of the wire objects; filters narrow it', async () => {
    const all = await runCli(['groups', 'list', '--format', 'json'], mock);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual(mock.groups.applicant());

    const completed = await runCli(['groups', 'list', '--status', 'completed', '--format', 'json'], mock);
    expect((JSON.parse(completed.stdout) as ApplicantGroup[]).map((group) => group.id).sort()).toEqual(
      created
        .slice(0, 3)
        .map((group) => group.id)
        .sort(),
    );

    const one = await runCli(['groups', 'list', '--correlation-id', 'list-7', '--format', 'json'], mock);
    expect((JSON.parse(one.stdout) as ApplicantGroup[]).map((group) => group.id)).toEqual([created[7]?.id]);

    const none = await runCli(['groups', 'list', '--created-after', '2030-01-01', '--format', 'json'], mock);
    expect(none.stdout).toBe('[]\n');
    const since = Math.floor(mock.clock.now() / 1000) - 60;
    const recent = await runCli(
      ['groups', 'list', '--created-after', String(since), '--format', 'json'],
      mock,
    );
    expect(JSON.parse(recent.stdout)).toHaveLength(20);
  });

  it('--format table prints a header and one line per group', async () => {
    const result = await runCli(['groups', 'list', '--search', 'elm street'], mock);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+CREATED\s+RENT/);
    expect(lines).toHaveLength(21);
    expect(lines[1]).toContain(created[0]?.id);
    expect(lines[1]).toContain('completed');
  });

  // Last: it ages every group past the 14 days an unfinished group has.
  it('--status expired (or --expired) and --live filter by expiry, which the API cannot', async () => {
    const ids = async (...args: string[]) => {
      const result = await runCli(['groups', 'list', '--format', 'json', ...args], mock);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as ApplicantGroup[]).map((group) => group.id).sort();
    };
    const completed = created
      .slice(0, 3)
      .map((group) => group.id)
      .sort();
    const waiting = created
      .slice(3)
      .map((group) => group.id)
      .sort();
    expect(await ids('--live')).toEqual(waiting);
    expect(await ids('--status', 'expired')).toEqual([]);

    mock.clock.advance(15 * 24 * 60 * 60_000);
    expect(await ids('--status', 'expired')).toEqual(waiting);
    expect(await ids('--expired')).toEqual(waiting);
    expect(await ids('--live')).toEqual([]);
    // Any state named: completed or expired is every group that will change no more.
    expect(await ids('--status', 'completed,expired')).toEqual([...completed, ...waiting].sort());
    expect(await ids('--status', 'completed', '--expired')).toEqual([...completed, ...waiting].sort());

    const wrong = await runCli(['groups', 'list', '--status', 'lapsed'], mock);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--status must be one of not_started, in_progress, completed');
    expect(wrong.stderr).toContain('expired, live, got "lapsed"');
  });
});
