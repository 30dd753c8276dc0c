/**
 * Chaos, the command line's create gate: a clock changed. A first process creates 12 households on
 * a `FileCoordination` folder (`<state dir>/coordination`) while the mock holds every create longer
 * than the client waits (each ends `unresolved`: the group is committed seconds later). Then a
 * second process on the same folder, whose wall clock runs 11 minutes ahead or behind (as after a
 * clock step), runs `createOnce` on the same households before those commits land. An `unresolved`
 * create a few seconds old is not "settled long ago" whatever that clock says: nothing is sent
 * twice. docs/fault-model.md, "Clock ahead" and "Clock behind".
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
