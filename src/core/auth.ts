/**
 * The 30-minute access token: exchanged for the client credentials when needed, refreshed a
 * minute before it expires, shared by all concurrent callers, dropped after a 401.
 */
import { decodeJwt } from 'jose/jwt/decode';
import type { Logger } from './log.js';

/** What the token endpoint answered: the token and, if the JWT says, its lifetime. */
export type TokenExchange = () => Promise<string>;

/** Something that hands out access tokens. */
export interface TokenSource {
  /** A token valid for at least the refresh margin. */
  get(): Promise<string>;
  /** Forgets `token` after the API rejected it, so the next {@link get} fetches another. */
  invalidate(token: string): void;
  /** Whether a rejected token can be replaced (false for a fixed token string). */
  readonly canRefresh: boolean;
}

/** Refresh when less than this remains. */
export const REFRESH_MARGIN_MS = 60_000;
/** Lifetime assumed when the token carries no `exp`: the spec's 30 minutes. */
export const DEFAULT_TOKEN_LIFETIME_MS = 30 * 60_000;

/**
 * When a token stops being usable, in local time. The lifetime is taken as `exp - iat` and
 * counted from receipt, so a server clock that differs from ours (or a mock clock) does not make
 * every token look expired; without `iat`, `exp` is read as an absolute time.
 */
export function tokenExpiry(token: string, receivedAt: number): number {
  try {
    const claims = decodeJwt(token);
    if (typeof claims.exp === 'number') {
      if (typeof claims.iat === 'number') return receivedAt + (claims.exp - claims.iat) * 1000;
      return claims.exp * 1000;
    }
  } catch {
    // Not a JWT: an opaque token gets the documented lifetime.
  }
  return receivedAt + DEFAULT_TOKEN_LIFETIME_MS;
}

/** Exchanges client credentials for tokens and caches them. */
export class TokenManager implements TokenSource {
  readonly canRefresh = true;
  readonly #exchange: TokenExchange;
  readonly #logger: Logger;
  #token: string | undefined;
  #expiresAt = 0;
  #refreshing: Promise<string> | undefined;

  /** `exchange` performs POST /api/v1/tenants/auth (with its own retries) and returns the JWT. */
  constructor(exchange: TokenExchange, logger: Logger) {
    this.#exchange = exchange;
    this.#logger = logger;
  }

  get(): Promise<string> {
    if (this.#token !== undefined && Date.now() < this.#expiresAt - REFRESH_MARGIN_MS) {
      return Promise.resolve(this.#token);
    }
    this.#refreshing ??= this.#refresh();
    return this.#refreshing;
  }

  invalidate(token: string): void {
    if (this.#token === token) {
      this.#token = undefined;
      this.#expiresAt = 0;
    }
  }

  async #refresh(): Promise<string> {
    try {
      const token = await this.#exchange();
      this.#token = token;
      this.#expiresAt = tokenExpiry(token, Date.now());
      this.#logger.info('Obtained an access token', {
        expiresInSeconds: Math.round((this.#expiresAt - Date.now()) / 1000),
      });
      return token;
    } finally {
      // Success or failure, the next caller after this one decides afresh (a failed refresh is retried then).
      this.#refreshing = undefined;
    }
  }

  /** @internal Keeps the token out of `util.inspect` and JSON. */
  toJSON(): string {
    return 'TokenManager';
  }
}

/** A fixed token or a caller-supplied provider (for tokens minted elsewhere). */
export class StaticTokenSource implements TokenSource {
  readonly canRefresh: boolean;
  readonly #provide: () => string | Promise<string>;

  /** A string is used as is; a function is asked for a token on every call. */
  constructor(accessToken: string | (() => string | Promise<string>)) {
    this.canRefresh = typeof accessToken === 'function';
    this.#provide = typeof accessToken === 'function' ? accessToken : () => accessToken;
  }

  async get(): Promise<string> {
    return this.#provide();
  }

  invalidate(): void {
    // A provider is asked afresh on the next call anyway; a fixed string cannot be replaced.
  }
}

/** The token endpoint's path. */
export const AUTH_PATH = '/api/v1/tenants/auth';
