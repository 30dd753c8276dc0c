/**
 * `groups duplicates` end to end against the mock (docs/cli.md, "groups duplicates"): the
 * households with more than one live group in the period, as a table, JSON or CSV; exit 7 when
 * there are any, 0 when none; a re-invitation beside an expired group is not one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApplicantGroup, VerificationClient } from '../../src/index.js';
import { createMockServer, createTestClock, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { clientFor } from '../support/mock-client.js';
import { parseCsv, runCli } from './helpers.js';

const DAY = 24 * 60 * 60_000;

describe('groups duplicates', () => {
  let mock: MockServer;
  let sdk: VerificationClient;

  beforeEach(async () => {
    mock = await createMockServer({ pageSize: 3 });
    sdk = clientFor(mock, { clock: createTestClock(mock.clock) });
  });

  afterEach(async () => {
    await sdk.close();
    await mock.close();
  });

  const run = (args: string[]) =>
    runCli(['groups', 'duplicates', ...args], mock, { clock: createTestClock(mock.clock) });

  /** A household created twice (off any gate), a second apart: [older, newer]. */
  async function twice(email: string, correlationId: string): Promise<[ApplicantGroup, ApplicantGroup]> {
    const older = await sdk.applicantGroups.create(groupCreateBody(email, correlationId));
    mock.clock.advance(1_000);
    const newer = await sdk.applicantGroups.create(groupCreateBody(email, correlationId));
    return [older, newer];
  }

  it('none: exit 0, nothing on stdout, a line saying so', async () => {
    await sdk.applicantGroups.create(groupCreateBody('ana@example.com', 'ONE'));
    const result = await run([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^No duplicates: no household has more than one live group among the groups created after \S+Z\.\n$/,
    );
  });

  it('the table: each household with its groups newest first, exit 7 and a summary line', async () => {
    const [older, newer] = await twice('ana@example.com', 'DUP-A');
    await sdk.applicantGroups.create(groupCreateBody('bo@example.com', 'SINGLE'));
    const result = await run([]);
    expect(result.code).toBe(7);
    const at = (group: ApplicantGroup) => new Date(group.created_at_timestamp * 1000).toISOString();
    expect(result.stdout).toBe(
      [
        'DUP-A: 2 live groups',
        `  ${newer.id}  ${at(newer)}  not_started  newest, keep`,
        `  ${older.id}  ${at(older)}  not_started  duplicate`,
        '',
      ].join('\n'),
    );
    expect(result.stderr).toContain('1 household(s) with more than one live group (1 duplicate group(s))');
    expect(result.stderr).toContain('"A duplicate was reported"');
  });

  it('--format json and csv carry the same households', async () => {
    const [olderA, newerA] = await twice('ana@example.com', 'DUP-A');
    const [olderB, newerB] = await twice('bo@example.com', 'DUP-B');
    const json = await run(['--format', 'json']);
    expect(json.code).toBe(7);
    const parsed = JSON.parse(json.stdout) as { correlationId: string; groups: { id: string }[] }[];
    expect(
      parsed.map((household) => [household.correlationId, household.groups.map((group) => group.id)]),
    ).toEqual([
      ['DUP-A', [newerA.id, olderA.id]],
      ['DUP-B', [newerB.id, olderB.id]],
    ]);
    const csv = await run(['--format', 'csv']);
    expect(csv.code).toBe(7);
    expect(parseCsv(csv.stdout).map((row) => [row.correlation_id, row.group_id, row.newest])).toEqual([
      ['DUP-A', newerA.id, 'true'],
      ['DUP-A', olderA.id, 'false'],
      ['DUP-B', newerB.id, 'true'],
      ['DUP-B', olderB.id, 'false'],
    ]);
  });

  it('a re-invitation beside an expired group is not a duplicate; --since bounds the period', async () => {
    const body = groupCreateBody('ana@example.com', 'REINVITED');
    const first = await sdk.applicantGroups.createOnce(body);
    mock.clock.advance(15 * DAY);
    const again = await sdk.applicantGroups.createOnce(body, { reinviteExpired: true });
    expect(again.reinvitationOf).toBe(first.group.id);
    const all = await run(['--since', '0']);
    expect(all.code).toBe(0);
    // Two live groups a day ago; --since 1h leaves the older out of the period.
    await twice('bo@example.com', 'DUP-OLD');
    mock.clock.advance(DAY);
    expect((await run(['--since', '2d'])).code).toBe(7);
    const recent = await run(['--since', '1h']);
    expect(recent.code).toBe(0);
  });

  it('usage: a bad --format, milliseconds, --since after --until: exit 2, nothing read', async () => {
    const format = await run(['--format', 'xml']);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format must be one of table, json, csv, got "xml"');
    const ms = await run(['--since', String(Date.now())]);
    expect(ms.code).toBe(2);
    expect(ms.stderr).toContain('--since looks like milliseconds');
    const order = await run(['--since', '1d', '--until', '2d']);
    expect(order.code).toBe(2);
    expect(order.stderr).toContain('--since must be before --until');
    expect(mock.stats.count('GET /api/v1/applicant_groups')).toBe(0);
  });
});
