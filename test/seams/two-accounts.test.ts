/**
 * Issue 37, "many accounts": the mock bin in a process of its own with two `--account` flags,
 * and two `groups create` processes with two profiles creating from one CSV against it at the
 * same moment, on one state directory. Each account ends with one group per household, its
 * invitations sent once, its own journal and results log; neither account sees the other's
 * groups. Bin and command line run bundled, as the package ships them.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBin, correlationIds, REPO, tempDir, writeHouseholds } from '../cli/helpers.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { startMockBinProcess, stopMockBinProcess } from './mock-bin.js';

const HOUSEHOLDS = 12;
const NORTH = { clientId: 'landlord-north', secretKey: 'north:secret' };
const SOUTH = { clientId: 'landlord-south', secretKey: 'south-secret' };

let mockBin: string;
let cliBin: string;
beforeAll(async () => {
  [mockBin, cliBin] = await Promise.all([
    bundleForNode('src/testing/bin.ts', 'mock-bin-accounts'),
    buildBin(),
  ]);
});
afterAll(() => {
  if (mockBin) removeBundle(mockBin);
  if (cliBin) removeBundle(cliBin);
});

/** Runs the command line to its end in a process of its own. */
function runCliProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [cliBin, ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

async function control(url: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${url}/__mock${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  expect(response.ok, path).toBe(true);
  return response.json();
}

describe('two accounts on one mock bin', () => {
  it('two profiles create from one CSV at once: each account gets every household once, apart from the other', async () => {
    const mock = await startMockBinProcess(mockBin, [
      '--seed',
      '37',
      '--page-size',
      '50',
      '--account',
      `${NORTH.clientId}:${NORTH.secretKey}`,
      '--account',
      `${SOUTH.clientId}:${SOUTH.secretKey}`,
    ]);
    try {
      expect(mock.output()).not.toContain(NORTH.secretKey);
      const root = tempDir('av-seams-accounts-');
      const config = join(root, 'config');
      mkdirSync(join(config, 'applicant-verification'), { recursive: true });
      writeFileSync(
        join(config, 'applicant-verification', 'profiles.json'),
        JSON.stringify({
          profiles: {
            north: { baseURL: mock.url, clientId: NORTH.clientId, secretKey: NORTH.secretKey },
            south: { baseURL: mock.url, clientId: SOUTH.clientId, secretKeyEnv: 'SOUTH_SECRET' },
          },
        }),
      );
      const { path } = writeHouseholds(root, 'households.csv', {
        households: HOUSEHOLDS,
        pairEvery: 3,
        tag: 'accounts',
      });
      const ids = [...(await correlationIds(path)).values()].sort();
      // Slow answers keep both runs in flight together, in every phase.
      await control(mock.url, '/faults', {
        count: 4 * HOUSEHOLDS,
        fault: { latencyMs: 30 },
        match: { path: '/api/v1/applicant_groups' },
      });
      const env = {
        XDG_CONFIG_HOME: config,
        SOUTH_SECRET: SOUTH.secretKey,
        VERIFICATION_STATE_DIR: join(root, 'state'),
      };
      const args = (profile: string) => [
        'groups',
        'create',
        '--csv',
        path,
        '--profile',
        profile,
        '--grace',
        '5',
        '-q',
      ];
      const [north, south] = await Promise.all([
        runCliProcess(args('north'), env),
        runCliProcess(args('south'), env),
      ]);
      expect(north.code, north.stderr).toBe(0);
      expect(south.code, south.stderr).toBe(0);
      for (const secret of [NORTH.secretKey, SOUTH.secretKey])
        expect(north.stderr + south.stderr).not.toContain(secret);

      type Groups = {
        applicant_groups: { id: string; correlation_id: string | null; applicants: unknown[] }[];
      };
      const groupsOf = async (account: string) =>
        (await control(mock.url, `/groups?account=${account}`)) as Groups;
      const [northGroups, southGroups] = await Promise.all([
        groupsOf(NORTH.clientId),
        groupsOf(SOUTH.clientId),
      ]);
      expect(northGroups.applicant_groups.map((group) => group.correlation_id).sort()).toEqual(ids);
      expect(southGroups.applicant_groups.map((group) => group.correlation_id).sort()).toEqual(ids);
      const northIds = new Set(northGroups.applicant_groups.map((group) => group.id));
      expect(southGroups.applicant_groups.some((group) => northIds.has(group.id))).toBe(false);
      // Each group's applicants were invited once: one email each, in both accounts.
      const outbox = (await control(mock.url, '/outbox')) as { channel: string; groupId: string }[];
      for (const group of [...northGroups.applicant_groups, ...southGroups.applicant_groups]) {
        const emails = outbox.filter((entry) => entry.channel === 'email' && entry.groupId === group.id);
        expect(emails).toHaveLength(group.applicants.length);
      }
      expect(
        readdirSync(root)
          .filter((file) => file.endsWith('.journal.jsonl'))
          .sort(),
      ).toEqual([`households.${NORTH.clientId}.journal.jsonl`, `households.${SOUTH.clientId}.journal.jsonl`]);
    } finally {
      await stopMockBinProcess(mock.child);
    }
  });
});
