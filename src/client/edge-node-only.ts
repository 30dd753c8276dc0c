/**
 * The edge entry's stand-ins for what needs Node (files, `node:http` servers): the same names as
 * on the main entry, so code shared between runtimes still compiles, each throwing a clear error
 * when used.
 */
import type {
  CommandLineStateDir,
  CommandLineStateOptions,
} from '../core/coordination/command-line-state-types.js';
import type { Coordination, CreateLease, CreateOutcomeRecord } from '../core/coordination/coordination.js';
import { ConfigurationError } from '../core/options.js';
import type { StoredToken, TokenStore } from '../core/token/token-store.js';

function nodeOnly(name: string, instead: string): never {
  throw new ConfigurationError(
    `${name} needs Node's modules, which the edge entry of applicant-verification does not load: ${instead}.`,
  );
}

/**
 * Not on the edge entry: a token file needs `node:fs`. Implement {@link TokenStore} over your
 * platform's storage (Workers KV, a Redis over HTTP) instead.
 */
export class FileTokenStore implements TokenStore {
  /** Absolute path of the token file (never set here). */
  readonly path: string = '';

  /** @throws {ConfigurationError} always. */
  constructor(_path: string) {
    nodeOnly('FileTokenStore', "implement TokenStore over your platform's storage (KV, Redis over HTTP)");
  }

  /** Never reached: the constructor throws. */
  async get(): Promise<StoredToken | undefined> {
    return undefined;
  }

  /** Never reached: the constructor throws. */
  async set(_token: StoredToken): Promise<void> {}
}

/**
 * Not on the edge entry: Express runs on Node. Use `webhookHandler` with the web `Request`.
 * @throws {ConfigurationError} always.
 */
export function expressWebhook(_options?: unknown): never {
  return nodeOnly('expressWebhook', 'use webhookHandler(options) with the web Request');
}

/**
 * Not on the edge entry: Fastify runs on Node. Use `webhookHandler` with the web `Request`.
 * @throws {ConfigurationError} always.
 */
export function fastifyWebhook(_options?: unknown): never {
  return nodeOnly('fastifyWebhook', 'use webhookHandler(options) with the web Request');
}

/**
 * Not on the edge entry: a coordination folder needs `node:fs`. Implement {@link Coordination}
 * over your platform's shared storage (a Durable Object, a Redis over HTTP) instead.
 */
export class FileCoordination implements Coordination {
  /** Absolute path of the folder (never set here). */
  readonly dir: string = '';

  /** @throws {ConfigurationError} always. */
  constructor(_dir?: string) {
    nodeOnly('FileCoordination', "implement Coordination over your platform's shared storage");
  }

  /** Never reached: the constructor throws. */
  async acquireCreateLease(): Promise<CreateLease | undefined> {
    return undefined;
  }

  /** Never reached: the constructor throws. */
  async releaseCreateLease(): Promise<void> {}

  /** Never reached: the constructor throws. */
  async recordCreateOutcome(): Promise<boolean> {
    return false;
  }

  /** Never reached: the constructor throws. */
  async readCreateOutcome(): Promise<CreateOutcomeRecord | undefined> {
    return undefined;
  }

  /** Never reached: the constructor throws. */
  withTokenExchange<T>(_clientId: string, _ttlMs: number, exchange: () => Promise<T>): Promise<T> {
    return exchange();
  }

  /** Never reached: the constructor throws. */
  async publishPause(): Promise<void> {}

  /** Never reached: the constructor throws. */
  onPause(): () => void {
    return () => {};
  }
}

/**
 * Not on the edge entry: the command line's state folder is on a machine's disk.
 * @throws {ConfigurationError} always.
 */
export function commandLineStateDir(_options?: CommandLineStateOptions): CommandLineStateDir {
  return nodeOnly('commandLineStateDir', 'the command line and its state folder run on Node');
}

/**
 * Not on the edge entry: the command line's gate is a folder on a machine's disk.
 * @throws {ConfigurationError} always.
 */
export function commandLineCoordination(_options?: CommandLineStateOptions): FileCoordination {
  return nodeOnly('commandLineCoordination', 'the command line and its state folder run on Node');
}
