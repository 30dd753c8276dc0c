/**
 * Issue office-state, point 5, with real processes: the mock bin in a process of its own, the
 * command line's bin as child processes. Fifteen days on (the mock's clock moved through its
 * control API, no sleep), the rerun reports the households as expired, apart from those that
 * exist, and sends nothing; `--reinvite-expired` gives each a new group recorded as a
 * re-invitation of the expired one; `groups duplicates` does not count a re-invitation (exit 0)
 * and does count a household a script created twice (exit 7).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplicantGroup, VerificationClient } from '../../src/index.js';
import {
  buildBin,
  correlationIds,
  householdBodies,
  readCsvRecords,
  tempDir,
  writeHouseholds,
} from '../cli/helpers.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { type MockBinProcess, startMockBinProcess, stopMockBinProcess } from './mock-bin.js';

const DAY = 24 * 60 * 60_000;

let mockBin: string;
let cliBin: string;
let mock: MockBinProcess;
let credentials: Record<string, string>;

beforeAll(async () => {
  mockBin = await bundleForNode('src/testing/bin.ts', 'mock-bin-expiry');
  cliBin = await buildBin();
  mock = await startMockBinProcess(mockBin, ['--no-console']);
  const exported = (name: string) => new RegExp(`export ${name}=(\\S+)`).exec(mock.output())?.[1] ?? '';
  credentials = {
    VERIFICATION_BASE_URL: mock.url,
    VERIFICATION_CLIENT_ID: exported('VERIFICATION_CLIENT_ID'),
    VERIFICATION_SECRET_KEY: exported('VERIFICATION_SECRET_KEY'),
  };
});
afterAll(async () => {
  if (mock) await stopMockBinProcess(mock.child);
  removeBundle(mockBin);
  removeBundle(cliBin);
});

/** The command line as a child process against the mock bin, with a state directory of its own. */
function cli(
  args: string[],
  stateDir: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cliBin, ...args], {
    env: { PATH: process.env.PATH ?? '', VERIFICATION_STATE_DIR: stateDir, ...credentials },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function control(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${mock.url}/__mock${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json();
}

async function groupsUnder(ids: ReadonlyMap<string, string>): Promise<Map<string, ApplicantGroup[]>> {
  const { applicant_groups: groups } = (await control('/groups')) as { applicant_groups: ApplicantGroup[] };
  const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
  const found = new Map<string, ApplicantGroup[]>();
  for (const group of groups) {
    const key = keyOf.get(group.correlation_id ?? '');
    if (key !== undefined) found.set(key, [...(found.get(key) ?? []), group]);
  }
  return found;
}

describe('groups create fifteen days later (real processes, the mock bin on its clock)', () => {
  it('expired apart from existing; --reinvite-expired re-invites; groups duplicates counts only real duplicates', async () => {
    const dir = tempDir('av-expiry-');
    const state = tempDir('av-expiry-state-');
    const { path } = writeHouseholds(dir, 'office.csv', { households: 3 });
    const ids = await correlationIds(path);
    const log = (name: string) => ['--log', join(dir, name), '--decision-maker', 'Leasing'];

    const first = await cli(['groups', 'create', '--csv', path, ...log('first.csv')], state);
    expect(first.stderr).toContain('3 created, 0 already existed, 0 failed, of 3 household(s).');
    expect(first.code).toBe(0);
    const original = await groupsUnder(ids);

    await control('/clock/advance', { ms: 15 * DAY });
    const rerun = await cli(['groups', 'create', '--csv', path, ...log('rerun.csv')], state);
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toContain('0 created, 0 already existed, 3 expired, 0 failed, of 3 household(s).');
    expect(rerun.stderr).toContain('Rerun with --reinvite-expired');
    expect(
      readCsvRecords(join(dir, 'rerun.csv')).map((row) => [row.household_key, row.status, row.group_id]),
    ).toEqual(['U-1', 'U-2', 'U-3'].map((key) => [key, 'expired', original.get(key)?.[0]?.id]));
    for (const groups of (await groupsUnder(ids)).values()) expect(groups).toHaveLength(1);

    const reinvite = await cli(
      ['groups', 'create', '--csv', path, '--reinvite-expired', ...log('reinvite.csv')],
      state,
    );
    expect(reinvite.code).toBe(0);
    expect(reinvite.stderr).toContain(
      '3 created (3 re-invitation(s) of expired groups), 0 already existed, 0 failed, of 3 household(s).',
    );
    const after = await groupsUnder(ids);
    for (const row of readCsvRecords(join(dir, 'reinvite.csv'))) {
      const groups = after.get(row.household_key ?? '') ?? [];
      expect(groups.map((group) => group.is_expired).sort()).toEqual([false, true]);
      expect(row).toMatchObject({
        status: 'created',
        group_id: groups.find((group) => !group.is_expired)?.id,
        reinvitation_of: original.get(row.household_key ?? '')?.[0]?.id,
        possible_duplicate: '',
      });
    }

    // Re-invitations are not duplicates.
    const none = await cli(['groups', 'duplicates', '--since', '30d'], state);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');

    // A script creates U-1 again with a plain create, a few seconds on: a real duplicate.
    await control('/clock/advance', { ms: 5_000 });
    const body = (await householdBodies(path)).get('U-1');
    if (!body) throw new Error('no body for U-1');
    const script = new VerificationClient({
      baseURL: credentials.VERIFICATION_BASE_URL,
      clientId: credentials.VERIFICATION_CLIENT_ID,
      secretKey: credentials.VERIFICATION_SECRET_KEY,
      logLevel: 'off',
    });
    let extra: ApplicantGroup;
    try {
      extra = await script.applicantGroups.create(body);
    } finally {
      await script.close();
    }
    const found = await cli(['groups', 'duplicates', '--since', '30d', '--format', 'json'], state);
    expect(found.code).toBe(7);
    const households = JSON.parse(found.stdout) as { correlationId: string; groups: { id: string }[] }[];
    const reinvitedU1 = after.get('U-1')?.find((group) => !group.is_expired)?.id;
    expect(households).toEqual([
      {
        correlationId: ids.get('U-1'),
        groups: [expect.objectContaining({ id: extra.id }), expect.objectContaining({ id: reinvitedU1 })],
      },
    ]);
  });
});
