import { configDefaults, defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/**
 * `npm run test:faults`: the fault-injection suite (docs/reliability.md), 200 creates per fault
 * against the mock, whose held commits, list lags and timeouts run in real time, and the tests of
 * the mock's faults themselves (test/testing/faults.test.ts: held commits and list lags waited out
 * in real time too). Not part of `npm test`, which stays on clocks and under 40 s; `.ci/run` runs it.
 */
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: [
      'test/reliability/faults-with-ids.test.ts',
      'test/reliability/faults-without-ids.test.ts',
      'test/testing/faults.test.ts',
    ],
    exclude: [...configDefaults.exclude],
  },
});
