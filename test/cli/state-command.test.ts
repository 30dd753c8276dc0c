/**
 * A state folder that belongs to another server (issue office-state, point 3): after the mock was
 * reset, its gate records households as created that the server does not have. A run says so in
 * one line naming the folder and the `state` command, sends nothing for them and does not wait;
 * `state show` tells what the folder holds and which servers it was used with; `state clear`
 * clears it, refusing while a lease is held by a running process or an unresolved create is
 * younger than ten minutes (unless --force, for the latter only). In-process runs against the mock.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLineCoordination } from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { correlationIds, expectExactlyOnce, runCli, tempDir, writeHouseholds } from './helpers.js';

const CREATE = 'POST /api/v1/applicant_groups';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ seed: 5303, pageSize: 50 });
});
afterAll(async () => {
  await mock.close();
});

describe('the state command and a state folder of another server', () => {
  it('a reset mock: the rerun says so in one line and sends nothing; state show, state clear, then the rerun creates', async () => {
    const dir = tempDir();
    const stateDir = join(dir, 'state');
    const env = { VERIFICATION_STATE_DIR: stateDir };
    const empty = await runCli(['state', 'show'], undefined, { env });
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toContain(`State folder ${stateDir} (VERIFICATION_STATE_DIR)`);
    expect(empty.stdout).toContain('used with: no run recorded');
    expect(empty.stdout).toContain('households: 0 created, 0 unresolved, 0 refused');

    const { path } = writeHouseholds(dir, 'office.csv', { households: 2, tag: 'office' });
    const first = await runCli(['groups', 'create', '--csv', path, '--grace', '0'], mock, { env });
    expect(first.code, first.stderr).toBe(0);
    const shown = await runCli(['state', 'show'], undefined, { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      `used with ${new URL(mock.url).origin}, client id ${mock.clientId}: runs from`,
    );
    expect(shown.stdout).toContain('households: 2 created, 0 unresolved, 0 refused');
    expect(shown.stdout).toContain(join(dir, `office.${mock.clientId}.journal.jsonl`));

    // The server forgets every group; the folder still records both households as created.
    mock.reset();
    const stale = await runCli(['groups', 'create', '--csv', path, '--grace', '0'], mock, { env });
    expect(stale.code).toBe(1);
    expect(mock.stats.count(CREATE)).toBe(0);
    const lines = stale.stderr.split('\n').filter((line) => line.includes('recorded as created'));
    expect(lines).toEqual([
      `warning: 2 household(s) (U-1, U-2) are recorded as created in the gate (${join(stateDir, 'coordination')}), but ${new URL(mock.url).origin} has none of their groups; nothing was sent for them. The state may belong to another server (a mock that was reset, or one client id on sandbox and production). See what it holds: applicant-verification state show --state-dir ${stateDir}; clear it once nothing is in flight: applicant-verification state clear --state-dir ${stateDir}`,
    ]);

    const cleared = await runCli(['state', 'clear'], undefined, { env });
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.stdout).toContain(
      `Cleared ${stateDir}: 2 household record(s) of the gate and the manifest removed`,
    );
    expect((await runCli(['state', 'show'], undefined, { env })).stdout).toContain(
      'households: 0 created, 0 unresolved, 0 refused',
    );

    const rerun = await runCli(['groups', 'create', '--csv', path, '--grace', '0'], mock, { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expectExactlyOnce(mock, await correlationIds(path));
  });

  it('state clear refuses (exit 4) while a lease is held by a running process, and an unresolved create younger than ten minutes unless --force', async () => {
    const stateDir = join(tempDir(), 'state');
    const env = { VERIFICATION_STATE_DIR: stateDir };
    const gate = commandLineCoordination({ stateDir });
    const lease = await gate.acquireCreateLease('client', 'in-flight', 60_000);
    if (!lease) throw new Error('a lease expected');
    await gate.recordCreateOutcome(lease, { state: 'unresolved' });

    const held = await runCli(['state', 'clear', '--force'], undefined, { env });
    expect(held.code).toBe(4);
    expect(held.stderr).toContain(
      'nothing was removed: 1 lease(s) are held by a process that may be running',
    );
    expect(held.stderr).toContain(`process ${process.pid} on `);
    expect(await gate.readCreateOutcome('client', 'in-flight')).toMatchObject({ state: 'unresolved' });

    await gate.releaseCreateLease(lease);
    const young = await runCli(['state', 'clear'], undefined, { env });
    expect(young.code).toBe(4);
    expect(young.stderr).toContain('1 unresolved create(s) were recorded less than 10 minutes ago');
    expect(young.stderr).toContain('or pass --force if no run or script using this folder is working');
    expect(await gate.readCreateOutcome('client', 'in-flight')).toMatchObject({ state: 'unresolved' });

    const forced = await runCli(['state', 'clear', '--force'], undefined, { env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(
      await commandLineCoordination({ stateDir }).readCreateOutcome('client', 'in-flight'),
    ).toBeUndefined();
  });

  it('state show names a damaged line of the gate, its file and line (exit 6)', async () => {
    const stateDir = join(tempDir(), 'state');
    const env = { VERIFICATION_STATE_DIR: stateDir };
    const gate = commandLineCoordination({ stateDir });
    for (const id of ['a', 'b']) {
      const lease = await gate.acquireCreateLease('client', id, 60_000);
      if (!lease) throw new Error('a lease expected');
      await gate.recordCreateOutcome(lease, { state: 'created', id: `g-${id}` });
      await gate.releaseCreateLease(lease);
    }
    const coordination = join(stateDir, 'coordination');
    const [shard = ''] = readdirSync(coordination).filter((name) => name.endsWith('.log'));
    const path = join(coordination, shard);
    const lines = readFileSync(path, 'latin1').split('\n');
    lines[0] = (lines[0] ?? '').replace('"f":', '"f":9');
    writeFileSync(path, lines.join('\n'), 'latin1');

    const shown = await runCli(['state', 'show'], undefined, { env });
    expect(shown.code).toBe(6);
    expect(shown.stdout).toContain(`  damaged: ${path} line 1`);
  });
});
