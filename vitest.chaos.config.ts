import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/**
 * `npm run test:chaos`: faults injected into fleets of real processes on a real redis-server
 * (test/chaos/, docs/fault-model.md): processes paused and resumed (SIGSTOP/SIGCONT), clocks ahead
 * and behind, Redis flushed and restarted without persistence, late commits. Each scenario prints
 * one `chaos {...}` line (households, groups, duplicates, duplicates reported, the longest call,
 * its seed: CHAOS_SEED=<seed> runs it again). Not part of `npm test` (real time, real Redis);
 * `.ci/run` runs it. One file at a time: each starts its own processes and Redis.
 */
export default defineConfig({
  ...shared,
  test: { ...shared.test, include: ['test/chaos/**/*.test.ts'], maxWorkers: 1, testTimeout: 120_000 },
});
