import { defineConfig } from 'vitest/config';
import { REDACTION_SCAN, shared } from './vitest.config.js';

/** `npm run examples`: every example run as a user would run it, outside `npm test`. */
export default defineConfig({
  ...shared,
  test: { ...shared.test, globalSetup: [REDACTION_SCAN], include: ['test/examples/**/*.test.ts'] },
});
