import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/** `npm run examples`: every example run as a user would run it, outside `npm test`. */
export default defineConfig({
  ...shared,
  test: { ...shared.test, include: ['test/examples/**/*.test.ts'] },
});
