/**
 * Access tokens of the mock: HS256 JWTs signed with jose, valid 30 minutes on the mock clock.
 * Verification also uses the mock clock (`currentDate`), so `clock.advance(31 * 60_000)` makes a
 * token expire without waiting.
 */
import { createHash } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { MockClock } from './clock.js';
import type { Random } from './random.js';

/** Lifetime of an access token, 30 minutes (docs/wire-contract.md §5). */
export const TOKEN_LIFETIME_SECONDS = 30 * 60;

// Bounds the memory of a long-running mock; a forgotten token is verified in full instead.
const MAX_REMEMBERED_TOKENS = 10_000;

/** Why a request's token was refused; `undefined` when it was accepted. */
export type TokenProblem = 'missing' | 'malformed' | 'invalid' | 'expired';

/** Issues and checks the mock's access tokens. */
export interface TokenAuthority {
  /** Signs a fresh token for the mock's client id. */
  issue(): Promise<string>;
  /** Checks an `Authorization` header value; resolves to the problem, or `undefined` when valid. */
  check(authorization: string | null): Promise<TokenProblem | undefined>;
}

/** Creates the token authority for one mock. */
export function createTokenAuthority(options: {
  clientId: string;
  secretKey: string;
  clock: MockClock;
  random: Random;
}): TokenAuthority {
  // A digest of the secret key gives a full 256-bit HMAC key whatever the secret's length.
  const key = createHash('sha256').update(`mock-jwt:${options.secretKey}`).digest();
  // Expiry (epoch seconds) of the tokens this authority signed: their signature and subject are
  // right by construction, so a request with one is checked for expiry alone. Verifying the
  // signature on every request cost a tenth of the mock's time under load.
  const issued = new Map<string, number>();
  return {
    async issue() {
      const issuedAt = Math.floor(options.clock.now() / 1000);
      const expiresAt = issuedAt + TOKEN_LIFETIME_SECONDS;
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(options.clientId)
        .setJti(options.random.uuid())
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(key);
      if (issued.size >= MAX_REMEMBERED_TOKENS) issued.clear();
      issued.set(token, expiresAt);
      return token;
    },
    async check(authorization) {
      if (!authorization) return 'missing';
      const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
      const token = match?.[1];
      if (!token) return 'malformed';
      const expiresAt = issued.get(token);
      // As jose decides: expired once the clock reaches `exp`.
      if (expiresAt !== undefined)
        return expiresAt <= Math.floor(options.clock.now() / 1000) ? 'expired' : undefined;
      try {
        await jwtVerify(token, key, {
          algorithms: ['HS256'],
          subject: options.clientId,
          currentDate: options.clock.date(),
        });
        return undefined;
      } catch (error) {
        return error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid';
      }
    },
  };
}
