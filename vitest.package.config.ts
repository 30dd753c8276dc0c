import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/**
 * The packaging checks' run of test/package/declarations.test.ts over built or installed
 * declarations (`DECLARATIONS_DIR`), outside `npm test`, which builds nothing.
 */
export default defineConfig({
  ...shared,
  test: { ...shared.test, include: ['test/package/declarations.test.ts'] },
});
