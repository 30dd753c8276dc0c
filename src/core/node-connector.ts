/**
 * The Node entry's connector (also Bun's and Deno's): undici's keep-alive dispatchers, or fetch
 * when the caller passes one or the runtime's undici cannot dispatch (Bun).
 */
import type { Connector } from './connector.js';
import { createDispatchers } from './dispatcher.js';
import { ConfigurationError, NODE_DEFAULTS } from './options.js';
import { runtimeName } from './runtime.js';
import { fetchTransport } from './transport.js';
import { undiciCanDispatch, undiciTransport } from './undici-transport.js';

const closeNothing = async (): Promise<void> => {};

/** Undici on Node and Deno; fetch under Bun or when the caller passes one. */
export const nodeConnector: Connector = {
  defaults: NODE_DEFAULTS,
  connect(origin, { dispatcher, fetch }) {
    // Bun's `undici` has no working dispatcher: its fetch carries the requests instead.
    const undiciWorks = undiciCanDispatch();
    if (dispatcher !== undefined && !undiciWorks) {
      throw new ConfigurationError(
        `The dispatcher option needs undici's dispatcher, which this runtime (${runtimeName()}) does not provide: leave it out (the SDK sends through fetch here), or use the fetch option.`,
      );
    }
    if (fetch !== undefined) return { transport: fetchTransport(fetch), close: closeNothing };
    if (!undiciWorks) return { transport: fetchTransport(() => globalThis.fetch), close: closeNothing };
    const dispatchers = createDispatchers(origin, dispatcher);
    return { transport: undiciTransport(dispatchers.dispatcherFor), close: dispatchers.close };
  },
};
