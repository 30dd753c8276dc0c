/**
 * The Node entry's connector (also Bun's and Deno's): undici's keep-alive dispatchers, or fetch
 * when the caller passes one or the runtime's undici cannot dispatch (Bun). undici loads when the
 * first client is built, not when the SDK is imported (src/core/transport/undici-modules.ts).
 */

import { ConfigurationError, NODE_DEFAULTS } from '../options.js';
import type { Connection, Connector, TransportChoice } from './connector.js';
import { createDispatchers } from './dispatcher.js';
import { runtimeName } from './runtime.js';
import { fetchTransport } from './transport.js';
import { importUndici, requireUndici, type UndiciParts, undiciCanDispatch } from './undici-modules.js';
import { undiciTransport } from './undici-transport.js';

const closeNothing = async (): Promise<void> => {};

function undiciConnection(
  undici: UndiciParts,
  origin: string,
  { dispatcher, fetch, connections }: TransportChoice,
): Connection {
  // Bun's `undici` has no working dispatcher: its fetch carries the requests instead.
  const undiciWorks = undiciCanDispatch(undici);
  if (dispatcher !== undefined && !undiciWorks) {
    throw new ConfigurationError(
      `The dispatcher option needs undici's dispatcher, which this runtime (${runtimeName()}) does not provide: leave it out (the SDK sends through fetch here), or use the fetch option.`,
    );
  }
  if (fetch !== undefined) return { transport: fetchTransport(fetch), close: closeNothing };
  if (!undiciWorks) return { transport: fetchTransport(() => globalThis.fetch), close: closeNothing };
  const dispatchers = createDispatchers(origin, undici, dispatcher, connections);
  return {
    transport: undiciTransport(dispatchers.dispatcherFor, undici.errors.RequestAbortedError),
    close: dispatchers.close,
  };
}

/** A connection whose requests wait for `connecting` (undici being imported) the first time. */
export function deferredConnection(connecting: Promise<Connection>): Connection {
  let ready: Connection | undefined;
  // Failures reach every request and close() below; this only remembers success.
  connecting.then(
    (connection) => {
      ready = connection;
    },
    () => {},
  );
  return {
    transport: (request) => (ready ? ready.transport(request) : connecting.then((c) => c.transport(request))),
    close: () => connecting.then((c) => c.close(), closeNothing),
  };
}

/**
 * A Node connector that loads undici with `requireParts` (synchronously, when the first client is
 * built) or, where that finds none, with `importParts` on the first request.
 */
export function nodeConnectorWith(
  requireParts: () => UndiciParts | undefined,
  importParts: () => Promise<UndiciParts>,
): Connector {
  return {
    defaults: NODE_DEFAULTS,
    connect(origin, choice) {
      if (choice.fetch !== undefined && choice.dispatcher === undefined) {
        return { transport: fetchTransport(choice.fetch), close: closeNothing };
      }
      const undici = requireParts();
      if (undici) return undiciConnection(undici, origin, choice);
      // `require` finds no undici (an application bundled without its node_modules): the bundle
      // holds the index that `import('undici')` names.
      return deferredConnection(importParts().then((parts) => undiciConnection(parts, origin, choice)));
    },
  };
}

/** Undici on Node and Deno; fetch under Bun or when the caller passes one. */
export const nodeConnector: Connector = nodeConnectorWith(requireUndici, importUndici);
