/**
 * `groups create`'s gate, in-process against the mock server: where the state directory is
 * (`--state-dir`, `VERIFICATION_STATE_DIR`, the XDG state home), a script's `createOnce` on the
 * same folder and client id, a run waiting for a lease another holder has, and `--coordination`
 * (a bad URL, ioredis missing, Redis unreachable). Two real processes at once are in
 * test/seams/cli-two-runs.test.ts.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RedisLoader } from '../../src/cli/shared/redis-modules.js';
import { parseLine } from '../../src/core/coordination/file-shard.js';
import {
  type ApplicantGroupCreateParams,
  ConfigurationError,
  commandLineCoordination,
  commandLineStateDir,
  FileCoordination,
  VerificationClient,
} from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import {
  correlationIds,
  countCreated,
  expectExactlyOnce,
  householdBodies,
  REPO,
  runCli,
  startCli,
  tempDir,
  until,
  writeHouseholds,
} from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ seed: 61, pageSize: 50 });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.faults.clear();
});

/** The keys the gate has records of (one per household it took a lease for) in a coordination folder. */
function stateFiles(coordinationDir: string): string[] {
  if (!existsSync(coordinationDir)) return [];
  const keys = new Set<string>();
  for (const file of readdirSync(coordinationDir).filter((name) => /^shard-[0-9a-f]{2}\.log$/.test(name))) {
    for (const line of readFileSync(join(coordinationDir, file), 'latin1').split('\n')) {
      const parsed = line === '' ? undefined : parseLine(line);
      if (parsed && 'key' in parsed) keys.add(parsed.key);
    }
  }
  return [...keys];
}

function bodyOf(
  bodies: ReadonlyMap<string, ApplicantGroupCreateParams>,
  key: string,
): ApplicantGroupCreateParams {
  const body = bodies.get(key);
  if (!body) throw new Error(`no household ${key}`);
  return body;
}

/** A script's client, as docs/cli.md tells one to join the CLI's gate (runs given --state-dir). */
function scriptClient(stateDir: string): VerificationClient {
  return new VerificationClient({
    baseURL: mock.url,
    clientId: mock.clientId,
    secretKey: mock.secretKey,
    coordination: commandLineCoordination({ stateDir }),
  });
}

describe('groups create: the state directory', () => {
  it('--state-dir, VERIFICATION_STATE_DIR, XDG_STATE_HOME and ~/.local/state hold the gate, in that order', async () => {
    const dir = tempDir();
    const flag = tempDir('av-flag-');
    const variable = tempDir('av-var-');
    const xdg = tempDir('av-xdg-');
    const home = tempDir('av-home-');
    const runs: { name: string; args: string[]; env: Record<string, string>; gate: string }[] = [
      {
        name: 'flag',
        args: ['--state-dir', flag],
        env: { VERIFICATION_STATE_DIR: variable, XDG_STATE_HOME: xdg, HOME: home },
        gate: join(flag, 'coordination'),
      },
      {
        name: 'variable',
        args: [],
        env: { VERIFICATION_STATE_DIR: variable, XDG_STATE_HOME: xdg, HOME: home },
        gate: join(variable, 'coordination'),
      },
      {
        name: 'xdg',
        args: [],
        env: { XDG_STATE_HOME: xdg, HOME: home },
        gate: join(xdg, 'applicant-verification', 'coordination'),
      },
      {
        // A relative XDG_STATE_HOME is invalid (the XDG specification) and ignored.
        name: 'home',
        args: [],
        env: { XDG_STATE_HOME: 'relative/state', HOME: home },
        gate: join(home, '.local', 'state', 'applicant-verification', 'coordination'),
      },
    ];
    const gates = [...new Set(runs.map((run) => run.gate))];
    for (const run of runs) {
      const { path } = writeHouseholds(dir, `${run.name}.csv`, { households: 2 });
      const before = gates.map((gate) => stateFiles(gate).length);
      const result = await runCli(['groups', 'create', '--csv', path, '-q', ...run.args], mock, {
        env: run.env,
        cwd: dir,
      });
      expect(result.code, result.stderr).toBe(0);
      expectExactlyOnce(mock, await correlationIds(path));
      // Two more state files in this run's gate, none anywhere else.
      const after = gates.map((gate) => stateFiles(gate).length);
      expect(
        after.map((count, index) => count - (before[index] ?? 0)),
        run.name,
      ).toEqual(gates.map((gate) => (gate === run.gate ? 2 : 0)));
    }
    expect(existsSync(join(dir, 'relative'))).toBe(false);
  });

  it('a dry run creates no state directory; one that cannot be made is a usage error before anything is sent', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'dry.csv', { households: 2 });
    const state = join(dir, 'state');
    const dry = await runCli(['groups', 'create', '--csv', path, '--dry-run', '--state-dir', state], mock);
    expect(dry.code, dry.stderr).toBe(0);
    expect(existsSync(state)).toBe(false);

    const requests = mock.stats.log().length;
    // Under a file, as no permission bits could refuse it to root.
    const blocked = await runCli(
      ['groups', 'create', '--csv', path, '--state-dir', join(path, 'state')],
      mock,
      {
        env: { VERIFICATION_STATE_DIR: state },
      },
    );
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain(
      `--state-dir: cannot write to the directory ${join(path, 'state', 'coordination')}`,
    );
    expect(mock.stats.log()).toHaveLength(requests);
    expect(existsSync(join(dir, 'dry.mock-client-id.journal.jsonl'))).toBe(false);
  });
});

