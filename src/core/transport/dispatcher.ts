/**
 * Connection pools. API calls go to one origin, so they get a keep-alive `Pool`, pipelining off
 * (one request per connection at a time: a slow response never holds up the ones queued behind
 * it). Driven through `dispatcher.request()`/`dispatch()` directly, a Pool and an Agent came out
 * within noise of each other in bench/ (docs/benchmarks.md, columns B/B' and A/A'); the Pool stays
 * because it needs no per-request origin lookup and its connection cap belongs to the API alone.
 * Anything else (pre-signed PDF links) shares a lazy `Agent`. A caller's own dispatcher is used for
 * everything and never closed by us.
 */
import type { Agent, Dispatcher, Pool } from 'undici';
import type { UndiciParts } from './undici-modules.js';

/** Picks a dispatcher per origin and closes what it opened. */
export interface Dispatchers {
  dispatcherFor(origin: string): Dispatcher;
  close(): Promise<void>;
}

/**
 * The API pool's socket cap when the root client sets no `maxConcurrency`: what one process keeps
 * open to the one vendor host, whatever the number of accounts its derived clients serve (they
 * share the pool). Requests beyond it wait in the pool's queue, that wait counting against their
 * attempt's timeout (a request that times out there was never sent). undici's own default is
 * unbounded, and the SDK's was 256: 16 callers opened 31 sockets (docs/benchmarks.md, "Platforms").
 */
const DEFAULT_API_SOCKETS = 16;

const KEEP_ALIVE = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, pipelining: 1 } as const;

/** Builds the dispatchers for `apiOrigin` from `undici`'s classes, or wraps the caller's `dispatcher`. */
export function createDispatchers(
  apiOrigin: string,
  undici: Pick<UndiciParts, 'Pool' | 'Agent'>,
  dispatcher?: Dispatcher,
  connections = DEFAULT_API_SOCKETS,
): Dispatchers {
  if (dispatcher) return { dispatcherFor: () => dispatcher, close: async () => {} };
  let pool: Pool | undefined;
  let agent: Agent | undefined;
  return {
    dispatcherFor(origin) {
      if (origin === apiOrigin) {
        pool ??= new undici.Pool(apiOrigin, { ...KEEP_ALIVE, connections });
        return pool;
      }
      agent ??= new undici.Agent(KEEP_ALIVE);
      return agent;
    },
    async close() {
      await Promise.all([pool?.close(), agent?.close()]);
      pool = undefined;
      agent = undefined;
    },
  };
}
