/**
 * Issue 35, "One gate for every create": `groups create` runs in real processes at the same
 * moment, on copies of one CSV in two folders (each with its own lock and journal), and beside a
 * script's `createOnce` on the same households. They share one state directory, so one gate:
 * every household gets exactly one group and its invitations once, and the runs' results logs
 * together count each household created exactly once. The bin and the script run bundled
 * (test/support/bundle.ts), as test/cli/signals.test.ts runs the bin; the mock runs in this
 * process over loopback HTTP.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import {
  buildBin,
  correlationIds,
  expectExactlyOnce,
  householdBodies,
  latestResults,
  spawnBin,
  tempDir,
  writeHouseholds,
} from '../cli/helpers.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import type { ScriptReport } from './create-once-worker.js';

const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' } as const;
const LOOKUP = { method: 'GET', path: '/api/v1/applicant_groups' } as const;
const HOUSEHOLDS = 24;
const ARGS = ['--concurrency', '4', '--grace', '5', '-q'];
const RUN_MS = 90_000;

let mock: MockServer;
let bin: string;
let script: string;
beforeAll(async () => {
  mock = await createMockServer({ seed: 35, pageSize: 50 });
  [bin, script] = await Promise.all([
    buildBin(),
    bundleForNode(fileURLToPath(new URL('./create-once-worker.ts', import.meta.url)), 'create-once-worker'),
  ]);
});
afterAll(async () => {
  await mock.close();
  removeBundle(bin);
  removeBundle(script);
});

/** Each household's status in a results log. */
function statuses(log: readonly Record<string, string>[]): Map<string, string> {
  return new Map(log.map((entry) => [entry.household_key ?? '', entry.status ?? '']));
}

/**
 * Slows the server down so that the runs overlap in every phase: each lookup and create takes a
 * while, so both runs look every household up (and find it missing) before either has created
 * much. Without the shared gate this is the double invitation.
 */
function overlap(): void {
  mock.faults.clear();
  mock.faults.next(4 * HOUSEHOLDS, { latencyMs: 60 }, LOOKUP);
  mock.faults.next(2 * HOUSEHOLDS, { latencyMs: 80 }, CREATE);
}

describe('one gate for every create', () => {
  it('two runs at once on copies of one CSV in two folders: one group per household, each invited once', async () => {
    const root = tempDir('av-seams-two-');
    const state = join(root, 'state');
    const [first, second] = [join(root, 'jan'), join(root, 'feb')];
    mkdirSync(first);
    mkdirSync(second);
    const { path } = writeHouseholds(first, 'households.csv', {
      households: HOUSEHOLDS,
      pairEvery: 3,
      tag: 'two-runs',
    });
    copyFileSync(path, join(second, 'households.csv'));
    const ids = await correlationIds(path);
    overlap();
    const runs = [first, second].map((dir) =>
      spawnBin(bin, ['groups', 'create', '--csv', join(dir, 'households.csv'), ...ARGS], mock, {
        env: { VERIFICATION_STATE_DIR: state },
        timeoutMs: RUN_MS,
      }),
    );
    const ends = await Promise.all(runs.map((run) => run.result));
    for (const end of ends) expect(end.code, end.stderr).toBe(0);

    expectExactlyOnce(mock, ids);
    // Each file has its own lock and journal: the runs did not exclude each other.
    const logs = [first, second].map((dir) => statuses(latestResults(dir, 'households')));
    for (const key of ids.keys()) {
      const both = logs.map((log) => log.get(key));
      expect(both.sort(), `household ${key}`).toEqual(['created', 'skipped_existing']);
    }
  });

  it('a run and a script calling createOnce on the same households at once: one group per household', async () => {
    const dir = tempDir('av-seams-script-');
    const state = join(dir, 'state');
    const { path } = writeHouseholds(dir, 'households.csv', {
      households: HOUSEHOLDS,
      pairEvery: 4,
      tag: 'with-script',
    });
    const ids = await correlationIds(path);
    const bodies = [...(await householdBodies(path)).values()];
    overlap();
    const run = spawnBin(bin, ['groups', 'create', '--csv', path, ...ARGS], mock, {
      env: { VERIFICATION_STATE_DIR: state },
      timeoutMs: RUN_MS,
    });
    // The script takes the households in the opposite order: the two meet in the middle.
    const worker = spawnBin(script, [], mock, {
      env: {
        VERIFICATION_STATE_DIR: state,
        CREATE_ONCE: JSON.stringify({ stateDir: state, bodies: bodies.reverse(), concurrency: 4 }),
      },
      timeoutMs: RUN_MS,
    });
    const [cli, scripted] = await Promise.all([run.result, worker.result]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(scripted.code, scripted.stderr).toBe(0);

    expectExactlyOnce(mock, ids);
    const report = JSON.parse(scripted.stdout) as ScriptReport;
    const byScript = new Map(report.results.map((result) => [result.correlationId, result]));
    const log = statuses(latestResults(dir, 'households'));
    for (const [key, id] of ids) {
      const mine = byScript.get(id);
      expect(mine?.error, `household ${key}`).toBeUndefined();
      // Created by exactly one of them; the other found it.
      expect(
        [log.get(key), mine?.created ? 'created' : 'skipped_existing'].sort(),
        `household ${key}`,
      ).toEqual(['created', 'skipped_existing']);
    }
  });
});
