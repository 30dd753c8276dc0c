import { fileURLToPath } from 'node:url';
import {
  configDefaults,
  defineConfig,
  type TestProjectInlineConfiguration,
  type ViteUserConfig,
} from 'vitest/config';

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
 * Run as their own CI steps, each its own project below: the examples, the built declarations,
 * the fleet suite on a real redis-server, the seams, the contract, the real-time faults and the
 * many-account isolation suites.
 */
const NOT_IN_NPM_TEST = [
  'test/examples/**',
  'test/package/declarations.test.ts',
  'test/fleet/**',
  // Faults injected into real processes on a real Redis: npm run test:chaos (project `chaos`).
  'test/chaos/**',
  'test/seams/**',
  // Independent OpenAPI tools as child processes: npm run test:contract (project `contract`).
  'test/contract/**',
  // Real-time fault suites: npm run test:faults (project `faults`).
  'test/reliability/faults-with-ids.test.ts',
  'test/reliability/faults-without-ids.test.ts',
  'test/testing/faults.test.ts',
  // Child processes (the CLI's signals, token stores across processes, the mock bin): npm run
  // test:seams (project `seams`), beside the other suites of real processes.
  'test/cli/signals.test.ts',
  'test/integrations/token-store-processes.test.ts',
  'test/testing/bin.test.ts',
  // Many-account isolation, 200 accounts each: npm run test:platforms (project `platforms`).
  'test/integrations/platform-isolation.test.ts',
  'test/integrations/platform-isolation-mock.test.ts',
  'test/integrations/platform-isolation-accounts.test.ts',
  // The mock's console in headless Chromium: npm run test:browser (project `browser`).
  'test/browser/**',
];

/**
 * One project of this config: it extends the root (`shared`: aliases, setup files, timeouts,
 * pool, two workers) and names its files. Each has its own `sequence.groupOrder`, so that
 * projects of different `maxWorkers` can run in one `vitest run` (vitest refuses two such
 * projects in one group); each npm script runs one project (`--project <name>`).
 */
function project(
  name: string,
  groupOrder: number,
  test: NonNullable<TestProjectInlineConfiguration['test']>,
): TestProjectInlineConfiguration {
  return { extends: true, test: { name, ...test, sequence: { groupOrder } } };
}

