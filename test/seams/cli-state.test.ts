/**
 * A state folder left by a server that forgot its groups, with the real bin as child processes:
 * the mock is reset through its control API (`POST /__mock/reset`), as a developer resets the
 * mock between tries. The rerun says in one line that the folder records groups the server does
 * not have, sends nothing and does not wait out the grace window; `state show` and `state clear`
 * as a person runs them; then the rerun creates every household once.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import {
  buildBin,
  correlationIds,
  expectExactlyOnce,
  spawnBin,
  tempDir,
  writeHouseholds,
} from '../cli/helpers.js';
import { removeBundle } from '../support/bundle.js';

const CREATE = 'POST /api/v1/applicant_groups';

let mock: MockServer;
let bin: string;
beforeAll(async () => {
  mock = await createMockServer({ seed: 5353, pageSize: 100 });
  bin = await buildBin();
});
afterAll(async () => {
  await mock.close();
  removeBundle(bin);
});

function run(args: readonly string[], env: Record<string, string>) {
  return spawnBin(bin, args, mock, { env, timeoutMs: 60_000 }).result;
}

describe('the state folder of a server that was reset', () => {
  it('rerun: one line naming the folder and the state command, nothing sent; state show; state clear; rerun creates', async () => {
    const dir = tempDir('av-seams-state-');
    const stateDir = join(dir, 'state');
    const env = { VERIFICATION_STATE_DIR: stateDir };
    const { path } = writeHouseholds(dir, 'homes.csv', { households: 3, tag: 'seams-state' });
    // No grace window: a group recorded as created is listed at once (the mock has no list lag).
    const args = ['groups', 'create', '--csv', path, '--grace', '0'];
    const first = await run(args, env);
    expect(first.code, first.stderr).toBe(0);

    const reset = await fetch(`${mock.url}/__mock/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    expect(mock.groups.applicant()).toEqual([]);

    const stale = await run(args, env);
    expect(stale.code).toBe(1);
    expect(mock.stats.count(CREATE)).toBe(0);
    const said = stale.stderr.split('\n').filter((line) => line.includes(stateDir));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('warning: 3 household(s) (U-1, U-2, U-3) are recorded as created in the gate');
    expect(said[0]).toContain(`applicant-verification state show --state-dir ${stateDir}`);
    // No household's own line: the one line said it.
    expect(stale.stderr).not.toContain('did not appear in the list within the grace window');

    const shown = await run(['state', 'show'], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`used with ${new URL(mock.url).origin}, client id ${mock.clientId}`);
    expect(shown.stdout).toContain('households: 3 created, 0 unresolved, 0 refused');
    expect(shown.stdout).toContain('leases held: 0');

    const cleared = await run(['state', 'clear'], env);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.stdout).toContain(`Cleared ${stateDir}: 3 household record(s)`);

    const rerun = await run(args, env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('3 created');
    expectExactlyOnce(mock, await correlationIds(path));
  }, 120_000);
});
