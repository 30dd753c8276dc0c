/**
 * Code that builds schemas synchronously without having loaded zod first (src/load/zod.ts): the
 * schema modules of `applicant-verification/schemas`, which build their schemas at import, and
 * the households entry, which checks each body it builds. They import zod themselves and hand it
 * to the builders, which otherwise wait for the client to load it on first need. A call, not a
 * side effect of importing: the package declares none (`sideEffects: false`), so a bundler drops a
 * module whose exports go unused, and with it anything its import would have done.
 */
import * as z from 'zod';
import { provideZod } from '../load/zod.js';

/** Runs a schema builder with zod provided first. */
export function withZod<T>(build: () => T): T {
  provideZod(z);
  return build();
}
