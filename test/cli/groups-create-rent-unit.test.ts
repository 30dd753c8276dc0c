/**
 * `groups create --api-rent-unit`: the CSV's rent column stays in dollars; against a cents API the
 * run sends cents, and a rerun finds the same groups (its conflict check compares the cents meant
 * with the cents echoed) instead of calling them conflicts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import {
  correlationIds,
  expectExactlyOnce,
  groupsByKey,
  runCli,
  tempDir,
  writeHouseholds,
} from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ seed: 17, apiRentUnit: 'cents' });
});
afterAll(async () => {
  await mock.close();
});

describe('groups create against a cents API', () => {
  it('--api-rent-unit cents: dollars in the CSV, cents on the wire, a rerun finds no conflict', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'cents.csv', { households: 3 });
    const first = await runCli(['groups', 'create', '--csv', path, '--api-rent-unit', 'cents', '-q'], mock);
    expect(first.code, first.stderr).toBe(0);
    const ids = await correlationIds(path);
    const byKey = groupsByKey(mock, ids);
    // writeHouseholds gives household n a rent of 1200 + n dollars.
    expect([1, 2, 3].map((n) => byKey.get(`U-${n}`)?.[0]?.monthly_rent_cents)).toEqual([
      120_100, 120_200, 120_300,
    ]);
    const again = await runCli(['groups', 'create', '--csv', path, '--api-rent-unit', 'cents', '-q'], mock);
    expect(again.code, again.stderr).toBe(0);
    expectExactlyOnce(mock, ids);
  });

  it('without it the first create is told by its echo and the rest are refused before sending', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'dollars.csv', { households: 3, tag: 'dollars' });
    const before = mock.stats.count('POST /api/v1/applicant_groups');
    const run = await runCli(['groups', 'create', '--csv', path, '--concurrency', '1', '-q'], mock);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("apiRentUnit: 'cents'");
    expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(before + 1);
  });

  it('a bad --api-rent-unit is a usage error', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'bad.csv', { households: 1, tag: 'bad' });
    const run = await runCli(['groups', 'create', '--csv', path, '--api-rent-unit', 'euros'], mock);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--api-rent-unit must be dollars or cents');
  });
});
