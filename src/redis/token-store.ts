/**
 * The shared access tokens of a fleet, in one Redis key per client id that expires with its
 * token: one store serves every account. Anyone who can read the key can call the API as you: keep Redis as private as the
 * secret key (password, TLS, no public port).
 */
import { inspect } from 'node:util';
import {
  isStoredToken,
  parseStoredToken,
  type StoredToken,
  type TokenStore,
} from '../core/token/token-store.js';
import {
  checkConnection,
  checkTimeout,
  DEFAULT_COMMAND_TIMEOUT_MS,
  type RedisConnection,
  runCommand,
} from './connection.js';
import { checkKeyPrefix, clientKey } from './keys.js';
import { DELETE_TOKEN } from './scripts.js';

/** Options of {@link RedisTokenStore}. */
export interface RedisTokenStoreOptions {
  /**
   * Restricts the store to this one client id (its key is {@link RedisTokenStore.key}). Leave it
   * out to serve every account: each client id's token is kept under its own key.
   */
  clientId?: string | undefined;
  /** Prefix of the key (default `av`); no braces. */
  keyPrefix?: string | undefined;
  /** How long one Redis command may take before it fails (default 2000 ms); the client then exchanges its own token. */
  commandTimeoutMs?: number | undefined;
}

/**
 * Keeps the access token of each client id in Redis, so a fleet exchanges one token per account
 * per token lifetime instead of one per process. A missing, expired or corrupt value reads as
 * "no token".
 *
 * ```ts
 * const tokenStore = new RedisTokenStore(redis); // every account's token, each under its own key
 * ```
 */
export class RedisTokenStore implements TokenStore {
  /**
   * The key of the one client id given in the options, `<prefix>:{<client id>}:token`;
   * `undefined` for a store serving every account.
   * @deprecated Use {@link RedisTokenStore.keyFor}.
   */
  readonly key: string | undefined;
  readonly #only: string | undefined;
  readonly #prefix: string;
  readonly #redis: RedisConnection;
  readonly #timeoutMs: number;

  /**
   * @param redis An ioredis connection (`new Redis(...)` or `new Cluster(...)`), shared with your code.
   * @param options Key prefix and command timeout; a client id restricts the store to that account.
   */
  constructor(redis: RedisConnection, options: RedisTokenStoreOptions = {}) {
    this.#redis = checkConnection(redis, 'RedisTokenStore');
    const clientId: unknown = options?.clientId;
    if (clientId !== undefined && (typeof clientId !== 'string' || clientId === '')) {
      throw new TypeError(
        'RedisTokenStore: clientId, when given, must be the client id whose token it keeps.',
      );
    }
    this.#only = clientId;
    this.#prefix = checkKeyPrefix(options?.keyPrefix, 'RedisTokenStore');
    this.key = clientId === undefined ? undefined : this.keyFor(clientId);
    this.#timeoutMs = checkTimeout(
      options?.commandTimeoutMs,
      'commandTimeoutMs',
      'RedisTokenStore',
      DEFAULT_COMMAND_TIMEOUT_MS,
    );
  }

  /** The key the token of `clientId` is kept under, `<prefix>:{<client id>}:token`. */
  keyFor(clientId: string): string {
    return clientKey(this.#prefix, clientId, 'token');
  }

  /** The stored token of `clientId`, or `undefined` when there is none. */
  async get(clientId: string): Promise<StoredToken | undefined> {
    if (typeof clientId !== 'string' || clientId === '') {
      throw new TypeError('RedisTokenStore: get() takes the client id whose token to read.');
    }
    if (this.#only !== undefined && clientId !== this.#only) return undefined;
    const key = this.keyFor(clientId);
    const text = await runCommand(this.#redis, 'tokenStore.get', this.#timeoutMs, () => this.#redis.get(key));
    const stored = text === null ? undefined : parseStoredToken(text);
    return stored?.clientId === clientId ? stored : undefined;
  }

  /** Saves a token under its client id, to expire with it. */
  async set(token: StoredToken): Promise<void> {
    if (!isStoredToken(token) || token.clientId === '') {
      throw new TypeError('RedisTokenStore: set() takes a stored token with its client id.');
    }
    if (this.#only !== undefined && token.clientId !== this.#only) {
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
      this.#redis.set(this.keyFor(token.clientId), value, 'PX', ttl),
    );
  }

  /**
   * Drops the stored token of `clientId` if it is still `token` (one Lua script on its key, so a
   * newer token another process saved in between stays).
   */
  async delete(clientId: string, token: string): Promise<void> {
    if (typeof clientId !== 'string' || clientId === '' || typeof token !== 'string') {
      throw new TypeError('RedisTokenStore: delete() takes the client id and the token to drop.');
    }
    if (this.#only !== undefined && clientId !== this.#only) return;
    const key = this.keyFor(clientId);
    await runCommand(this.#redis, 'tokenStore.delete', this.#timeoutMs, () =>
      DELETE_TOKEN.run(this.#redis, key, [token]),
    );
  }

  /** @internal Shows the key (or prefix) only, never a token or the connection's options. */
  [inspect.custom](): string {
    return this.key === undefined
      ? `RedisTokenStore { keyPrefix: '${this.#prefix}' }`
      : `RedisTokenStore { key: '${this.key}' }`;
  }

  /** @internal */
  toJSON(): Record<string, string> {
    return this.key === undefined ? { keyPrefix: this.#prefix } : { key: this.key };
  }
}
