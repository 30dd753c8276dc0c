import { configDefaults, defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/**
 * `npm run test:platforms`: the isolation suites of many accounts (docs/platforms.md), 200 landlord
 * accounts each against the multi-account mock and against a server that checks every token. In
 * process, but a suite this size would take `npm test` past its 40 s; `.ci/run` runs it.
 */
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: [
      'test/integrations/platform-isolation.test.ts',
      'test/integrations/platform-isolation-mock.test.ts',
    ],
    exclude: [...configDefaults.exclude],
  },
});
