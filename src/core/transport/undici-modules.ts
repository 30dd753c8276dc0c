/**
 * undici's `Pool`, `Agent` and `errors`, loaded when the first client is built, from the modules
 * that define them. undici's index loads all of undici (fetch, WebSocket, EventSource, caches,
 * mocks, interceptors): about 50 ms of a cold process on the machine in docs/benchmarks.md,
 * against about 20 ms for the modules the SDK's transport uses (it calls `dispatch()`, which needs
 * nothing the index adds). An application that imports the SDK and never builds a client, or
 * passes `fetch`, loads no undici at all.
 *
 * The module paths are undici 7's (it has no `exports` map, so they resolve). Where they do not
 * hold what they should (a later undici moved them), and on Bun and Deno (whose `undici` may be
 * the runtime's own), undici's index is required instead: the same classes, slower to load. Where
 * nothing resolves by `require` (an application bundled without its `node_modules`),
 * {@link importUndici} imports the index with a literal `import('undici')`, which bundlers follow.
 */
import { createRequire } from 'node:module';
import type { Agent, errors, Pool } from 'undici';
import { runtimeName } from './runtime.js';

/** What the Node transport takes from undici. */
export interface UndiciParts {
  readonly Pool: typeof Pool;
  readonly Agent: typeof Agent;
  readonly errors: typeof errors;
  /** Whether they came from their own modules (`true`) or from undici's index. */
  readonly direct: boolean;
}

/** The modules of undici 7 that define the parts. */
export const UNDICI_PART_MODULES = {
  Pool: 'undici/lib/dispatcher/pool.js',
  Agent: 'undici/lib/dispatcher/agent.js',
  errors: 'undici/lib/core/errors.js',
} as const;

type Require = (id: string) => unknown;
type UndiciIndex = typeof import('undici');

/** Whether `value` is a class whose instances can dispatch a request (the casts below follow it). */
function isDispatcherClass(value: unknown): boolean {
  return (
    typeof value === 'function' && typeof (value.prototype as { dispatch?: unknown })?.dispatch === 'function'
  );
}

function isErrors(value: unknown): value is typeof errors {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { RequestAbortedError?: unknown }).RequestAbortedError === 'function'
  );
}

/** Whether the loaded undici can dispatch: Bun's own `undici` has classes that cannot. */
export function undiciCanDispatch(parts: { readonly Pool: unknown; readonly Agent: unknown }): boolean {
  return isDispatcherClass(parts.Pool) && isDispatcherClass(parts.Agent);
}

function fromModules(load: Require): UndiciParts | undefined {
  try {
    const pool = load(UNDICI_PART_MODULES.Pool);
    const agent = load(UNDICI_PART_MODULES.Agent);
    const errorClasses = load(UNDICI_PART_MODULES.errors);
    if (isDispatcherClass(pool) && isDispatcherClass(agent) && isErrors(errorClasses)) {
      return { Pool: pool as typeof Pool, Agent: agent as typeof Agent, errors: errorClasses, direct: true };
    }
  } catch {
    // Not where undici 7 keeps them: the index has them.
  }
  return undefined;
}

function fromIndex(index: UndiciIndex): UndiciParts {
  return { Pool: index.Pool, Agent: index.Agent, errors: index.errors, direct: false };
}

/**
 * Loads the parts with `load` (a `require`): from their own modules on Node, else from undici's
 * index; `undefined` when neither resolves.
 */
export function loadUndiciParts(load: Require, runtime: string = runtimeName()): UndiciParts | undefined {
  const direct = runtime.startsWith('node/') ? fromModules(load) : undefined;
  if (direct) return direct;
  try {
    return fromIndex(load('undici') as UndiciIndex);
  } catch {
    return undefined;
  }
}

/**
 * A `require` resolving from this module, if `import.meta.url` is a file's: a CommonJS bundle of
 * the ES module build leaves it undefined.
 */
function moduleRequire(): Require | undefined {
  try {
    return createRequire(import.meta.url);
  } catch {
    return undefined;
  }
}

let required: { parts: UndiciParts | undefined } | undefined;

/** undici's parts by `require`, tried once per process; `undefined` when undici does not resolve so. */
export function requireUndici(): UndiciParts | undefined {
  if (!required) {
    const load = moduleRequire();
    required = { parts: load && loadUndiciParts(load) };
  }
  return required.parts;
}

/** undici's parts from its index, by a literal `import('undici')` (what a bundler includes). */
export async function importUndici(): Promise<UndiciParts> {
  return fromIndex(await import('undici'));
}
