/**
 * Named profiles (`--profile`, `VERIFICATION_PROFILE`) in-process against a mock serving two
 * accounts: which source wins, the errors of a profiles file that cannot be used (never showing a
 * secret), and two profiles creating from one CSV without touching each other's journal, lock,
 * results log or groups.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { correlationIds, runCli, tempDir, writeHouseholds } from './helpers.js';

const NORTH = { clientId: 'landlord-north', secretKey: 'north-secret-value' };
const SOUTH = { clientId: 'landlord-south', secretKey: 'south-secret-value' };
const SECRETS = [NORTH.secretKey, SOUTH.secretKey];

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ accounts: [NORTH, SOUTH], seed: 71, pageSize: 50 });
});
afterAll(async () => {
  await mock.close();
});

/** A config home holding `profiles.json` with `content` (an object, or raw text). */
function configHome(content: unknown): string {
  const home = tempDir('av-config-');
  mkdirSync(join(home, 'applicant-verification'));
  writeFileSync(
    join(home, 'applicant-verification', 'profiles.json'),
    typeof content === 'string' ? content : JSON.stringify(content),
  );
  return home;
}

function standardProfiles() {
  return {
    profiles: {
      north: { baseURL: mock.url, clientId: NORTH.clientId, secretKey: NORTH.secretKey },
      south: { baseURL: mock.url, clientId: SOUTH.clientId, secretKeyEnv: 'SOUTH_SECRET' },
    },
  };
}

/** Runs with only the environment given (no VERIFICATION_* from the mock). */
async function run(args: string[], env: Record<string, string>) {
  const result = await runCli(args, undefined, {
    env: { VERIFICATION_STATE_DIR: tempDir('av-state-'), ...env },
  });
  for (const secret of SECRETS) expect(`${result.stdout}\n${result.stderr}`).not.toContain(secret);
  return result;
}

const listIds = (stdout: string): string[] =>
  (JSON.parse(stdout) as { id: string }[]).map((group) => group.id);

