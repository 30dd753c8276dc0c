/**
 * Access tokens of the mock: HS256 JWTs signed with jose, valid 30 minutes on the mock clock.
 * Each account's tokens name it as their subject and are signed with a key of its own secret, so
 * a token is valid for the account it names and no other. Verification also uses the mock clock
 * (`currentDate`), so `clock.advance(31 * 60_000)` makes a token expire without waiting.
 */
import { createHash } from 'node:crypto';
import { decodeJwt, jwtVerify, SignJWT } from 'jose';
// The one error class by name: jose's `errors` namespace object would go into a chunk the main
// entry loads (docs/benchmarks.md, "Cold start, round 7").
import { JWTExpired } from 'jose/errors';
import type { MockClock } from '../state/clock.js';
import type { Random } from '../state/random.js';
import type { AccountBook } from './accounts.js';

/** Lifetime of an access token, 30 minutes (docs/wire-contract.md §5). */
export const TOKEN_LIFETIME_SECONDS = 30 * 60;

// Bounds the memory of a long-running mock; a forgotten token is verified in full instead.
const MAX_REMEMBERED_TOKENS = 10_000;

/** Why a request's token was refused. */
export type TokenProblem = 'missing' | 'malformed' | 'invalid' | 'expired';

/** The outcome of a token check: the account the valid token belongs to, or why it was refused. */
export type TokenCheck = { ok: true; account: string } | { ok: false; problem: TokenProblem };

/** Issues and checks the mock's access tokens. */
export interface TokenAuthority {
  /** Signs a fresh token for the account `clientId` (an account of the mock). */
  issue(clientId: string): Promise<string>;
  /** Checks an `Authorization` header value. */
  check(authorization: string | null): Promise<TokenCheck>;
  /**
   * The account a bearer token names, without verifying it: what request stats and fault
   * matching record before the route checks the token. `undefined` when it names none.
   */
  claimedAccount(authorization: string | null): string | undefined;
}

/** Path of the token exchange. */
export const AUTH_PATH = '/api/v1/tenants/auth';

/** The `client_id` an auth request's body names, unparsed fields aside; `undefined` when none. */
export function authBodyClientId(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null || !('client_id' in body)) return undefined;
    return typeof body.client_id === 'string' && body.client_id !== '' ? body.client_id : undefined;
  } catch {
    return undefined;
  }
}

const bearer = (authorization: string | null): string | undefined =>
  authorization ? /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1] : undefined;

/** Creates the token authority for one mock's accounts. */
export function createTokenAuthority(options: {
  accounts: AccountBook;
  clock: MockClock;
  random: Random;
}): TokenAuthority {
  const { accounts, clock } = options;
  // A digest of the secret key gives a full 256-bit HMAC key whatever the secret's length.
  const keys = new Map(
    [...accounts.byId.values()].map((account) => [
      account.clientId,
      createHash('sha256').update(`mock-jwt:${account.secretKey}`).digest(),
    ]),
  );
  // Expiry (epoch seconds) and account of the tokens this authority signed: their signature and
  // subject are right by construction, so a request with one is checked for expiry alone.
  // Verifying the signature on every request cost a tenth of the mock's time under load.
  const issued = new Map<string, { expiresAt: number; account: string }>();

  const subjectOf = (token: string): string | undefined => {
    const known = issued.get(token);
    if (known) return known.account;
    try {
      const { sub } = decodeJwt(token);
      return typeof sub === 'string' ? sub : undefined;
    } catch {
      return undefined;
    }
  };

  return {
    async issue(clientId) {
      const key = keys.get(clientId);
      if (!key) throw new RangeError(`The mock has no account ${JSON.stringify(clientId)}`);
      const issuedAt = Math.floor(clock.now() / 1000);
      const expiresAt = issuedAt + TOKEN_LIFETIME_SECONDS;
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(clientId)
        .setJti(options.random.uuid())
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(key);
      if (issued.size >= MAX_REMEMBERED_TOKENS) issued.clear();
      issued.set(token, { expiresAt, account: clientId });
      return token;
    },
    async check(authorization) {
      if (!authorization) return { ok: false, problem: 'missing' };
      const token = bearer(authorization);
      if (!token) return { ok: false, problem: 'malformed' };
      const known = issued.get(token);
      // As jose decides: expired once the clock reaches `exp`.
      if (known !== undefined) {
        return known.expiresAt <= Math.floor(clock.now() / 1000)
          ? { ok: false, problem: 'expired' }
          : { ok: true, account: known.account };
      }
      // The key is the one of the account the token names: a token of one account signed with
      // another's key, or naming an account the mock does not have, never verifies.
      const subject = subjectOf(token);
      const key = subject === undefined ? undefined : keys.get(subject);
      if (subject === undefined || key === undefined) return { ok: false, problem: 'invalid' };
      try {
        await jwtVerify(token, key, { algorithms: ['HS256'], subject, currentDate: clock.date() });
        return { ok: true, account: subject };
      } catch (error) {
        return { ok: false, problem: error instanceof JWTExpired ? 'expired' : 'invalid' };
      }
    },
    claimedAccount(authorization) {
      const token = bearer(authorization);
      return token === undefined ? undefined : subjectOf(token);
    },
  };
}
