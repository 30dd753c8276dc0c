import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';

/** What every run shares: the package names pointed at the sources, the redaction scan, timeouts. */
export const shared = {
  resolve: {
    alias: {
      'applicant-verification/testing': fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)),
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

// `npm test`. The examples run as their own CI step (`npm run examples`, vitest.examples.config.ts).
// The type tests (`*.test-d.ts`) are checked by `npm run typecheck`: tsconfig.json includes test/,
// and a failed `expectTypeOf` assertion is a compile error there, so vitest does not typecheck.
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/examples/**'],
  },
});
