/**
 * Chaos, the command line's create gate: a clock changed. A first process creates 12 households on
 * a `FileCoordination` folder (`<state dir>/coordination`) while the mock holds every create longer
 * than the client waits (each ends `unresolved`: the group is committed seconds later). Then a
 * second process on the same folder, whose wall clock runs 11 minutes ahead or behind (as after a
 * clock step), runs `createOnce` on the same households before those commits land. An `unresolved`
 * create a few seconds old is not "settled long ago" whatever that clock says: nothing is sent
 * twice. And two processes at once on one folder, one 11 minutes ahead: neither breaks a lock
 * the other holds, nothing fails, nothing is created twice. docs/fault-model.md, "Clock ahead" and
 * "Clock behind".
 */
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/testing/index.js';
import { eventually } from '../fleet/eventually.js';
import type { FileChaosConfig } from './file-chaos-worker.js';
import { fileChaosWorkerBundle, startFileWorker, stateDirectory } from './file-harness.js';
import { leaseMsOf, seedOf, sleep, summarize } from './harness.js';

const HOUSEHOLDS = 12;
const TIMING = { timeoutMs: 1_000, deadlineMs: 2_000, graceMs: 500 };
const LEASE_MS = leaseMsOf(TIMING);
/** How long the mock holds each of the first process's creates before committing it. */
const COMMIT_DELAY_MS = 7_000;
const MINUTES_11 = 11 * 60_000;

const fileWorker = fileChaosWorkerBundle();

describe.each([
  { name: 'the file gate: a clock 11 minutes ahead', offsetMs: MINUTES_11 },
  { name: 'the file gate: a clock 11 minutes behind', offsetMs: -MINUTES_11 },
])('$name, after creates a slow server left unresolved', ({ name, offsetMs }) => {
  it('sends none of them again', async () => {
    const seed = seedOf();
    const mock = await createMockServer({ seed });
    const state = stateDirectory(`clock-${offsetMs}`);
    try {
      const prefix = `file-clock-${offsetMs}`;
      const households = Array.from({ length: HOUSEHOLDS }, (_, index) => `${prefix}-${index}`);
      const config = (startAt: number): FileChaosConfig => ({
        stateDir: state.path,
        households,
        waves: 1,
        concurrency: HOUSEHOLDS,
        startAt,
        ...TIMING,
      });
      mock.faults.next(
        HOUSEHOLDS,
        { commitDelayMs: COMMIT_DELAY_MS },
        { method: 'POST', path: '/api/v1/applicant_groups' },
      );
      const firstStart = Date.now() + 300;
      const first = await startFileWorker(fileWorker.path, mock, config(firstStart)).report;
      expect(first.results.map((result) => result.error?.name)).toEqual(
        households.map(() => 'GroupMayHaveBeenCreatedError'),
      );

      const second = await startFileWorker(fileWorker.path, mock, config(Date.now() + 300), offsetMs).report;
      // Every held create commits: then the count is final.
      await sleep(Math.max(0, firstStart + COMMIT_DELAY_MS + 1_000 - Date.now()));
      await eventually(
        'the held creates commit',
        async () =>
          mock.groups.applicant().filter((group) => group.correlation_id?.startsWith(`${prefix}-`)).length >=
          HOUSEHOLDS
            ? true
            : undefined,
        COMMIT_DELAY_MS + 10_000,
      );
      const summary = summarize(name, seed, mock, prefix, households, [first, second], LEASE_MS);

      expect(summary.duplicates).toEqual([]);
      expect(summary.missing).toEqual([]);
      expect(summary.silentLongCalls).toEqual([]);
      // The second process sent nothing: it said, for each, that the first may have created it.
      expect(second.results.map((result) => result.error?.name)).toEqual(
        households.map(() => 'GroupMayHaveBeenCreatedError'),
      );
    } finally {
      await mock.close();
      state.remove();
    }
  });
});

describe('the file gate: two processes at once, one with a clock 11 minutes ahead', () => {
  it('creates every household once, with no lock broken under a live holder', async () => {
    const seed = seedOf();
    const mock = await createMockServer({ seed });
    const state = stateDirectory('clock-together');
    try {
      const prefix = 'file-clock-together';
      const households = Array.from({ length: 2 * HOUSEHOLDS }, (_, index) => `${prefix}-${index}`);
      // Creates take a while, so the two meet on the folder's lock and on leases all along.
      mock.faults.next(
        4 * HOUSEHOLDS,
        { latencyMs: 100 },
        { method: 'POST', path: '/api/v1/applicant_groups' },
      );
      const startAt = Date.now() + 500;
      const config = (order: string[]): FileChaosConfig => ({
        stateDir: state.path,
        households: order,
        waves: 2,
        concurrency: 4,
        startAt,
        ...TIMING,
      });
      const reports = await Promise.all([
        startFileWorker(fileWorker.path, mock, config(households)).report,
        startFileWorker(fileWorker.path, mock, config([...households].reverse()), MINUTES_11).report,
      ]);
      const summary = summarize(
        'the file gate: together, one clock 11 minutes ahead',
        seed,
        mock,
        prefix,
        households,
        reports,
        LEASE_MS,
      );

      expect(summary.duplicates).toEqual([]);
      expect(summary.missing).toEqual([]);
      expect(summary.silentLongCalls).toEqual([]);
      // The process ahead once broke every lock it met as 11 minutes old: its peer's rounds failed.
      const broken = reports
        .flatMap((report) => report.results)
        .filter((result) =>
          [result.error?.message ?? '', ...(result.error?.causes ?? [])].join(' ').includes('was broken'),
        )
        .map((result) => result.household);
      expect(broken).toEqual([]);
    } finally {
      await mock.close();
      state.remove();
    }
  });
});
