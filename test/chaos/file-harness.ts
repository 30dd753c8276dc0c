/**
 * The chaos suite's side of its file scenarios (the command line's create gate, a
 * `FileCoordination` folder shared by processes of one machine): starts file workers
 * (file-chaos-worker.ts, bundled once per file) on one state directory against one mock, and
 * finds the shard files and lines of that folder. Runs are summed up by harness.ts's `summarize`,
 * as the Redis scenarios' are.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { MockServer } from '../../src/testing/index.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import type { ChaosWorkerReport } from './chaos-worker.js';
import type { FileChaosConfig } from './file-chaos-worker.js';
import { type RunningWorker, startWorker } from './harness.js';

/** The file worker bundled once for the calling file's tests; read `path` inside a test. */
export function fileChaosWorkerBundle(): { readonly path: string } {
  const bundle = { path: '' };
  beforeAll(async () => {
    bundle.path = await bundleForNode(
      fileURLToPath(new URL('./file-chaos-worker.ts', import.meta.url)),
      'file-chaos-worker',
    );
  });
  afterAll(() => {
    if (bundle.path) removeBundle(bundle.path);
  });
  return bundle;
}

/** Starts one file worker; `clockOffsetMs` moves its wall clock (skew-clock.ts). */
export function startFileWorker(
  bundle: string,
  mock: MockServer,
  config: FileChaosConfig,
  clockOffsetMs = 0,
): RunningWorker {
  return startWorker(bundle, mock, config, clockOffsetMs, { name: 'file chaos worker', timeoutMs: 120_000 });
}

/** A fresh state directory (removed by the returned function). */
export function stateDirectory(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), `av-chaos-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The shard files of a state directory's gate, with their lines (none before the gate's folder is made). */
export function shardFiles(stateDir: string): Array<{ path: string; lines: string[] }> {
  const folder = join(stateDir, 'coordination');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => /^shard-[0-9a-f]{2}\.log$/.test(name))
    .sort()
    .map((name) => {
      const path = join(folder, name);
      return { path, lines: readFileSync(path, 'utf8').split('\n').filter(Boolean) };
    });
}

/**
 * The households of `missing` that no call reported: a household without a group must have a call
 * that ended in one of the `typed` errors (it may exist, its lease was lost, its state is damaged).
 */
export function unreportedMissing(
  missing: readonly string[],
  reports: readonly ChaosWorkerReport[],
  typed: readonly string[],
): string[] {
  const results = reports.flatMap((report) => report.results);
  return missing.filter(
    (household) =>
      !results.some(
        (result) => result.household === household && result.error && typed.includes(result.error.name),
      ),
  );
}
