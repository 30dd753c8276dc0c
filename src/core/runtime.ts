/**
 * Which transport the runtime can carry. Node and Deno load the real undici, whose dispatchers
 * the default transport drives directly. Bun answers `import 'undici'` with a partial module of
 * its own whose `Pool`/`Agent` cannot dispatch; there the SDK sends through the runtime's fetch
 * (same retries, create policy, timeouts and validation, all of which live above the transport).
 */
import { Agent, Pool } from 'undici';

/** Whether the loaded undici can dispatch requests (false under Bun). */
export function undiciCanDispatch(): boolean {
  return typeof Pool.prototype?.dispatch === 'function' && typeof Agent.prototype?.dispatch === 'function';
}

/** The runtime, for the User-Agent header and messages: `node/v20.19.0`, `bun/1.2.0`, `deno/2.1.0`. */
export function runtimeName(): string {
  const versions: Partial<Record<string, string>> = typeof process === 'undefined' ? {} : process.versions;
  if (versions.bun) return `bun/${versions.bun}`;
  if (versions.deno) return `deno/${versions.deno}`;
  return typeof process === 'undefined' ? 'unknown' : `node/${process.version}`;
}