describe('groups create: one gate with scripts', () => {
  it('a household a script created with createOnce (same folder, same client id) is found by the run and not invited again', async () => {
    const dir = tempDir();
    const state = tempDir('av-state-');
    const { path } = writeHouseholds(dir, 'script-first.csv', { households: 4, pairEvery: 2 });
    const ids = await correlationIds(path);
    const bodies = await householdBodies(path);
    const script = scriptClient(state);
    let scripted: string[];
    try {
      const made = await Promise.all(
        ['U-1', 'U-2'].map((key) => script.applicantGroups.createOnce(bodyOf(bodies, key))),
      );
      expect(made.map((once) => once.created)).toEqual([true, true]);
      scripted = made.map((once) => once.group.id);
    } finally {
      await script.close();
    }
    const invitedByScript = scripted.map((group) => mock.outbox.forGroup(group).length);
    const outbox = mock.outbox.all().length;
    const result = await runCli(['groups', 'create', '--csv', path, '--state-dir', state], mock);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('2 created, 2 already existed');
    expectExactlyOnce(mock, ids);
    expect(countCreated(mock, ids)).toBe(4);
    // The script's households were invited once, by the script; the run invited U-3 and U-4 only.
    expect(scripted.map((group) => mock.outbox.forGroup(group).length)).toEqual(invitedByScript);
    const byRun = mock.groups
      .applicant()
      .filter(
        (group) =>
          group.correlation_id !== null && [ids.get('U-3'), ids.get('U-4')].includes(group.correlation_id),
      );
    expect(byRun).toHaveLength(2);
    expect(mock.outbox.all().length - outbox).toBe(
      byRun.reduce((sum, group) => sum + mock.outbox.forGroup(group.id).length, 0),
    );
  });

  it('a run that waits for a lease another holder has finds its group and counts it as already existing', async () => {
    const dir = tempDir();
    const state = tempDir('av-state-');
    const { path } = writeHouseholds(dir, 'held.csv', { households: 3 });
    const ids = await correlationIds(path);
    const bodies = await householdBodies(path);
    const id = ids.get('U-1') ?? '';
    // Another process (a script's createOnce, another run) holds U-1's lease: it is creating it.
    const other = new FileCoordination(join(state, 'coordination'));
    const lease = await other.acquireCreateLease(mock.clientId, id, 60_000);
    if (!lease) throw new Error('the lease was not free');
    const run = startCli(['groups', 'create', '--csv', path, '--state-dir', state], mock);
    // The run looked U-1 up (missing) and went on to create the others; U-1 waits for the lease.
    await until(() => countCreated(mock, ids) === 2, 'U-2 and U-3');
    expect(groupsOf(id)).toHaveLength(0);
    const sdk = new VerificationClient({
      baseURL: mock.url,
      clientId: mock.clientId,
      secretKey: mock.secretKey,
    });
    try {
      const group = await sdk.applicantGroups.create(bodyOf(bodies, 'U-1'));
      await other.recordCreateOutcome(lease, { state: 'created', id: group.id });
      await other.releaseCreateLease(lease);
    } finally {
      await sdk.close();
    }
    const result = await run.result;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('2 created, 1 already existed');
    expect(result.stderr).toContain(
      `1 household(s) were created by another run or script while this run worked (same gate: ${join(state, 'coordination')})`,
    );
    expect(result.stderr).not.toContain('NOT on its gate');
    expectExactlyOnce(mock, ids);
    // The holder kept the folder's lock while it held its lease; the run, waiting for it, said so
    // (a marker) and got it. With no lease left in either, the lock is given back, the marker gone.
    expect(existsSync(join(state, 'coordination', 'store.lock'))).toBe(false);
    expect(existsSync(join(state, 'coordination', 'store.lock.wanted'))).toBe(false);
  });

  it('a household found at create time that the gate has no record of is not called "same gate": the run warns of a writer off its gate', async () => {
    const dir = tempDir();
    const state = tempDir('av-state-');
    const { path } = writeHouseholds(dir, 'offgate.csv', { households: 3 });
    const ids = await correlationIds(path);
    const bodies = await householdBodies(path);
    const id = ids.get('U-2') ?? '';
    // The lease is held only to hold the run back until U-2 exists; it is released with no
    // record, as a writer on another gate (a script with its own folder) leaves this gate.
    const other = new FileCoordination(join(state, 'coordination'));
    const lease = await other.acquireCreateLease(mock.clientId, id, 60_000);
    if (!lease) throw new Error('the lease was not free');
    const run = startCli(['groups', 'create', '--csv', path, '--state-dir', state], mock);
    await until(() => countCreated(mock, ids) === 2, 'U-1 and U-3');
    const sdk = new VerificationClient({
      baseURL: mock.url,
      clientId: mock.clientId,
      secretKey: mock.secretKey,
    });
    try {
      await sdk.applicantGroups.create(bodyOf(bodies, 'U-2'));
    } finally {
      await sdk.close();
    }
    await other.releaseCreateLease(lease);
    const result = await run.result;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('2 created, 1 already existed');
    expect(result.stderr).not.toContain('same gate');
    expect(result.stderr).toContain(
      `warning: 1 household(s) (U-2) were created while this run worked by a writer NOT on its gate (${join(state, 'coordination')} had no record of them)`,
    );
    expect(result.stderr).toContain('commandLineCoordination()');
    expectExactlyOnce(mock, ids);
  });

  it('a household with two groups under its correlation id (created twice off the gate) is reported by the run that looks it up', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'twice.csv', { households: 2 });
    const bodies = await householdBodies(path);
    const sdk = new VerificationClient({
      baseURL: mock.url,
      clientId: mock.clientId,
      secretKey: mock.secretKey,
    });
    const made: string[] = [];
    try {
      // Two writers on two gates, each sure it was first.
      for (let writer = 0; writer < 2; writer++)
        made.push((await sdk.applicantGroups.create(bodyOf(bodies, 'U-1'))).id);
    } finally {
      await sdk.close();
    }
    const result = await runCli(['groups', 'create', '--csv', path], mock);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /warning: .*twice\.csv: line 2 \(household U-1\): 2 groups under its correlation id cli-[0-9a-f]{16} \(.*\): it was created, and its applicants invited, more than once, by writers that did not share a gate/,
    );
    for (const id of made) expect(result.stderr).toContain(id);
    expect(result.stderr).toContain('1 created, 1 already existed');
  });
});

