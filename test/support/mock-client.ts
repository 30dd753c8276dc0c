/** The SDK's mock server and one client against it, opened and closed by hooks a test file asks for. */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type ClientOptions, VerificationClient } from '../../src/index.js';
import { createMockServer, type MockServer, type MockServerOptions } from '../../src/testing/index.js';

/** A mock server and a client pointed at it. */
export interface MockWithClient {
  mock: MockServer;
  client: VerificationClient;
}

/**
 * A client against `mock`: its URL and credentials, `logLevel: 'off'`, then `options` (which may
 * replace any of those).
 */
export function clientFor(mock: MockServer, options: Partial<ClientOptions> = {}): VerificationClient {
  return new VerificationClient({
    baseURL: mock.url,
    clientId: mock.clientId,
    secretKey: mock.secretKey,
    logLevel: 'off',
    ...options,
  });
}

/** How {@link mockWithClient} builds and scopes the pair. */
export interface MockWithClientOptions {
  /** Options of the mock server. */
  mock?: MockServerOptions;
  /** Client options beyond the mock's URL and credentials and `logLevel: 'off'` (they may replace those). */
  client?: (mock: MockServer) => Partial<ClientOptions>;
  /** `file` (default): one pair for every test of the file or describe; `test`: a fresh pair per test. */
  per?: 'file' | 'test';
  /** With `per: 'file'`, reset the mock before each test. */
  reset?: boolean;
}

/**
 * Registers the hooks that open a mock server and a client before the tests (of the file, or of the
 * describe it is called in) and close the client, then the mock, after them. `use` receives each
 * new pair: assign it to the file's variables. Call it at a test file's top level or in a
 * `describe`, never from a module's import (the suite runs with `isolate: false`).
 */
export function mockWithClient(
  use: (pair: MockWithClient) => void,
  options: MockWithClientOptions = {},
): void {
  let pair: MockWithClient | undefined;
  const open = async () => {
    const mock = await createMockServer(options.mock);
    const client = clientFor(mock, options.client?.(mock));
    pair = { mock, client };
    use(pair);
  };
  const close = async () => {
    if (!pair) return;
    const { mock, client } = pair;
    pair = undefined;
    await client.close();
    await mock.close();
  };
  if (options.per === 'test') {
    beforeEach(open);
    afterEach(close);
    return;
  }
  beforeAll(open);
  afterAll(close);
  if (options.reset) beforeEach(() => pair?.mock.reset());
}
