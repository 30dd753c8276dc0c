/**
 * The schema modules of `applicant-verification/schemas` build their schemas at import, so they
 * import zod themselves and hand it to the builders (src/load/zod.ts), which otherwise wait for
 * the client to load it on first need.
 */
import * as z from 'zod';
import { provideZod } from '../load/zod.js';

/** Runs a schema builder at import: zod is provided first. */
export function builtAtImport<T>(build: () => T): T {
  provideZod(z);
  return build();
}
