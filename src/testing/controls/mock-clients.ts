/**
 * `mock.client()`: SDK clients wired to one mock. They share the mock's time (a frozen mock's
 * clock through {@link createTestClock}, a ticking one's with real waits) and one coordination of
 * the mock's own on that time, which `mock.reset()` clears, so a test's leases and recorded
 * create outcomes never outlive the state they were about. `mock.close()` closes them. Clients
 * of different accounts share that coordination too: it keys its leases and records by client id.
 */
import { type ClientOptions, InProcessCoordination, VerificationClient } from 'applicant-verification';
import type { AccountBook } from '../accounts/accounts.js';
import { createTestClock, createTickingClientClock, type MockClock } from '../state/clock.js';

/** How a mock's clients reach it. */
export interface MockClientWiring {
  /** The mock's clock: the clients' time and their coordination's. */
  clock: MockClock;
  /** Whether the clock ticks with real time (the clients then wait in real time too). */
  ticking: boolean;
  /** Client options that reach the mock: its URL, and its `fetch` for an in-process mock. */
  connection: ClientOptions;
  /** The mock's accounts: a client has the first one's credentials unless it names another. */
  accounts: AccountBook;
}

/** Options of `mock.client()`: a client's options, and which of the mock's accounts it acts for. */
export interface MockClientOptions extends ClientOptions {
  /**
   * Client id of one of the mock's accounts (default: the first): the client gets its
   * credentials. An unknown id throws, naming the mock's accounts. An explicit `clientId` or
   * `secretKey` beside it still wins (to try a wrong secret, say).
   */
  account?: string;
}

/** The clients of one mock: made, cleared and closed together. */
export interface MockClients {
  /** A new client wired to the mock, for `options.account` (default: the first account); `options` override any of the defaults. */
  client(options?: MockClientOptions): VerificationClient;
  /** Forgets the leases, outcome records and pauses of the clients' coordination. */
  reset(): void;
  /** Closes every client made. */
  close(): Promise<void>;
}

/** The clients of the mock `wiring` describes. */
export function createMockClients(wiring: MockClientWiring): MockClients {
  const { clock, ticking, connection, accounts } = wiring;
  const coordination = new InProcessCoordination(() => clock.now());
  const clientClock = ticking ? createTickingClientClock(clock) : createTestClock(clock);
  const made = new Set<VerificationClient>();
  return {
    client({ account, ...options } = {}) {
      const { clientId, secretKey } = account === undefined ? accounts.first : accounts.get(account);
      const client = new VerificationClient({
        ...connection,
        clientId,
        secretKey,
        clock: clientClock,
        coordination,
        ...options,
      });
      made.add(client);
      return client;
    },
    reset() {
      coordination.clear();
    },
    async close() {
      const clients = [...made];
      made.clear();
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}
