/**
 * A script using FileCoordination killed with SIGKILL (`kill -9`), then run again: the rerun must
 * not wait, silently, for the leases the dead process held (a create lease lives twice the
 * create's budget: minutes). Real processes, real time: the holder is a child process
 * (killed-holder-worker.ts, bundled), the rerun this test process on the same folder. Leases here
 * live ten minutes and each test has one: a rerun that finishes did not wait for them to lapse.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CreateLease, FileCoordination, GroupMayHaveBeenCreatedError } from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { caught, expose } from '../support/exposure.js';
import { clientFor } from '../support/mock-client.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CREATE = 'POST /api/v1/applicant_groups';
const TEN_MINUTES = 10 * 60_000;
/** Far below the leases' ten minutes: a test that passes did not wait for one to lapse. */
const TEST_TIMEOUT = 60_000;

let worker: string;
beforeAll(async () => {
  worker = await bundleForNode(
    fileURLToPath(new URL('./killed-holder-worker.ts', import.meta.url)),
    'killed-holder-worker',
  );
});
afterAll(() => {
  if (worker) removeBundle(worker);
});

const dirs: string[] = [];
const children: ChildProcess[] = [];
const mocks: MockServer[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const mock of mocks.splice(0)) await mock.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'av-killed-holder-'));
  dirs.push(dir);
  return dir;
}

interface Worker {
  child: ChildProcess;
  pid: number;
  /** The first line the worker prints. */
  firstLine: Promise<string>;
  /** Settles when the process has exited, with its signal. */
  exited: Promise<NodeJS.Signals | null>;
}

function start(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, [worker], { cwd: root, env: { ...process.env, ...env } });
  children.push(child);
  if (child.pid === undefined) throw new Error('the worker did not start');
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => {
    child.once('exit', (_code, signal) => {
      expose(stdout);
      expose(stderr);
      resolve(signal);
    });
  });
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const end = stdout.indexOf('\n');
      if (end >= 0) resolve(stdout.slice(0, end));
    });
    void exited.then(() => reject(new Error(`the worker exited before printing a line:\n${stderr}`)));
  });
  // A worker killed before it prints anything is not awaited for a line: no unhandled rejection.
  firstLine.catch(() => {});
  return { child, pid: child.pid, firstLine, exited };
}

async function killHard(worker: Worker): Promise<void> {
  worker.child.kill('SIGKILL');
  expect(await worker.exited).toBe('SIGKILL');
}

describe('a process killed (SIGKILL) while it holds FileCoordination leases and locks', () => {
  it(
    'its rerun takes the create lease over at once, naming the dead holder, keeps its outcome, and gets the token lock',
    async () => {
      const dir = folder();
      const holder = start({ MODE: 'hold', COORDINATION_DIR: dir, CORRELATION_ID: 'unit-4B' });
      const lease = JSON.parse(await holder.firstLine) as CreateLease;
      const rerun = new FileCoordination(dir);

      // While the holder runs, its lease is its own.
      expect(await rerun.acquireCreateLease('client', 'unit-4B', TEN_MINUTES)).toBeUndefined();
      const described = await rerun.describeCreateLease('client', 'unit-4B');
      expect(described).toEqual({
        expiresAt: lease.expiresAt,
        holder: { host: hostname(), pid: holder.pid, startedAt: expect.any(Number) },
      });

      await killHard(holder);
      expect(await rerun.describeCreateLease('client', 'unit-4B')).toBeUndefined();
      const next = await rerun.acquireCreateLease('client', 'unit-4B', TEN_MINUTES);
      expect(next?.fence).toBeGreaterThan(lease.fence);
      expect(next?.takenOverFrom).toEqual(described?.holder);
      // What the dead holder recorded (a create it had begun to send) stands.
      expect(await rerun.readCreateOutcome('client', 'unit-4B')).toMatchObject({
        state: 'unresolved',
        fence: lease.fence,
      });
      // Its token-exchange lock (ttl ten minutes) is broken too.
      expect(await rerun.withTokenExchange('client', TEN_MINUTES, async () => 'token')).toBe('token');
    },
    TEST_TIMEOUT,
  );

  it(
    "end to end: killed while its createOnce's create is held by the mock; the rerun's createOnce sends no second create",
    async () => {
      const mock = await createMockServer();
      mocks.push(mock);
      const dir = folder();
      const body = groupCreateBody('ana@example.com', 'PROP-35-UNIT-9C');
      // The killed process's create reaches the mock and is held there; the mock commits it later.
      mock.faults.next(1, { commitDelayMs: 3_000 }, { method: 'POST', path: '/api/v1/applicant_groups' });
      const holder = start({
        MODE: 'create-once',
        COORDINATION_DIR: dir,
        HOUSEHOLD: JSON.stringify(body),
        VERIFICATION_BASE_URL: mock.url,
        VERIFICATION_CLIENT_ID: mock.clientId,
        VERIFICATION_SECRET_KEY: mock.secretKey,
      });
      await vi.waitFor(() => expect(mock.stats.count(CREATE)).toBe(1), { timeout: 30_000, interval: 10 });
      await killHard(holder);

      // The rerun: the same household, a lease as long, and a grace window past the held commit.
      const client = clientFor(mock, { coordination: new FileCoordination(dir) });
      try {
        const result = await caught(
          client.applicantGroups.createOnce(body, { deadline: 5 * 60_000, createGraceWindow: 20_000 }),
        );
        // It never sent the create again: it found the killed holder's group, or reports that
        // nobody knows whether it exists.
        expect(mock.stats.count(CREATE)).toBe(1);
        if (!(result instanceof GroupMayHaveBeenCreatedError)) {
          // The killed holder recorded its create unresolved on this gate: the gate knew of it.
          expect(result).toEqual({
            group: expect.objectContaining({ correlation_id: body.correlation_id }),
            created: false,
            via: 'gate',
          });
        }
        // Once the held create has committed, the mock holds one group of this household.
        await vi.waitFor(() => expect(mock.groups.applicant().length).toBeGreaterThan(0), {
          timeout: 30_000,
          interval: 50,
        });
        expect(mock.groups.applicant()).toHaveLength(1);
      } finally {
        await client.close();
      }
    },
    TEST_TIMEOUT,
  );
});