/**
 * The test suites, one project each, chosen by `--project <name>` (package.json's scripts):
 *
 * - `unit`: `npm test` (`vitest run --project unit`), in process, on clocks, under 40 s. The type
 *   tests (`*.test-d.ts`) are checked by `npm run typecheck`: tsconfig.json includes test/, and a
 *   failed `expectTypeOf` assertion is a compile error there, so vitest does not typecheck.
 * - `examples`: `npm run examples`, every example run as a user would run it.
 * - `package`: the packaging checks' run of test/package/declarations.test.ts over built or
 *   installed declarations (`DECLARATIONS_DIR`), outside `npm test`, which builds nothing.
 * - `fleet`: `npm run test:fleet`, the Redis entry and fleets of processes on a real
 *   redis-server, which each file starts on free ports (test/fleet/redis-server.ts).
 * - `seams`: `npm run test:seams`, where two features meet as users combine them, with real
 *   processes and real time (two CLI runs at once, a process killed holding a lease, the mock
 *   bin's ticking clock), and the single-feature suites that need child processes.
 * - `contract`: `npm run test:contract`, openapi.json checked as a team in another language would
 *   check it, with independent tools run as child processes (linters, a generated client
 *   type-checked and driven against the mock, Prism as a validating proxy and a seeded fuzz in
 *   front of the strict mock).
 * - `faults`: `npm run test:faults`, the fault-injection suite (docs/reliability.md), 200 creates
 *   per fault against the mock, whose held commits, list lags and timeouts run in real time, and
 *   the tests of the mock's faults themselves (test/testing/faults.test.ts).
 * - `platforms`: `npm run test:platforms`, the isolation suites of many accounts
 *   (docs/platforms.md), 200 landlord accounts each against the multi-account mock and against a
 *   server that checks every token: in process, but a suite this size would take `npm test` past
 *   its 40 s.
 * - `chaos`: `npm run test:chaos`, faults injected into fleets of real processes on a real
 *   redis-server (test/chaos/, docs/fault-model.md): processes paused and resumed (SIGSTOP and
 *   SIGCONT), clocks ahead and behind, late commits, Redis flushed, restarted (with and without
 *   AOF) and failed over (redis-sentinel), a process cut off from Redis by a TCP proxy; and the
 *   command line's file gate (a state folder two processes share): paused, a clock off, a shard
 *   line garbled. Each
 *   scenario prints one `chaos {...}` line
 *   (households, groups, duplicates, duplicates reported, the longest call, its seed:
 *   `CHAOS_SEED=<seed>` runs it again).
 * - `browser`: `npm run test:browser`, the mock's console (src/testing/console) in headless
 *   Chromium (Debian's `chromium`, driven by playwright-core), checked with axe-core.
 *
 * All but `unit` are `.ci/run` steps of their own. The mutation run (StrykerJS, whose vitest
 * runner cannot pick a project) keeps its own config, vitest.mutation.config.ts.
 */
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    projects: [
      project('unit', 0, {
        include: ['test/**/*.test.ts'],
        exclude: [...configDefaults.exclude, ...NOT_IN_NPM_TEST],
        // The files of a worker share one module cache: each file re-imported the SDK, the mock and
        // zod (half a second a file, most of the suite's time). So no test file mocks a module, no
        // shared module registers hooks at import time, and state a file changes it restores.
        isolate: false,
        unstubEnvs: true,
      }),
      project('examples', 1, { include: ['test/examples/**/*.test.ts'] }),
      project('package', 2, { include: ['test/package/declarations.test.ts'] }),
      // One file at a time: the fleet tests start their own child processes.
      project('fleet', 3, { include: ['test/fleet/**/*.test.ts'], maxWorkers: 1, testTimeout: 60_000 }),
      project('seams', 4, {
        include: [
          'test/seams/**/*.test.ts',
          // Single features in child processes: signals to the CLI, token stores shared by
          // processes, the mock bin (moved out of npm test, which stays in process).
          'test/cli/signals.test.ts',
          'test/integrations/token-store-processes.test.ts',
          'test/testing/bin.test.ts',
        ],
        exclude: [...configDefaults.exclude],
        // One file at a time: its tests start child processes.
        maxWorkers: 1,
        testTimeout: 120_000,
      }),
      project('contract', 5, {
        include: ['test/contract/**/*.test.ts'],
        exclude: [...configDefaults.exclude],
        // One file at a time: its tests start child processes.
        maxWorkers: 1,
        testTimeout: 120_000,
      }),
      project('faults', 6, {
        include: [
          'test/reliability/faults-with-ids.test.ts',
          'test/reliability/faults-without-ids.test.ts',
          'test/testing/faults.test.ts',
        ],
        exclude: [...configDefaults.exclude],
      }),
      project('platforms', 7, {
        include: [
          'test/integrations/platform-isolation.test.ts',
          'test/integrations/platform-isolation-mock.test.ts',
          'test/integrations/platform-isolation-accounts.test.ts',
        ],
        exclude: [...configDefaults.exclude],
      }),
      // One file at a time: each starts its own processes and redis-server.
      project('chaos', 8, {
        include: ['test/chaos/**/*.test.ts'],
        exclude: [...configDefaults.exclude],
        maxWorkers: 1,
        testTimeout: 120_000,
      }),
      // One file at a time: each drives one headless Chromium against one mock.
      project('browser', 9, { include: ['test/browser/**/*.test.ts'], maxWorkers: 1, testTimeout: 60_000 }),
    ],
  },
});
