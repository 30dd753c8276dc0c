/**
 * Runs `examples/testing-with-vitest.ts`: `npx vitest run --config examples/vitest.config.ts`.
 * The aliases point the package's names at the sources here; in your project the installed
 * package resolves them and no alias is needed.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // Keep vite's cache with the project's, not in examples/node_modules.
  cacheDir: here('../node_modules/.vite/examples'),
  resolve: {
    alias: {
      'applicant-verification/testing': here('../src/testing/index.ts'),
      'applicant-verification/schemas': here('../src/schemas/index.ts'),
      'applicant-verification/households': here('../src/households/index.ts'),
      'applicant-verification/redis': here('../src/redis/index.ts'),
      'applicant-verification': here('../src/index.ts'),
    },
  },
  test: {
    root: here('.'),
    include: ['testing-with-vitest.ts'],
    testTimeout: 30_000,
  },
});
