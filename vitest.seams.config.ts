import { configDefaults, defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/**
 * `npm run test:seams`: where two features meet as users combine them, with real processes and
 * real time (two CLI runs at once, a process killed holding a lease, the mock bin's ticking
 * clock), and the single-feature suites that need child processes. Not part of `npm test`, which
 * stays in-process and on clocks; `.ci/run` runs it. One file at a time: its tests start child
 * processes.
 */
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: [
      'test/seams/**/*.test.ts',
      // Single features in child processes: signals to the CLI, token stores shared by processes,
      // the mock bin (moved out of npm test, which stays in process).
      'test/cli/signals.test.ts',
      'test/integrations/token-store-processes.test.ts',
      'test/testing/bin.test.ts',
    ],
    exclude: [...configDefaults.exclude],
    maxWorkers: 1,
    testTimeout: 120_000,
  },
});