describe('groups create: a damaged gate', () => {
  it('households whose gate line is garbled are refused, named (file and line), exit 6, and no rerun is promised to finish them', async () => {
    const dir = tempDir('av-gate-damaged-');
    const state = join(dir, 'state');
    const { path } = writeHouseholds(dir, 'households.csv', { households: 3, tag: 'damaged-gate' });
    const ids = [...(await correlationIds(path)).values()];
    // One earlier create that never left (`refused`) on record for the first household, whose line
    // is then changed in place.
    const coordination = commandLineCoordination({ stateDir: state });
    const lease = await coordination.acquireCreateLease(mock.clientId, ids[0] ?? '', 60_000);
    expect(lease).toBeDefined();
    if (lease) await coordination.recordCreateOutcome(lease, { state: 'refused' });
    const gate = join(state, 'coordination');
    const shard = readdirSync(gate).find((name) => /^shard-[0-9a-f]{2}\.log$/.test(name)) ?? '';
    const shardPath = join(gate, shard);
    const text = readFileSync(shardPath, 'utf8');
    writeFileSync(shardPath, text.replace('"state":"refused"', '"state":"refuses"'));
    const createsBefore = mock.stats.count('POST /api/v1/applicant_groups');

    const run = await runCli(['groups', 'create', '--csv', path], mock, {
      env: { VERIFICATION_STATE_DIR: state },
    });

    expect(run.code).toBe(6);
    expect(run.stderr).toContain(
      `CoordinationStateError: The coordination file ${shardPath} is damaged at line 2: its checksum does not match its text`,
    );
    expect(run.stderr).toContain(
      `1 household(s) were refused by the gate (${gate}): its state is damaged (CoordinationStateError above: the file, the line and the repair), so nothing was sent for them. Repair it, then run the same command again.`,
    );
    expect(run.stderr).not.toContain('Run the same command again to finish');
    // The two others were created; nothing was sent for the refused one.
    expect(mock.stats.count('POST /api/v1/applicant_groups') - createsBefore).toBe(2);
    expect(countCreated(mock, new Map(ids.map((id, index) => [String(index), id])))).toBe(2);
  });
});

