/**
 * A token store lets many processes behind one client id share one access token instead of each
 * exchanging its own: a process about to exchange first looks in the store, and saves what it
 * obtains. One store serves every account (client id) of a platform: tokens are kept and read by
 * client id. The single-flight refresh stays per process (the TokenManager's); the store only
 * decides where a refresh gets its token from.
 */

import type { Logger } from '../observability/log.js';
import { type IssuedToken, REFRESH_MARGIN_MS, readTokenLifetime, type TokenExchange } from './auth.js';

/** An access token as kept in a {@link TokenStore}. */
export interface StoredToken {
  /** The bearer token (a JWT). Keep the store as private as the secret key. */
  token: string;
  /** When the token stops being usable, epoch milliseconds. */
  expiresAt: number;
  /** The client id the token was issued to: a token of another client id is never used. */
  clientId: string;
}

/**
 * Where processes share their access tokens: a file ({@link FileTokenStore}), Redis, a database
 * table keyed by client id. One store serves every account: `get(clientId)` returns what was last
 * `set` for that client id (`token.clientId`), or `undefined`; both may be called concurrently by
 * several processes, and the last `set` of a client id wins. A store that throws is logged and
 * bypassed: the client then exchanges its own token. The client also ignores a returned token
 * whose `clientId` is not the one it asked for, so a store that mixes accounts up cannot make a
 * request carry another account's token.
 */
export interface TokenStore {
  /** The token last saved for `clientId`, if any. */
  get(clientId: string): Promise<StoredToken | undefined>;
  /** Saves a freshly exchanged token under its `clientId`. */
  set(token: StoredToken): Promise<void>;
  /**
   * Drops the token saved for `clientId` if it is still `token` (another process may have saved a
   * newer one since: keep that). The client calls it when the API rejects a token it had from
   * the store (a 401), and when an account's secret key changes (`withOptions` with a new
   * `secretKey` for a client id): a token minted with the old secret is then dropped wherever it
   * is stored, not kept until it expires. Optional, so a store written before it still works; a
   * store without it keeps such a token until it expires or is replaced. `FileTokenStore` and
   * `RedisTokenStore` have it.
   */
  delete?(clientId: string, token: string): Promise<void>;
}

/** Whether `value` has the shape of a {@link StoredToken} (stores return whatever they hold). */
export function isStoredToken(value: unknown): value is StoredToken {
  if (typeof value !== 'object' || value === null) return false;
  const { token, expiresAt, clientId } = value as Record<string, unknown>;
  return (
    typeof token === 'string' &&
    token.length > 0 &&
    typeof expiresAt === 'number' &&
    Number.isFinite(expiresAt) &&
    typeof clientId === 'string'
  );
}

/** The token a store's JSON text holds, or `undefined` when the text is not JSON or not a token. */
export function parseStoredToken(text: string): StoredToken | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isStoredToken(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function reasonOf(error: unknown): string {
  // The store's own message only: never the token, which this module does not put in messages.
  return error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
}

/**
 * Drops `token` of `clientId` from `store` (when the store can: {@link TokenStore.delete}); a
 * failing store is logged and ignored, like a failing read.
 */
export async function dropStoredToken(
  store: TokenStore,
  clientId: string,
  token: string,
  logger: Logger,
): Promise<void> {
  if (typeof store.delete !== 'function') return;
  try {
    await store.delete(clientId, token);
    logger.info('Dropped the access token from the token store', { clientId });
  } catch (error) {
    logger.warn(`The token store could not drop a rejected token (${reasonOf(error)}).`);
  }
}

/** What {@link sharedTokenExchange} needs besides the store. */
export interface SharedExchangeOptions {
  /** The client id; a stored token of another one is ignored. */
  clientId: string;
  /** Reports a failing store (as a warning) and where the token came from (info). */
  logger: Logger;
  /** Exchanges the client credentials for a new token. */
  exchange: () => Promise<IssuedToken>;
  /** The client's clock, epoch ms: a stored token's remaining life is judged on it. */
  now: () => number;
  /**
   * The account's secret key changed (`withOptions` with a new one): the first refresh neither
   * uses nor keeps the token stored for the client id, which the old secret minted.
   */
  rotated?: boolean | undefined;
}

/**
 * Wraps a token exchange so that it first takes a usable token from `store` and saves every token
 * it exchanges. A stored token is used only when it belongs to this client id, has more than the
 * refresh margin (60 s) left, and is not the token this process used last: a refresh happens
 * because that one is expiring or the API just rejected it.
 */
export function sharedTokenExchange(store: TokenStore, options: SharedExchangeOptions): SharedTokenExchange {
  const now = options.now;
  let last: string | undefined;
  let rotated = options.rotated === true;
  /** A token the API rejected, dropped from the store before the next read of it. */
  let rejected: string | undefined;
  const next = async (): Promise<IssuedToken> => {
    if (rejected !== undefined) {
      const token = rejected;
      rejected = undefined;
      await dropStoredToken(store, options.clientId, token, options.logger);
    }
    let stored: unknown;
    try {
      stored = await store.get(options.clientId);
    } catch (error) {
      options.logger.warn(
        `The token store could not be read (${reasonOf(error)}); exchanging a token instead.`,
      );
    }
    if (rotated) {
      rotated = false;
      if (isStoredToken(stored) && stored.clientId === options.clientId) {
        await dropStoredToken(store, options.clientId, stored.token, options.logger);
        stored = undefined;
      }
    }
    if (
      isStoredToken(stored) &&
      stored.clientId === options.clientId &&
      stored.token !== last &&
      stored.expiresAt - now() > REFRESH_MARGIN_MS
    ) {
      last = stored.token;
      options.logger.info('Using the access token from the token store', {
        expiresInSeconds: Math.round((stored.expiresAt - now()) / 1000),
      });
      return { token: stored.token, expiresAt: stored.expiresAt };
    }
    const issued = await options.exchange();
    last = issued.token;
    try {
      await store.set({ token: issued.token, expiresAt: issued.expiresAt, clientId: options.clientId });
    } catch (error) {
      options.logger.warn(
        `The token store could not be written (${reasonOf(error)}); the token is used anyway.`,
      );
    }
    return issued;
  };
  return Object.assign(next, {
    reject(token: string) {
      rejected = token;
    },
  });
}

/**
 * A token exchange shared through a store ({@link sharedTokenExchange}), told of the tokens the
 * API rejects: the next refresh drops such a token from the store (if the store still holds it)
 * before it reads the store.
 */
export type SharedTokenExchange = (() => Promise<IssuedToken>) & {
  /** Marks `token` as rejected by the API (a 401). */
  reject(token: string): void;
};

/**
 * `exchange` as the client uses it: unchanged without a store; with one, shared through it
 * (see {@link sharedTokenExchange}), each exchanged token's expiry read from its claims (`now`:
 * the client's clock, for a token without `exp`).
 */
export function withTokenStore(
  exchange: TokenExchange,
  store: TokenStore | undefined,
  clientId: string,
  logger: Logger,
  now: () => number,
  rotated = false,
): TokenExchange & { reject?: (token: string) => void } {
  if (!store) return exchange;
  return sharedTokenExchange(store, {
    clientId,
    logger,
    now,
    rotated,
    exchange: async () => {
      const issued = await exchange();
      if (typeof issued !== 'string') return issued;
      return { token: issued, expiresAt: readTokenLifetime(issued, now()).expiresAt };
    },
  });
}
