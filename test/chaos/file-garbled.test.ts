/**
 * Chaos, the command line's create gate: a shard file of the `FileCoordination` folder
 * (`<state dir>/coordination`) garbled while a process runs. A first process creates 12 households
 * against a slow server; once one household's `created` record is on disk, the test changes one
 * character of that line in place (a disk or an editor damaging it: the position is drawn from the
 * printed seed), and a second process starts on the same households while the first goes on. The
 * damaged line is never read as "no record": the second process refuses the households it may
 * concern with `CoordinationStateError`, naming the file and the line, and sends nothing for them;
 * every other household is created once. docs/fault-model.md, "A damaged state file".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyOf, shardNameOf } from '../../src/core/coordination/file-coordination.js';
import { createMockServer } from '../../src/testing/index.js';
import { eventually } from '../fleet/eventually.js';
import type { FileChaosConfig } from './file-chaos-worker.js';
import {
  fileChaosWorkerBundle,
  shardFiles,
  startFileWorker,
  stateDirectory,
  unreportedMissing,
} from './file-harness.js';
import { leaseMsOf, seeded, seedOf, summarize } from './harness.js';

const HOUSEHOLDS = 12;
const TIMING = { timeoutMs: 1_000, deadlineMs: 2_000, graceMs: 500 };
const LEASE_MS = leaseMsOf(TIMING);
const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' };

const fileWorker = fileChaosWorkerBundle();

/** `line` with the character at `at` changed to another of one byte (never a line break). */
function garble(line: string, at: number): string {
  const char = line[at] ?? '';
  const other = /[0-9]/.test(char) ? String((Number(char) + 1) % 10) : char === 'x' ? 'y' : 'x';
  return `${line.slice(0, at)}${other}${line.slice(at + 1)}`;
}

describe('the file gate: a shard line garbled while a process runs', () => {
  it('refuses what the line concerns with CoordinationStateError, naming it; creates the rest once', async () => {
    const seed = seedOf();
    const random = seeded(seed);
    const mock = await createMockServer({ seed });
    const state = stateDirectory('garbled');
    try {
      const prefix = 'file-garbled';
      const households = Array.from({ length: HOUSEHOLDS }, (_, index) => `${prefix}-${index}`);
      // One of the first households the first process creates: it has more to go once it is done.
      const target = households[Math.floor(random() * 3)] ?? `${prefix}-0`;
      const key = keyOf(mock.clientId, target);
      const shardName = shardNameOf(key);
      // Each create takes 300 ms: the first process runs for a couple of seconds.
      mock.faults.next(2 * HOUSEHOLDS, { latencyMs: 300 }, CREATE);
      const config = (order: string[], startAt: number): FileChaosConfig => ({
        stateDir: state.path,
        households: order,
        waves: 1,
        concurrency: 2,
        startAt,
        ...TIMING,
      });
      const first = startFileWorker(fileWorker.path, mock, config(households, Date.now() + 300));

      // The target's `created` record on disk: that line is garbled, in place.
      const { path, index } = await eventually('the target household is recorded as created', async () => {
        const shard = shardFiles(state.path).find((file) => basename(file.path) === shardName);
        const at = shard?.lines.findIndex(
          (line) => line.startsWith(`{"k":"${key}"`) && line.includes('"state":"created"'),
        );
        return shard && at !== undefined && at >= 0 ? { path: shard.path, index: at } : undefined;
      });
      const lines = readFileSync(path, 'utf8').split('\n');
      const original = lines[index] ?? '';
      lines[index] = garble(original, Math.floor(random() * original.length));
      writeFileSync(path, lines.join('\n'));
      const damagedLine = index + 1;

      // A second process on the same folder and households, while the first goes on.
      const second = startFileWorker(fileWorker.path, mock, config([...households].reverse(), Date.now()));
      const reports = await Promise.all([first.report, second.report]);
      const summary = summarize('file garbled shard line', seed, mock, prefix, households, reports, LEASE_MS);

      expect(summary.duplicates).toEqual([]);
      expect(unreportedMissing(summary.missing, reports, ['CoordinationStateError'])).toEqual([]);
      expect(summary.silentLongCalls).toEqual([]);
      // The second process read the whole folder: the target is refused, naming the file and line.
      const secondReport = reports[1];
      const refused = secondReport?.results.filter(
        (result) => result.error?.name === 'CoordinationStateError',
      );
      expect(refused?.map((result) => result.household)).toContain(target);
      for (const result of refused ?? []) {
        expect(result.error?.message).toContain(
          `The coordination file ${path} is damaged at line ${damagedLine}`,
        );
        // Only households of the damaged shard.
        expect(shardNameOf(keyOf(mock.clientId, result.household))).toBe(shardName);
      }
      // Nothing else failed: the rest were created once, by one process or the other.
      const otherErrors = reports
        .flatMap((report) => report.results)
        .filter((result) => result.error && result.error.name !== 'CoordinationStateError');
      expect(otherErrors).toEqual([]);
    } finally {
      await mock.close();
      state.remove();
    }
  });
});
