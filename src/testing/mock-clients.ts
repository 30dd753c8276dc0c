/**
 * `mock.client()`: SDK clients wired to one mock. They share the mock's time (a frozen mock's
 * clock through {@link createTestClock}, a ticking one's with real waits) and one coordination of
 * the mock's own on that time, which `mock.reset()` clears, so a test's leases and recorded
 * create outcomes never outlive the state they were about. `mock.close()` closes them.
 */
import { type ClientOptions, InProcessCoordination, VerificationClient } from 'applicant-verification';
import { createTestClock, createTickingClientClock, type MockClock } from './clock.js';

/** How a mock's clients reach it. */
export interface MockClientWiring {
  /** The mock's clock: the clients' time and their coordination's. */
  clock: MockClock;
  /** Whether the clock ticks with real time (the clients then wait in real time too). */
  ticking: boolean;
  /** Client options that reach the mock: its URL, its credentials, and its `fetch` for an in-process mock. */
  connection: ClientOptions;
}

/** The clients of one mock: made, cleared and closed together. */
export interface MockClients {
  /** A new client wired to the mock; `options` override any of the defaults. */
  client(options?: ClientOptions): VerificationClient;
  /** Forgets the leases, outcome records and pauses of the clients' coordination. */
  reset(): void;
  /** Closes every client made. */
  close(): Promise<void>;
}

/** The clients of the mock `wiring` describes. */
export function createMockClients(wiring: MockClientWiring): MockClients {
  const { clock, ticking, connection } = wiring;
  const coordination = new InProcessCoordination(() => clock.now());
  const clientClock = ticking ? createTickingClientClock(clock) : createTestClock(clock);
  const made = new Set<VerificationClient>();
  return {
    client(options = {}) {
      const client = new VerificationClient({ ...connection, clock: clientClock, coordination, ...options });
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
