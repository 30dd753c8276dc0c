import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import {
  buildBin,
  correlationIds,
  countCreated,
  expectInvitedOnce,
  groupsByKey,
  latestResults,
  runCli,
  spawnBin,
  tempDir,
  until,
  writeHouseholds,
} from '../cli/helpers.js';
import { removeBundle } from '../support/bundle.js';

const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' } as const;
const HOUSEHOLDS = 10;
// A create's budget is its deadline (2 attempts of 2 s and a backoff), its grace window and one
// more attempt; the lease lasts twice that, about 15 s.
const ARGS = ['--concurrency', '3', '--grace', '1', '--timeout', '2', '--max-retries', '1', '-q'];

let mock: MockServer;
let bin: string;
beforeAll(async () => {
  mock = await createMockServer({ seed: 53, pageSize: 50 });
  bin = await buildBin();
});
afterAll(async () => {
  await mock.close();
  removeBundle(bin);
});

describe('a killed run and its rerun on one gate', () => {
  it('SIGKILL mid-batch, then a rerun on the same state directory: no household twice (3 kill points)', async () => {
    mock.faults.next(3 * HOUSEHOLDS, { latencyMs: 40 }, CREATE);
    await Promise.all(
      [2, 5, 8].map(async (at) => {
        const dir = tempDir(`av-seams-kill-${at}-`);
        const state = join(dir, 'state');
        const name = `kill-${at}`;
        const { path } = writeHouseholds(dir, `${name}.csv`, { households: HOUSEHOLDS, pairEvery: 4 });
        const ids = await correlationIds(path);
        const env = { VERIFICATION_STATE_DIR: state };
        const first = spawnBin(bin, ['groups', 'create', '--csv', path, ...ARGS], mock, { env });
        await until(() => countCreated(mock, ids) >= at, `${at} groups`, 30_000);
        first.child.kill('SIGKILL');
        expect((await first.result).signal).toBe('SIGKILL');

        const rerun = await runCli(['groups', 'create', '--csv', path, ...ARGS], mock, { env });
        const results = latestResults(dir, name);
        expect(results).toHaveLength(HOUSEHOLDS);
        const unresolved = results.filter((entry) => entry.status === 'unresolved');
        for (const entry of results) {
          expect(['created', 'skipped_existing', 'unresolved'], rerun.stderr).toContain(entry.status);
        }
        expect(rerun.code, rerun.stderr).toBe(unresolved.length > 0 ? 1 : 0);
        // At most one group per household, invited once; only an unresolved household has none.
        const groups = groupsByKey(mock, ids);
        for (const entry of results) {
          const found = groups.get(entry.household_key ?? '') ?? [];
          if (entry.status === 'unresolved') expect(found.length).toBeLessThanOrEqual(1);
          else expect(found.map((group) => group.id)).toEqual([entry.group_id]);
          for (const group of found) expectInvitedOnce(mock, group, entry.household_key ?? '');
        }
      }),
    );
  });
});