describe('commandLineStateDir and commandLineCoordination: the folder the command line uses', () => {
  it('resolve as groups create does: the gate folder a run makes is the one they name', async () => {
    // Each case on fresh folders, so the gate folder a run makes is new (whatever its storage).
    const cases: Array<{
      env: (home: string, xdg: string) => Record<string, string>;
      flag?: boolean;
      setBy: string;
    }> = [
      { env: (home) => ({ HOME: home }), setBy: 'the default state directory' },
      { env: (home, xdg) => ({ HOME: home, XDG_STATE_HOME: xdg }), setBy: 'XDG_STATE_HOME' },
      { env: (home) => ({ HOME: home, XDG_STATE_HOME: 'relative' }), setBy: 'the default state directory' },
      {
        env: (home, xdg) => ({ HOME: home, XDG_STATE_HOME: xdg, VERIFICATION_STATE_DIR: join(xdg, 'v') }),
        setBy: 'VERIFICATION_STATE_DIR',
      },
      {
        env: (home, xdg) => ({ HOME: home, VERIFICATION_STATE_DIR: join(xdg, 'v') }),
        flag: true,
        setBy: '--state-dir',
      },
    ];
    const dir = tempDir();
    for (const [index, { env: envOf, flag, setBy }] of cases.entries()) {
      const home = tempDir('av-home-');
      const env = envOf(home, tempDir('av-xdg-'));
      const stateDir = flag ? join(home, 'flag') : undefined;
      const resolved = commandLineStateDir({ env, stateDir });
      expect(resolved.setBy).toBe(setBy);
      expect(existsSync(resolved.coordinationPath)).toBe(false);
      const { path } = writeHouseholds(dir, `where-${index}.csv`, { households: 1 });
      const result = await runCli(
        ['groups', 'create', '--csv', path, '-q', ...(stateDir ? ['--state-dir', stateDir] : [])],
        mock,
        { env },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(readdirSync(resolved.coordinationPath).length, setBy).toBeGreaterThan(0);
      expect(commandLineCoordination({ env, stateDir }).dir).toBe(resolved.coordinationPath);
    }
  });

  it("docs/cli.md's script is, line for line, the one the seams suite runs beside the command line", () => {
    const docs = readFileSync(join(REPO, 'docs/cli.md'), 'utf8');
    const start = docs.indexOf('**Scripts join the same gate**');
    const block = /\n( *)```ts\n([\s\S]*?)\n\1```/.exec(docs.slice(start));
    const indent = block?.[1] ?? '';
    const snippet = (block?.[2] ?? '')
      .split('\n')
      .map((line) => line.slice(indent.length))
      .filter((line) => !line.startsWith('import '))
      .join('\n')
      .trim();
    const worker = readFileSync(join(REPO, 'test/seams/docs-script-worker.ts'), 'utf8');
    const body = worker.slice(worker.indexOf('const client = new VerificationClient(')).trim();
    expect(snippet).toBe(body);
    expect(docs.slice(start, start + 2_000)).toContain(
      "import { commandLineCoordination, VerificationClient } from 'applicant-verification';",
    );
  });

  it('commandLineCoordination refuses when the command line would use Redis (VERIFICATION_COORDINATION)', () => {
    expect(() =>
      commandLineCoordination({ env: { VERIFICATION_COORDINATION: 'redis://localhost:6379' } }),
    ).toThrow(ConfigurationError);
    expect(() =>
      commandLineCoordination({ env: { VERIFICATION_COORDINATION: 'redis://localhost:6379' } }),
    ).toThrow(/RedisCoordination/);
  });
});

function groupsOf(correlationId: string) {
  return mock.groups.applicant().filter((group) => group.correlation_id === correlationId);
}

describe('groups create: --coordination', () => {
  it('a URL that is not redis:// or rediss:// is a usage error naming the option (or the variable); a password is never echoed', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'bad-url.csv', { households: 1 });
    const requests = mock.stats.log().length;
    for (const [args, env, named] of [
      [['--coordination', 'http://redis.internal:6379'], {}, '--coordination'],
      [['--coordination', 'redis//admin:hunter2secret@redis.internal'], {}, '--coordination'],
      [['--coordination', 'redis://'], {}, '--coordination'],
      [[], { VERIFICATION_COORDINATION: 'localhost:6379' }, 'VERIFICATION_COORDINATION'],
    ] as const) {
      const result = await runCli(['groups', 'create', '--csv', path, '--dry-run', ...args], mock, { env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`${named} must be a redis:// or rediss:// URL`);
      expect(result.stderr).not.toContain('hunter2secret');
    }
    expect(mock.stats.log()).toHaveLength(requests);
  });

  it('without ioredis installed: says to npm install ioredis, exit 2, nothing sent', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'no-ioredis.csv', { households: 2 });
    // The import fails exactly as it does where the package is missing.
    const missing = 'ioredis-missing-for-this-test';
    const loadRedis: RedisLoader = async () => {
      await import(/* @vite-ignore */ missing);
      throw new Error(`${missing} was found`);
    };
    const requests = mock.stats.log().length;
    const result = await runCli(
      ['groups', 'create', '--csv', path, '--coordination', 'redis://127.0.0.1:6379'],
      mock,
      { loadRedis },
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      '--coordination needs the ioredis package (5 or 6), which is not installed: npm install ioredis',
    );
    expect(mock.stats.log()).toHaveLength(requests);
    expect(existsSync(join(dir, 'no-ioredis.mock-client-id.journal.jsonl'))).toBe(false);
  });

  it('an unreachable Redis fails the run before anything is sent, without printing the password', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'no-redis.csv', { households: 2 });
    // A port nobody listens on: taken, then let go.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await new Promise((resolve) => server.close(resolve));
    const requests = mock.stats.log().length;
    const result = await runCli(['groups', 'create', '--csv', path], mock, {
      env: { VERIFICATION_COORDINATION: `redis://worker:hunter2secret@127.0.0.1:${port}/2` },
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      `cannot reach the coordination at redis://127.0.0.1:${port}/2 (VERIFICATION_COORDINATION)`,
    );
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(result.stderr).not.toContain('hunter2secret');
    expect(mock.stats.log()).toHaveLength(requests);
  });
});
