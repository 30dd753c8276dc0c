/**
 * Files of applicants' data that the command line writes are owner-only (issue 50, point 7):
 * `groups list --output FILE` is created 0600 and appears whole or not at all; a state folder
 * other users can reach is reported and left as it is (several users may share it on purpose).
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerificationClient } from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { runCli, tempDir, writeHouseholds } from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ seed: 57, pageSize: 3 });
  const sdk = new VerificationClient({
    baseURL: mock.url,
    clientId: mock.clientId,
    secretKey: mock.secretKey,
  });
  try {
    for (let i = 0; i < 7; i++) {
      await sdk.applicantGroups.create({
        applicants: [{ first_name: 'Ann', last_name: `Lee ${i}`, email: `private-${i}@example.com` }],
        property: {
          name: 'Elm',
          street_address: '1 Elm St',
          city: 'Springfield',
          state: 'Illinois',
          zip_code: '62701',
        },
        decision_maker_display_name: 'Acme',
        monthly_rent: 1500 + i,
        correlation_id: `private-${i}`,
        is_invitation_disabled: true,
      });
    }
  } finally {
    await sdk.close();
  }
});
afterAll(async () => {
  await mock.close();
});

describe('groups list --output FILE', () => {
  it('writes the list to a file created 0600, stdout empty, every page in it', async () => {
    const dir = tempDir();
    const result = await runCli(['groups', 'list', '--format', 'csv', '--output', 'groups.csv'], mock, {
      cwd: dir,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    const path = join(dir, 'groups.csv');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const records = parse(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(records.map((record) => record.correlation_id).sort()).toEqual(
      Array.from({ length: 7 }, (_, i) => `private-${i}`),
    );
    expect(result.stderr).toContain('7 group(s) written to groups.csv (mode 0600)');
    expect(readdirSync(dir)).toEqual(['groups.csv']);
  });

  it('replaces a file others could read with one they cannot', async () => {
    const dir = tempDir();
    const path = join(dir, 'old.json');
    writeFileSync(path, 'stale', { mode: 0o644 });
    chmodSync(path, 0o644);
    const result = await runCli(['groups', 'list', '--format', 'json', '--output', path], mock);
    expect(result.code, result.stderr).toBe(0);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toHaveLength(7);
  });

  it('a list that fails part way leaves no file (and no temporary one)', async () => {
    const dir = tempDir();
    mock.faults.next(5, { status: 500 }, { method: 'GET', path: '/api/v1/applicant_groups' });
    try {
      const result = await runCli(
        ['groups', 'list', '--format', 'csv', '--output', 'partial.csv', '--max-retries', '0'],
        mock,
        { cwd: dir },
      );
      expect(result.code).toBe(1);
    } finally {
      mock.faults.clear();
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a folder that cannot be written is a usage error before anything is sent', async () => {
    const dir = tempDir();
    const requests = mock.stats.count();
    writeFileSync(join(dir, 'a-file'), '');
    const result = await runCli(['groups', 'list', '--output', join(dir, 'a-file', 'out.csv')], mock);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--output: cannot write to the directory ${join(dir, 'a-file')}`);
    expect(mock.stats.count()).toBe(requests);
  });
});

describe('groups create: a state folder other users can reach', () => {
  it('is reported, left as it is; a private one is not reported', async () => {
    const dir = tempDir();
    const shared = join(dir, 'shared-state');
    mkdirSync(shared, { mode: 0o775 });
    chmodSync(shared, 0o775);
    const { path } = writeHouseholds(dir, 'loose.csv', { households: 2 });
    const result = await runCli(['groups', 'create', '--csv', path, '--state-dir', shared], mock);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `warning: the state directory ${shared} can be reached by other users (mode 775): it records which households were created`,
    );
    expect(result.stderr).toContain(`if it is not shared, chmod 700 ${shared}`);
    expect(statSync(shared).mode & 0o777).toBe(0o775);
    // The gate folder the run made inside it is owner-only, and not reported.
    expect(statSync(join(shared, 'coordination')).mode & 0o777).toBe(0o700);
    expect(result.stderr).not.toContain(`${join(shared, 'coordination')} can be reached`);

    const own = join(dir, 'own-state');
    const { path: second } = writeHouseholds(dir, 'tight.csv', { households: 1 });
    const quiet = await runCli(['groups', 'create', '--csv', second, '--state-dir', own], mock);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(existsSync(own)).toBe(true);
    expect(quiet.stderr).not.toContain('can be reached by other users');
  });
});
