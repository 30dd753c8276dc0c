/**
 * zod, loaded on first need. The library's modules import zod's types only and reach its code
 * through {@link zod}: importing the SDK loads no zod (about 170 KB bundled, some 15 ms of CPU to
 * compile and initialise), and a process whose calls are all covered by the checks generated at
 * build time (a token exchange and a first list page) never loads it (docs/benchmarks.md, "Cold
 * start, round 7"). Entry points that build schemas at import (`applicant-verification/schemas`,
 * the testing kit, the CLI) import zod themselves and {@link provideZod} it.
 */
import type { zodApi } from './zod-api.js';

/** The members of zod the library calls at run time (src/load/zod-api.ts). */
export type ZodModule = typeof zodApi;

let loaded: ZodModule | undefined;
let loading: Promise<ZodModule> | undefined;

/** Hands over a zod the caller imported itself; the first one given is kept. */
export function provideZod(module: ZodModule): void {
  loaded ??= module;
}

/** zod, when it has been loaded or provided; `undefined` before. */
export function zodIfLoaded(): ZodModule | undefined {
  return loaded;
}

/** Loads zod (once per process; later calls share the same promise). */
export function loadZod(): Promise<ZodModule> {
  if (loaded !== undefined) return Promise.resolve(loaded);
  loading ??= import('./zod-api.js').then(
    (module) => {
      provideZod(module.zodApi);
      return loaded ?? module.zodApi;
    },
    (error: unknown) => {
      // A failed load (a bundle missing its chunk) is tried again by the next call.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * zod, for code that runs only after {@link loadZod} resolved or an entry point provided it:
 * schema builders, request and response parsing.
 *
 * @throws Error when zod has not been loaded: a path in the SDK that forgot to load it first.
 */
export function zod(): ZodModule {
  if (loaded === undefined) {
    throw new Error(
      'applicant-verification: zod was used before it was loaded (a bug in the SDK; please report it)',
    );
  }
  return loaded;
}
