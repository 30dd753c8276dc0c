/** README.md's fragments: the platform's landlord table, as docs/platforms.md has it (common.ts has the rest). */
export { landlords } from './docs-platforms.js';
