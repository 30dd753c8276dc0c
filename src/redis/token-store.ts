/**
 * The shared access token of a fleet, in one Redis key per client id that expires with the
 * token. Anyone who can read the key can call the API as you: keep Redis as private as the
 * secret key (password, TLS, no public port).
 */
import { inspect } from 'node:util';
import { isStoredToken, parseStoredToken, type StoredToken, type TokenStore } from '../core/token-store.js';
import {
  checkConnection,
  checkTimeout,
  DEFAULT_COMMAND_TIMEOUT_MS,
  type RedisConnection,
  runCommand,
} from './connection.js';
import { checkKeyPrefix, clientKey } from './keys.js';

/** Options of {@link RedisTokenStore}. */
export interface RedisTokenStoreOptions {
  /** The client id whose token this store keeps (its key is named after it). */
  clientId: string;
  /** Prefix of the key (default `av`); no braces. */
  keyPrefix?: string | undefined;
  /** How long one Redis command may take before it fails (default 2000 ms); the client then exchanges its own token. */
  commandTimeoutMs?: number | undefined;
}

/**
 * Keeps the access token of one client id in Redis, so a fleet exchanges one token per token
 * lifetime instead of one per process. A missing, expired or corrupt value reads as "no token".
 *
 * ```ts
 * const tokenStore = new RedisTokenStore(redis, { clientId: process.env.VERIFICATION_CLIENT_ID });
 * ```
 */
export class RedisTokenStore implements TokenStore {
  /** The key the token is kept under, `<prefix>:{<client id>}:token`. */
  readonly key: string;
  readonly #clientId: string;
  readonly #redis: RedisConnection;
  readonly #timeoutMs: number;

  /**
   * @param redis An ioredis connection (`new Redis(...)` or `new Cluster(...)`), shared with your code.
   * @param options The client id (required), key prefix and command timeout.
   */
  constructor(redis: RedisConnection, options: RedisTokenStoreOptions) {
    this.#redis = checkConnection(redis, 'RedisTokenStore');
    const clientId: unknown = options?.clientId;
    if (typeof clientId !== 'string' || clientId === '') {
      throw new TypeError('RedisTokenStore: clientId must be the client id whose token it keeps.');
    }
    this.#clientId = clientId;
    this.key = clientKey(checkKeyPrefix(options.keyPrefix, 'RedisTokenStore'), clientId, 'token');
    this.#timeoutMs = checkTimeout(
      options.commandTimeoutMs,
      'commandTimeoutMs',
      'RedisTokenStore',
      DEFAULT_COMMAND_TIMEOUT_MS,
    );
  }

  /** The stored token, or `undefined` when there is none. */
  async get(): Promise<StoredToken | undefined> {
    const text = await runCommand(this.#redis, 'tokenStore.get', this.#timeoutMs, () =>
      this.#redis.get(this.key),
    );
    return text === null ? undefined : parseStoredToken(text);
  }

  /** Saves a token of this store's client id, to expire with it. */
  async set(token: StoredToken): Promise<void> {
    if (!isStoredToken(token) || token.clientId !== this.#clientId) {
      throw new TypeError("RedisTokenStore: set() takes a token of the store's own client id.");
    }
    const ttl = Math.ceil(token.expiresAt - Date.now());
    if (ttl <= 0) return;
    const value = JSON.stringify({
      token: token.token,
      expiresAt: token.expiresAt,
      clientId: token.clientId,
    });
    await runCommand(this.#redis, 'tokenStore.set', this.#timeoutMs, () =>
      this.#redis.set(this.key, value, 'PX', ttl),
    );
  }

  /** @internal Shows the key only, never the token or the connection's options. */
  [inspect.custom](): string {
    return `RedisTokenStore { key: '${this.key}' }`;
  }

  /** @internal */
  toJSON(): Record<string, string> {
    return { key: this.key };
  }
}
