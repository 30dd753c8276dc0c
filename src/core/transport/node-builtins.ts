/**
 * Node's built-in modules for the file-backed stores, loaded when a store first needs them. An ES
 * import of `node:crypto`, `node:fs/promises`, `node:os` or `node:util` makes Node build the
 * module's whole namespace when the SDK is imported (Web Crypto, `readline`, the argument parser):
 * a few milliseconds of every cold start, for classes most applications never construct
 * (docs/benchmarks.md, "Cold start, round 6").
 */
import { createRequire } from 'node:module';

/** The built-ins the file-backed stores use. */
interface Builtins {
  'node:crypto': typeof import('node:crypto');
  'node:fs': typeof import('node:fs');
  'node:fs/promises': typeof import('node:fs/promises');
  'node:os': typeof import('node:os');
}

let required: ((id: string) => unknown) | undefined;

/**
 * The built-in `id`: through `process.getBuiltinModule` (Node 20.16 and later, Bun, Deno), else
 * a `require` resolving from this module.
 */
export function nodeBuiltin<ID extends keyof Builtins>(id: ID): Builtins[ID] {
  if (typeof process.getBuiltinModule === 'function') return process.getBuiltinModule(id);
  required ??= createRequire(import.meta.url);
  // `require` of a built-in's own name returns that built-in.
  return required(id) as Builtins[ID];
}
