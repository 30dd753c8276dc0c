/**
 * The bin as a child process (bundled as the package build bundles it), for what only a process
 * can show: SIGKILL at a random row (five seeds) then an immediate rerun, a graceful SIGTERM,
 * and one smoke test of the bin. Reruns go in-process.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import {
  buildBin,
  correlationIds,
  countCreated,
  expectExactlyOnce,
  latestResults,
  runCli,
  spawnBin,
  tempDir,
  until,
  writeHouseholds,
} from './helpers.js';

const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' } as const;
const HOUSEHOLDS = 10;
const ARGS = ['--concurrency', '3', '--grace', '1', '-q'];

let mock: MockServer;
let bin: string;
beforeAll(async () => {
  mock = await createMockServer({ seed: 51, pageSize: 50 });
  bin = await buildBin();
});
afterAll(async () => {
  await mock.close();
  rmSync(dirname(bin), { recursive: true, force: true });
});

/** A small deterministic generator (mulberry32): the row a run is killed at, per seed. */
function killRow(seed: number): number {
  let t = (seed * 0x9e3779b9) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  const unit = ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  return 1 + Math.floor(unit * (HOUSEHOLDS - 2));
}

describe('signals', () => {
  it('SIGKILL at a random row, then an immediate rerun: every household once, nobody invited twice (5 seeds)', async () => {
    // Creates take a while, so the kill lands with some in flight; the server finishes those
    // after the process is gone, and the rerun must find them rather than create them again.
    mock.faults.next(5 * HOUSEHOLDS, { latencyMs: 40 }, CREATE);
    const seeds = [1, 2, 3, 4, 5];
    await Promise.all(
      seeds.map(async (seed) => {
        const dir = tempDir(`av-kill-${seed}-`);
        const name = `kill-${seed}`;
        const { path } = writeHouseholds(dir, `${name}.csv`, { households: HOUSEHOLDS, pairEvery: 4 });
        const ids = await correlationIds(path);
        const at = killRow(seed);
        // The killed run's create leases stay held until they lapse (twice a create's time budget:
        // minutes), so a rerun sharing its gate would wait them out. This test is about the
        // journal: the killed run gets a state directory of its own. The shared gate after a
        // kill is test/seams/cli-kill-rerun.test.ts.
        const first = spawnBin(bin, ['groups', 'create', '--csv', path, ...ARGS], mock, {
          env: { VERIFICATION_STATE_DIR: tempDir(`av-kill-state-${seed}-`) },
        });
        await until(() => countCreated(mock, ids) >= at, `seed ${seed}: ${at} groups`, 12_000);
        first.child.kill('SIGKILL');
        const killed = await first.result;
        expect(killed.signal).toBe('SIGKILL');
        // Written ahead: every create that left the process is in the journal as sending.
        const journal = readFileSync(join(dir, `${name}.mock-client-id.journal.jsonl`), 'utf8');
        const sent = journal.split('\n').filter((line) => line.includes('"type":"sending"')).length;
        // The lock of the killed process is still there; the rerun takes it over.
        expect(readdirSync(dir)).toContain(`${name}.mock-client-id.lock`);

        const rerun = await runCli(['groups', 'create', '--csv', path, ...ARGS], mock);
        expect(rerun.code, `seed ${seed}: ${rerun.stderr}`).toBe(0);
        expect(rerun.stderr).toContain('taking over the lock');
        expectExactlyOnce(mock, ids);
        const results = latestResults(dir, name);
        expect(results).toHaveLength(HOUSEHOLDS);
        const existed = results.filter((entry) => entry.status === 'skipped_existing').length;
        const created = results.filter((entry) => entry.status === 'created').length;
        expect(existed + created).toBe(HOUSEHOLDS);
        expect(existed).toBeGreaterThanOrEqual(at);
        expect(sent).toBeGreaterThanOrEqual(existed);
      }),
    );
  });

  it('SIGTERM stops gracefully: requests in flight settle, the log is written, exit 143; a rerun finishes', async () => {
    const dir = tempDir('av-term-');
    const { path } = writeHouseholds(dir, 'term.csv', { households: HOUSEHOLDS });
    const ids = await correlationIds(path);
    mock.faults.next(HOUSEHOLDS, { latencyMs: 60 }, CREATE);
    const first = spawnBin(
      bin,
      ['groups', 'create', '--csv', path, '--concurrency', '2', '--grace', '1'],
      mock,
    );
    await until(() => countCreated(mock, ids) >= 2, 'two groups');
    first.child.kill('SIGTERM');
    const stopped = await first.result;
    expect(stopped.code).toBe(143);
    expect(stopped.stderr).toContain('Stopping');
    const log = latestResults(dir, 'term');
    const created = log.filter((entry) => entry.status === 'created').length;
    expect(created).toBe(countCreated(mock, ids));
    expect(log.filter((entry) => entry.status === 'not_attempted')).toHaveLength(HOUSEHOLDS - created);
    mock.faults.clear();
    const rerun = await runCli(['groups', 'create', '--csv', path, '-q'], mock);
    expect(rerun.code, rerun.stderr).toBe(0);
    expectExactlyOnce(mock, ids);
  });

  it('the bin starts and answers --version', async () => {
    const version = await spawnBin(bin, ['--version'], mock).result;
    expect(version.code).toBe(0);
    expect(version.stdout).toBe(`${VERSION}\n`);
  });
});
