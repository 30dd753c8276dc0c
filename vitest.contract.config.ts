import { configDefaults, defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/**
 * `npm run test:contract`: the API's OpenAPI document against independent tools, with the mock
 * in strict mode as the service they see (Prism as a validating proxy, a schema-driven fuzz).
 * Not part of `npm test`: it starts child processes and sends thousands of requests; `.ci/run`
 * runs it. One file at a time.
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
