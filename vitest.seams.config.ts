import { configDefaults, defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/**
 * `npm run test:seams`: where two features meet as users combine them, with real processes and
 * real time (two CLI runs at once, a process killed holding a lease, the mock bin's ticking
 * clock). Not part of `npm test`, which stays in-process and on clocks; `.ci/run` runs it. One
 * file at a time: its tests start child processes.
 */
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ['test/seams/**/*.test.ts'],
    exclude: [...configDefaults.exclude],
    maxWorkers: 1,
    testTimeout: 120_000,
  },
});
