import { configDefaults, defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/**
 * `npm run test:contract`: openapi.json checked as a team in another language would check it,
 * with independent tools run as child processes (linters, a generated client type-checked and
 * driven against the mock, Prism as a validating proxy and a seeded fuzz in front of the strict
 * mock). Not part of `npm test`, which stays in-process and quick; `.ci/run`
 * runs it. One file at a time: its tests start child processes.
 */
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ['test/contract/**/*.test.ts'],
    exclude: [...configDefaults.exclude],
    maxWorkers: 1,
    testTimeout: 120_000,
  },
});