describe('--profile and VERIFICATION_PROFILE', () => {
  let north: string;
  let south: string;
  beforeAll(async () => {
    const create = (account: string) =>
      mock.client({ account }).applicantGroups.create({
        applicants: [{ first_name: 'Ada', last_name: account, email: 'ada@example.com' }],
        property: {
          name: 'Elm',
          street_address: '1 Elm St',
          city: 'Springfield',
          state: 'Illinois',
          zip_code: '62701',
        },
        decision_maker_display_name: account,
        monthly_rent: 1500,
      });
    north = (await create(NORTH.clientId)).id;
    south = (await create(SOUTH.clientId)).id;
  });

  it("acts for the chosen profile's account: its own groups only, a secret from secretKeyEnv too", async () => {
    const home = configHome(standardProfiles());
    const env = { XDG_CONFIG_HOME: home, SOUTH_SECRET: SOUTH.secretKey };
    const byFlag = await run(['groups', 'list', '--format', 'json', '--profile', 'north'], env);
    expect(byFlag.code, byFlag.stderr).toBe(0);
    expect(listIds(byFlag.stdout)).toEqual([north]);
    const byEnv = await run(['groups', 'list', '--format', 'json'], {
      ...env,
      VERIFICATION_PROFILE: 'south',
    });
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(listIds(byEnv.stdout)).toEqual([south]);
    // The flag beats the variable.
    const both = await run(['groups', 'list', '--format', 'json', '--profile', 'north'], {
      ...env,
      VERIFICATION_PROFILE: 'south',
    });
    expect(listIds(both.stdout)).toEqual([north]);
    // Explicit credentials beat VERIFICATION_PROFILE, as flags beat the environment.
    const flags = await run(
      [
        'groups',
        'list',
        '--format',
        'json',
        '--base-url',
        mock.url,
        '--client-id',
        SOUTH.clientId,
        '--secret-key',
        SOUTH.secretKey,
      ],
      { ...env, VERIFICATION_PROFILE: 'north' },
    );
    expect(listIds(flags.stdout)).toEqual([south]);
  });

  it('reads the default ~/.config/applicant-verification/profiles.json without XDG_CONFIG_HOME, and ignores a relative one', async () => {
    const home = tempDir('av-home-');
    mkdirSync(join(home, '.config', 'applicant-verification'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'applicant-verification', 'profiles.json'),
      JSON.stringify(standardProfiles()),
    );
    const result = await run(['groups', 'list', '--format', 'json', '--profile', 'north'], {
      HOME: home,
      XDG_CONFIG_HOME: 'relative/config',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(listIds(result.stdout)).toEqual([north]);
  });

  it('a profile whose secret the API refuses exits 5, pointing at the profile', async () => {
    const profiles = {
      profiles: { north: { baseURL: mock.url, clientId: NORTH.clientId, secretKey: SOUTH.secretKey } },
    };
    const result = await run(['groups', 'list', '--profile', 'north'], {
      XDG_CONFIG_HOME: configHome(profiles),
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('or the --profile / VERIFICATION_PROFILE used');
  });

  it('refuses two accounts named at once, by flags or by the environment', async () => {
    const env = { XDG_CONFIG_HOME: configHome(standardProfiles()) };
    const exchanges = mock.stats.count('POST /api/v1/tenants/auth');
    const flags = await run(['groups', 'list', '--profile', 'north', '--client-id', SOUTH.clientId], env);
    expect(flags.code).toBe(2);
    expect(flags.stderr).toContain('--profile and --client-id / --secret-key both name an account');
    const environment = await run(['groups', 'list'], {
      ...env,
      VERIFICATION_PROFILE: 'north',
      VERIFICATION_CLIENT_ID: SOUTH.clientId,
      VERIFICATION_SECRET_KEY: SOUTH.secretKey,
    });
    expect(environment.code).toBe(2);
    expect(environment.stderr).toContain(
      'VERIFICATION_PROFILE and VERIFICATION_CLIENT_ID / VERIFICATION_SECRET_KEY are both set',
    );
    // A --client-id beside another account's variables would borrow that account's secret key.
    const borrowed = await run(['groups', 'list', '--client-id', SOUTH.clientId], {
      ...env,
      VERIFICATION_CLIENT_ID: 'north-client',
      VERIFICATION_SECRET_KEY: 'north-secret-not-south',
    });
    expect(borrowed.code).toBe(2);
    expect(borrowed.stderr).toContain('--client-id names another account than VERIFICATION_CLIENT_ID');
    expect(borrowed.stderr).not.toContain('north-secret-not-south');
    // Refused before anything was sent.
    expect(mock.stats.count('POST /api/v1/tenants/auth')).toBe(exchanges);
  });

  it('says what is wrong with a profiles file, naming the fix and never a secret', async () => {
    const cases: Array<[unknown, string[], Record<string, string>, RegExp]> = [
      [
        standardProfiles(),
        ['--profile', 'nroth'],
        {},
        /no profile "nroth" in .*profiles\.json; did you mean "north"\? Known profiles: north, south/,
      ],
      [
        `{ "profiles": { "north": { "secretKey": "${NORTH.secretKey}", } } }`,
        ['--profile', 'north'],
        {},
        /profiles\.json is not valid JSON \(line 1, column \d+\)/,
      ],
      [{ profiles: [] }, ['--profile', 'north'], {}, /must be an object with a "profiles" object/],
      [
        {
          profiles: {
            north: {
              baseURL: mock.url,
              clientId: NORTH.clientId,
              secretKey: NORTH.secretKey,
              secretKeyEnv: 'X',
            },
          },
        },
        ['--profile', 'north'],
        {},
        /profile "north" in .*: give exactly one of "secretKey" and "secretKeyEnv" .*not both/,
      ],
      [
        { profiles: { north: { baseURL: mock.url, clientId: NORTH.clientId } } },
        ['--profile', 'north'],
        {},
        /give exactly one of "secretKey" and "secretKeyEnv" .*got neither/,
      ],
      [
        standardProfiles(),
        ['--profile', 'south'],
        {},
        /its secret key comes from the environment variable SOUTH_SECRET, which is not set/,
      ],
      [
        { profiles: { north: { baseURL: mock.url, clientid: NORTH.clientId, secretKey: NORTH.secretKey } } },
        ['--profile', 'north'],
        {},
        /unknown field\(s\) "clientid" \(did you mean "clientId"\?\)/,
      ],
      [
        { profiles: { north: { baseURL: '', clientId: NORTH.clientId, secretKey: NORTH.secretKey } } },
        [],
        { VERIFICATION_PROFILE: 'north' },
        /profile "north" in .*profiles\.json: "baseURL" must be a non-empty string/,
      ],
    ];
    for (const [content, args, env, message] of cases) {
      const result = await run(['groups', 'list', ...args], { XDG_CONFIG_HOME: configHome(content), ...env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const missing = await run(['groups', 'list', '--profile', 'north'], {
      XDG_CONFIG_HOME: tempDir('av-empty-'),
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /--profile: there is no profiles file .*profiles\.json; create it as \{ "profiles"/,
    );
  });
});

describe('two profiles creating from one CSV', () => {
  it('keep apart: each account gets its groups, its own journal, lock and results log, and a rerun of one touches neither', async () => {
    const dir = tempDir();
    const { path, keys } = writeHouseholds(dir, 'shared.csv', { households: 4, tag: 'shared' });
    const ids = await correlationIds(path);
    const env = {
      XDG_CONFIG_HOME: configHome(standardProfiles()),
      SOUTH_SECRET: SOUTH.secretKey,
      VERIFICATION_STATE_DIR: tempDir('av-state-'),
    };
    const args = (profile: string) => [
      'groups',
      'create',
      '--csv',
      path,
      '--profile',
      profile,
      '--grace',
      '1',
    ];
    // At the same time, on one state directory (one gate) and one folder.
    const [northRun, southRun] = await Promise.all([
      runCli(args('north'), undefined, { env }),
      runCli(args('south'), undefined, { env }),
    ]);
    expect(northRun.code, northRun.stderr).toBe(0);
    expect(southRun.code, southRun.stderr).toBe(0);
    for (const result of [northRun, southRun]) expect(result.stderr).toContain('4 created');

    // Each account holds one group per household, under the same correlation ids.
    const held = (account: string) =>
      mock.state.applicantGroups
        .filter((group) => group.account === account && [...ids.values()].includes(group.correlationId ?? ''))
        .map((group) => group.correlationId)
        .sort();
    expect(held(NORTH.clientId)).toEqual([...ids.values()].sort());
    expect(held(SOUTH.clientId)).toEqual([...ids.values()].sort());

    const files = readdirSync(dir).sort();
    expect(files.filter((file) => file.endsWith('.journal.jsonl'))).toEqual([
      'shared.landlord-north.journal.jsonl',
      'shared.landlord-south.journal.jsonl',
    ]);
    expect(
      files.filter((file) => file.startsWith('shared.results.')).map((file) => file.split('.')[2]),
    ).toEqual(['landlord-north', 'landlord-south']);
    expect(files.some((file) => file.endsWith('.lock'))).toBe(false);
    const northJournal = readFileSync(join(dir, 'shared.landlord-north.journal.jsonl'), 'utf8');
    const southJournal = readFileSync(join(dir, 'shared.landlord-south.journal.jsonl'), 'utf8');
    const groupIdsIn = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { group_id?: string })
        .flatMap((entry) => (entry.group_id ? [entry.group_id] : []));
    const groupsOf = (account: string) =>
      new Set(
        mock.state.applicantGroups.filter((group) => group.account === account).map((group) => group.id),
      );
    expect(groupIdsIn(northJournal).every((id) => groupsOf(NORTH.clientId).has(id))).toBe(true);
    expect(groupIdsIn(southJournal).every((id) => groupsOf(SOUTH.clientId).has(id))).toBe(true);
    expect(groupIdsIn(northJournal)).toHaveLength(keys.length);

    // A rerun of north finds its four, creates nothing, and leaves south's journal as it was.
    const creates = mock.stats.count('POST /api/v1/applicant_groups');
    const rerun = await runCli(args('north'), undefined, { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('4 already existed');
    expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(creates);
    expect(readFileSync(join(dir, 'shared.landlord-south.journal.jsonl'), 'utf8')).toBe(southJournal);
    expect(existsSync(join(dir, 'shared.journal.jsonl'))).toBe(false);
  });
});
