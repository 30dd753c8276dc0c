/**
 * How an entry sends requests. The core names no transport: each entry hands the client a
 * connector (the Node entry undici's, node-connector.ts; the edge entry {@link fetchConnector}),
 * so the core loads where undici and Node's modules are absent.
 */
import type { Dispatcher } from 'undici';
import { ConfigurationError, type TimingDefaults } from '../options.js';
import { runtimeName } from './runtime.js';
import { fetchTransport, type Transport } from './transport.js';

/** A transport and what closes it. */
export interface Connection {
  transport: Transport;
  /** Releases what the transport opened (sockets), so a batch script can exit. */
  close(): Promise<void>;
}

/** The transport choice a client's options make. */
export interface TransportChoice {
  /** The caller's undici dispatcher, if any. */
  dispatcher: Dispatcher | undefined;
  /** The caller's fetch, looked up at call time, if any. */
  fetch: (() => typeof fetch) | undefined;
  /**
   * The most sockets the API's own pool may open: the root client's `maxConcurrency` when finite,
   * so derived clients sharing the pool never open more than that, however many accounts.
   */
  connections?: number | undefined;
}

/** An entry's way of sending: its timing defaults, and the connection it opens per client. */
export interface Connector {
  /** The timing options' defaults on this entry. */
  defaults: TimingDefaults;
  /**
   * Opens the connection for the API at `origin`.
   * @throws {ConfigurationError} when this entry cannot honour the choice (a dispatcher without undici).
   */
  connect(origin: string, choice: TransportChoice): Connection;
}

/**
 * The edge entry's defaults: every call, retries, backoff and a create's grace window included,
 * ends within 20 s, inside Vercel Edge's ~25 s to the first response byte.
 */
export const EDGE_DEFAULTS: TimingDefaults = {
  timeout: 8_000,
  maxRetries: 2,
  deadline: 20_000,
  createGraceWindow: 6_000,
};

const closeNothing = async (): Promise<void> => {};

/** Sends through fetch (the caller's, else the global one looked up at call time); no undici. */
export const fetchConnector: Connector = {
  defaults: EDGE_DEFAULTS,
  connect(_origin, choice) {
    if (choice.dispatcher !== undefined) {
      throw new ConfigurationError(
        `The dispatcher option needs undici, which this entry does not load (${runtimeName()}): leave it out (the SDK sends through fetch here), or use the fetch option.`,
      );
    }
    return { transport: fetchTransport(choice.fetch ?? (() => globalThis.fetch)), close: closeNothing };
  },
};
