import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      'applicant-verification/testing': fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)),
      'applicant-verification': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/setup-exposure.ts'],
    globalSetup: ['test/support/global-redaction.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Source errors are npm run typecheck's job; here only the type tests count.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], ignoreSourceErrors: true },
  },
});
