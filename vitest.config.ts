import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';

/** What every run shares: the package names pointed at the sources, the redaction scan, timeouts. */
export const shared = {
  resolve: {
    alias: {
      'applicant-verification/testing': fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)),
      'applicant-verification/redis': fileURLToPath(new URL('./src/redis/index.ts', import.meta.url)),
      'applicant-verification/schemas': fileURLToPath(new URL('./src/schemas/index.ts', import.meta.url)),
      'applicant-verification/households': fileURLToPath(
        new URL('./src/households/index.ts', import.meta.url),
      ),
      'applicant-verification': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    setupFiles: ['test/support/setup-exposure.ts'],
    globalSetup: ['test/support/global-redaction.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Both cores: vitest's default leaves one free, which on a 2-core machine runs one file at a time.
    maxWorkers: 2,
  },
} satisfies ViteUserConfig;

/**
 * Run as their own CI steps: the examples (`npm run examples`, vitest.examples.config.ts), the
 * built declarations (the packaging checks, vitest.package.config.ts) and the fleet suite on a real
 * redis-server (`npm run test:fleet`, vitest.fleet.config.ts).
 */
const NOT_IN_NPM_TEST = [
  'test/examples/**',
  'test/package/declarations.test.ts',
  'test/fleet/**',
  // Faults injected into real processes on a real Redis: npm run test:chaos (vitest.chaos.config.ts).
  'test/chaos/**',
  'test/seams/**',
  // Independent OpenAPI tools as child processes: npm run test:contract (vitest.contract.config.ts).
  'test/contract/**',
  // Real-time fault suites: npm run test:faults (vitest.faults.config.ts).
  'test/reliability/faults-with-ids.test.ts',
  'test/reliability/faults-without-ids.test.ts',
  'test/testing/faults.test.ts',
  // Child processes (the CLI's signals, token stores across processes, the mock bin): npm run
  // test:seams (vitest.seams.config.ts), beside the other suites of real processes.
  'test/cli/signals.test.ts',
  'test/integrations/token-store-processes.test.ts',
  'test/testing/bin.test.ts',
  // Many-account isolation, 200 accounts twice: npm run test:platforms (vitest.platforms.config.ts).
  'test/integrations/platform-isolation.test.ts',
  'test/integrations/platform-isolation-mock.test.ts',
];

// `npm test`. The type tests (`*.test-d.ts`) are checked by `npm run typecheck`: tsconfig.json
// includes test/, and a failed `expectTypeOf` assertion is a compile error there, so vitest does
// not typecheck.
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...NOT_IN_NPM_TEST],
    // The files of a worker share one module cache: each file re-imported the SDK, the mock and
    // zod (half a second a file, most of the suite's time). So no test file mocks a module, no
    // shared module registers hooks at import time, and state a file changes it restores.
    isolate: false,
    unstubEnvs: true,
  },
});
