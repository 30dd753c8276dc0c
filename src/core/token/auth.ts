/**
 * The 30-minute access token: exchanged for the client credentials when needed, refreshed a
 * minute before it expires, shared by all concurrent callers, dropped after a 401.
 */
import { decodeJwt } from 'jose/jwt/decode';
import type { Logger } from '../observability/log.js';

/** A token and when it stops being usable, epoch milliseconds. */
export interface IssuedToken {
  /** The bearer token. */
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** Gets a token: the JWT the token endpoint answered, or a stored token with its expiry. */
export type TokenExchange = () => Promise<string | IssuedToken>;

/** Something that hands out access tokens. */
export interface TokenSource {
  /** A token valid for at least the refresh margin. */
  get(): Promise<string>;
  /**
   * The token {@link get} would resolve to at once, when it has one in hand (no exchange, no
   * provider to ask); else `undefined`. Lets a call skip a promise per attempt.
   */
  current(): string | undefined;
  /** Forgets `token` after the API rejected it, so the next {@link get} fetches another. */
  invalidate(token: string): void;
  /** Whether a rejected token can be replaced (false for a fixed token string). */
  readonly canRefresh: boolean;
}

/** Refresh when less than this remains. */
export const REFRESH_MARGIN_MS = 60_000;
/** Lifetime assumed when the token carries no `exp`: 30 minutes (docs/wire-contract.md §5). */
export const DEFAULT_TOKEN_LIFETIME_MS = 30 * 60_000;

/** A token's expiry in local time, and what is wrong with its claims (if anything). */
export interface TokenLifetime {
  /** When the token stops being usable, in local time (ms). */
  expiresAt: number;
  /**
   * Why the claims were not believed, when they were not: `skew` when only this machine's clock
   * disagrees (harmless, the lifetime counts from receipt), `malformed` when the claims contradict
   * themselves or lack what would make them usable.
   */
  problem: { kind: 'skew' | 'malformed'; text: string } | undefined;
}

/**
 * Reads `exp`/`iat`. A token whose `exp` is before its `iat`, or (without `iat`) already past,
 * would make every call refresh: it gets the documented 30 minutes instead, and the problem is
 * reported so that it can be logged.
 */
export function readTokenLifetime(token: string, receivedAt: number): TokenLifetime {
  const fallback = receivedAt + DEFAULT_TOKEN_LIFETIME_MS;
  try {
    const claims = decodeJwt(token);
    if (typeof claims.exp === 'number') {
      if (typeof claims.iat === 'number') {
        if (claims.exp <= claims.iat) {
          return {
            expiresAt: fallback,
            problem: { kind: 'malformed', text: 'its exp is not after its iat; assuming 30 minutes' },
          };
        }
        const lifetime = receivedAt + (claims.exp - claims.iat) * 1000;
        const past = claims.exp * 1000 < receivedAt;
        return {
          expiresAt: lifetime,
          problem: past
            ? {
                kind: 'skew',
                text: "its exp is in the past by this machine's clock (do the clocks differ?); counting exp - iat from receipt",
              }
            : undefined,
        };
      }
      if (claims.exp * 1000 <= receivedAt) {
        return {
          expiresAt: fallback,
          problem: {
            kind: 'malformed',
            text: 'its exp is in the past and it has no iat; assuming 30 minutes',
          },
        };
      }
      return { expiresAt: claims.exp * 1000, problem: undefined };
    }
  } catch {
    // Not a JWT: an opaque token gets the documented lifetime.
  }
  return { expiresAt: fallback, problem: undefined };
}

/** Exchanges client credentials for tokens and caches them. */
export class TokenManager implements TokenSource {
  readonly canRefresh = true;
  readonly #exchange: TokenExchange;
  readonly #logger: Logger;
  #token: string | undefined;
  #expiresAt = 0;
  #refreshing: Promise<string> | undefined;
  #warnedAboutClaims = false;
  readonly #now: () => number;

  /**
   * `exchange` performs POST /api/v1/tenants/auth (one attempt: the calling attempt retries) and
   * returns the JWT. `now` is the client's clock (epoch ms), so a test clock shared with the mock
   * sees tokens expire when the mock does.
   */
  /**
   * @param onRejected Called with a token the API rejected (after {@link invalidate} forgot it):
   *   the client drops it from its token store there.
   */
  readonly #onRejected: ((token: string) => void) | undefined;

  constructor(
    exchange: TokenExchange,
    logger: Logger,
    now: () => number,
    onRejected?: ((token: string) => void) | undefined,
  ) {
    this.#exchange = exchange;
    this.#logger = logger;
    this.#now = now;
    this.#onRejected = onRejected;
  }

  get(): Promise<string> {
    const token = this.current();
    if (token !== undefined) return Promise.resolve(token);
    this.#refreshing ??= this.#refresh();
    return this.#refreshing;
  }

  current(): string | undefined {
    return this.#token !== undefined && this.#now() < this.#expiresAt - REFRESH_MARGIN_MS
      ? this.#token
      : undefined;
  }

  invalidate(token: string): void {
    if (this.#token === token) {
      this.#token = undefined;
      this.#expiresAt = 0;
    }
    this.#onRejected?.(token);
  }

  async #refresh(): Promise<string> {
    try {
      const issued = await this.#exchange();
      // A token from a shared store comes with its expiry (token-store.ts); a fresh one is read.
      const token = typeof issued === 'string' ? issued : issued.token;
      this.#token = token;
      const { expiresAt, problem } =
        typeof issued === 'string'
          ? readTokenLifetime(token, this.#now())
          : { expiresAt: issued.expiresAt, problem: undefined };
      this.#expiresAt = expiresAt;
      if (problem && !this.#warnedAboutClaims) {
        this.#warnedAboutClaims = true;
        // Only clock skew (iat and exp consistent, both behind this machine's clock) is harmless:
        // the lifetime counts from receipt. The mock's clock, for one, starts in the past.
        const log = problem.kind === 'skew' ? this.#logger.info : this.#logger.warn;
        log.call(this.#logger, `The access token's claims look wrong: ${problem.text}. (Logged once.)`);
      }
      this.#logger.info('Obtained an access token', {
        expiresInSeconds: Math.round((this.#expiresAt - this.#now()) / 1000),
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
  readonly #fixed: string | undefined;

  /** A string is used as is; a function is asked for a token on every call. */
  constructor(accessToken: string | (() => string | Promise<string>)) {
    this.canRefresh = typeof accessToken === 'function';
    this.#provide = typeof accessToken === 'function' ? accessToken : () => accessToken;
    this.#fixed = typeof accessToken === 'string' ? accessToken : undefined;
  }

  /** The fixed token; a provider is asked on every call, so `undefined` then. */
  current(): string | undefined {
    return this.#fixed;
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
