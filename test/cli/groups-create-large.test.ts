/**
 * `groups create` on a batch of LISTING_FROM households or more: the check phase reads the
 * account's groups from one paged listing instead of a lookup per household when that listing is
 * shorter, so a rerun of a finished file costs the listing's pages (docs/cli.md, "Large files"),
 * and what it finds there (a household that exists, one that conflicts) is what lookups found.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTING_FROM } from '../../src/cli/commands/groups-create/run-batch.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { correlationIds, expectExactlyOnce, runCli, tempDir, writeHouseholds } from './helpers.js';

const FAST = ['--concurrency', '16', '--max-retries', '6', '--timeout', '5', '--grace', '1'];
const PAGE_SIZE = 50;
const HOUSEHOLDS = LISTING_FROM + 20;

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ seed: 51, pageSize: PAGE_SIZE });
});
afterAll(async () => {
  await mock.close();
});

/** The list requests since `from` in the mock's log: by correlation id, and plain pages. */
function listRequests(from: number): { lookups: number; pages: number } {
  const gets = mock.stats
    .log()
    .slice(from)
    .filter((entry) => entry.method === 'GET' && entry.url.includes('/api/v1/applicant_groups'));
  const lookups = gets.filter((entry) => entry.url.includes('correlation_id=')).length;
  return { lookups, pages: gets.length - lookups };
}

describe('groups create: a large file', () => {
  it('a rerun of a finished file reads one listing, not a lookup per household', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'large.csv', { households: HOUSEHOLDS });
    const ids = await correlationIds(path);
    let from = mock.stats.log().length;
    const first = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`${HOUSEHOLDS} created`);
    // The empty account's one page answered the check; each create still looked under its lease.
    expect(listRequests(from)).toEqual({ lookups: HOUSEHOLDS, pages: 1 });
    expectExactlyOnce(mock, ids);

    from = mock.stats.log().length;
    const again = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`0 created, ${HOUSEHOLDS} already existed`);
    expect(listRequests(from)).toEqual({ lookups: 0, pages: Math.ceil(HOUSEHOLDS / PAGE_SIZE) });
    expectExactlyOnce(mock, ids);
  });

  it('a household edited since it was created is a conflict found in the listing; nothing is sent', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'edited.csv', { households: HOUSEHOLDS, tag: 'edited' });
    const first = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(first.code, first.stderr).toBe(0);
    // U-7's rent changes (1207 to 1999): its correlation id names a group with the old rent.
    writeFileSync(path, readFileSync(path, 'utf8').replace(',1207,', ',1999,'));
    const creates = () => mock.stats.count('POST /api/v1/applicant_groups');
    const before = creates();
    const from = mock.stats.log().length;
    const again = await runCli(['groups', 'create', '--csv', path, ...FAST], mock);
    expect(again.code, again.stderr).toBe(3);
    expect(again.stderr).toContain('household U-7');
    expect(again.stderr).toContain(
      'rent $1,207.00; the row has applicants e***@example.com and rent $1,999.00',
    );
    expect(creates() - before).toBe(0);
    expect(listRequests(from).lookups).toBe(0);
  });
});
