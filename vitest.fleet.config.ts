import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/**
 * `npm run test:fleet`: the Redis entry and fleets of processes on a real redis-server, which each
 * file starts on free ports (test/fleet/redis-server.ts). Not part of `npm test`, which runs
 * without Redis; `.ci/run` installs redis-server and runs it. One file at a time: the fleet tests
 * start their own child processes.
 */
export default defineConfig({
  ...shared,
  test: { ...shared.test, include: ['test/fleet/**/*.test.ts'], maxWorkers: 1, testTimeout: 60_000 },
});
