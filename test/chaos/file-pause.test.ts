/**
 * Chaos, the command line's create gate: a process paused (SIGSTOP) in the middle of a create on a
 * `FileCoordination` folder (`<state dir>/coordination`, as `groups create --state-dir` shares it),
 * past its lease, then resumed (SIGCONT). Two processes run `createOnce` on the same 12 households,
 * twice (a job run again). One stops itself at a named point of one household's create (chosen by
 * the printed seed): after its lookup, or after recording `unresolved`. A stopped process still
 * runs (it is no dead holder to take over from): its lease lapses at its expiry, and the other
 * waits for it, saying so. When it stops holding the folder's lock (`store.lock`, kept over
 * consecutive rounds), the other's operations wait, saying so after 2 s, until the lock is 10 s old
 * and broken; the stop lasts past that. docs/fault-model.md, "Process paused".
 */
import { describe, expect, it } from 'vitest';
import { parseLine, STALE_MUTEX_MS } from '../../src/core/coordination/file-shard.js';
import { createMockServer } from '../../src/testing/index.js';
import type { FilePausePoint } from './file-chaos-worker.js';
import {
  fileChaosWorkerBundle,
  shardFiles,
  startFileWorker,
  stateDirectory,
  unreportedMissing,
} from './file-harness.js';
import { leaseMsOf, seeded, seedOf, sleep, stoppedWorker, summarize } from './harness.js';

const PROCESSES = 2;
const HOUSEHOLDS = 12;
const TIMING = { timeoutMs: 1_000, deadlineMs: 2_000, graceMs: 500 };
const LEASE_MS = leaseMsOf(TIMING);
/** How long the holder stays stopped. */
const PAUSE_MS = Math.max(LEASE_MS, STALE_MUTEX_MS) + 2_000;
/** The errors that say what became of a household without a group. */
const TYPED = ['GroupMayHaveBeenCreatedError', 'CreateLeaseLostError'];

const fileWorker = fileChaosWorkerBundle();

describe.each<{ point: FilePausePoint }>([{ point: 'after-lookup' }, { point: 'after-unresolved' }])(
  'the file gate: a holder paused $point, past its lease',
  ({ point }) => {
    it('creates every household once: the resumed holder sends only on a lease it still holds', async () => {
      const seed = seedOf();
      const random = seeded(seed);
      const mock = await createMockServer({ seed });
      const state = stateDirectory(`pause-${point}`);
      try {
        const prefix = `file-pause-${point}`;
        const all = Array.from({ length: HOUSEHOLDS }, (_, index) => `${prefix}-${index}`);
        const target = all[Math.floor(random() * HOUSEHOLDS)] ?? `${prefix}-0`;
        const startAt = Date.now() + 500;
        const workers = Array.from({ length: PROCESSES }, (_, index) =>
          startFileWorker(fileWorker.path, mock, {
            stateDir: state.path,
            // The second process takes them in the other order: the two meet in the middle.
            households: index === 0 ? all : [...all].reverse(),
            waves: 2,
            concurrency: 3,
            startAt,
            ...TIMING,
            pause: { household: target, point, claim: `${state.path}/pause-claim` },
          }),
        );
        const stopped = await stoppedWorker(workers, 20_000);
        expect(stopped, `a worker stops at ${point} of ${target}`).toBeDefined();
        // Past the lease, past the mock's keep-alive timeout (5 s: the socket it had is closed), and
        // past the age at which the folder's lock is broken, should it be stopped holding it.
        const from = Date.now();
        await sleep(PAUSE_MS);
        stopped?.child.kill('SIGCONT');
        const window = { pid: stopped?.child.pid, from, until: Date.now() };
        const reports = await Promise.all(workers.map((worker) => worker.report));
        const summary = summarize(`file pause ${point}`, seed, mock, prefix, all, reports, LEASE_MS, window);

        expect(summary.duplicates).toEqual([]);
        expect(unreportedMissing(summary.missing, reports, TYPED)).toEqual([]);
        expect(summary.silentLongCalls).toEqual([]);
        // The resumed holder's household: created by exactly one call, never twice.
        const targetCalls = reports.flatMap((report) => report.results).filter((r) => r.household === target);
        expect(targetCalls.filter((call) => call.created).length).toBeLessThanOrEqual(1);
        // The folder is whole (a lock broken under a stopped holder let no write interleave): every
        // line of every shard is a record the next run can trust.
        const damaged = shardFiles(state.path).flatMap((shard) =>
          shard.lines.filter((line) => 'damage' in parseLine(line)).map((line) => `${shard.path}: ${line}`),
        );
        expect(damaged).toEqual([]);
      } finally {
        await mock.close();
        state.remove();
      }
    });
  },
);
