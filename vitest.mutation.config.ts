import { readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/**
 * The suite StrykerJS runs against each mutant (`npm run test:mutation`, stryker.config.mjs).
 *
 * - `include` is narrowed to the test files of the modules being mutated (mutation.modules.json;
 *   `MUTATION_MODULES`, set by scripts/mutation.ts, names them; all of them by default). Narrowing
 *   can only lower a score, never raise it. Never narrow with Stryker's `--testFiles`: it turns
 *   static mutants into survivors.
 * - `isolate: true`: Stryker's vitest runner forces `pool: 'threads'` with one worker and reloads
 *   the modules per run; with `npm test`'s `isolate: false` a module loaded by one file would keep
 *   the mutant it was loaded with.
 * - No global redaction scan (a teardown after the run is invisible to Stryker): the same scan runs
 *   after each test instead (test/support/setup-exposure-per-test.ts), so a leak fails that test.
 */
const modules: Record<string, string[]> = JSON.parse(
  readFileSync(new URL('./mutation.modules.json', import.meta.url), 'utf8'),
);
const chosen = process.env.MUTATION_MODULES?.split(',').filter(Boolean) ?? Object.keys(modules);

export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: [...new Set(chosen.flatMap((module) => modules[module] ?? []))],
    exclude: [...configDefaults.exclude],
    setupFiles: ['test/support/setup-exposure-per-test.ts'],
    globalSetup: [],
    isolate: true,
    unstubEnvs: true,
  },
});
