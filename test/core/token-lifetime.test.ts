import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  REFRESH_MARGIN_MS,
  readTokenLifetime,
  StaticTokenSource,
  TokenManager,
} from '../../src/core/token/auth.js';

const key = new TextEncoder().encode('token-lifetime-test-key-of-32-bytes!');

async function token(claims: { iat?: number; exp?: number }): Promise<string> {
  const jwt = new SignJWT({ sub: 'tenant' }).setProtectedHeader({ alg: 'HS256' });
  if (claims.iat !== undefined) jwt.setIssuedAt(claims.iat);
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
  return jwt.sign(key);
}

describe('readTokenLifetime', () => {
  const receivedAt = Date.UTC(2026, 10, 23, 12, 0, 0);
  const now = receivedAt / 1000;

  it('counts exp - iat from receipt, and calls a token behind this clock skew, not malformed', async () => {
    // Issued by a clock ten months behind ours (the mock's clock starts in January 2026).
    const issuedAt = now - 300 * 24 * 3600;
    const lifetime = readTokenLifetime(await token({ iat: issuedAt, exp: issuedAt + 1800 }), receivedAt);
    expect(lifetime.expiresAt).toBe(receivedAt + 1_800_000);
    expect(lifetime.problem?.kind).toBe('skew');
  });

  it('calls exp before iat malformed and assumes 30 minutes', async () => {
    const lifetime = readTokenLifetime(await token({ iat: now, exp: now - 600 }), receivedAt);
    expect(lifetime).toEqual({
      expiresAt: receivedAt + 1_800_000,
      problem: expect.objectContaining({ kind: 'malformed' }),
    });
  });

  it('calls a past exp without iat malformed, and trusts a future exp without iat', async () => {
    expect(readTokenLifetime(await token({ exp: now - 60 }), receivedAt).problem?.kind).toBe('malformed');
    expect(readTokenLifetime(await token({ exp: now + 600 }), receivedAt)).toEqual({
      expiresAt: receivedAt + 600_000,
      problem: undefined,
    });
  });
});

describe('the warning about a token whose claims look wrong', () => {
  const now = () => Math.floor(Date.now() / 1000);
  it.each([
    ['exp before iat', () => token({ iat: now(), exp: now() - 600 }), 'warn'],
    ['a past exp without iat', () => token({ exp: now() - 60 }), 'warn'],
    // Harmless: exp - iat is counted from receipt. The mock's tokens look like this (its clock
    // starts in January 2026), and a warning would then greet every test of every user.
    [
      'a clock behind this one (skew)',
      () => token({ iat: now() - 86_400, exp: now() - 86_400 + 1800 }),
      'info',
    ],
  ])('%s: logged once, at %s', async (_name, mint, level) => {
    const lines: string[] = [];
    const at = (name: string) => (message: string) => lines.push(`${name} ${message}`);
    const manager = new TokenManager(
      mint,
      { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
      () => Date.now(),
    );
    await manager.get();
    manager.invalidate(await manager.get());
    await manager.get();
    const claims = lines.filter((line) => line.includes("The access token's claims look wrong"));
    expect(claims).toHaveLength(1);
    expect(claims[0]?.split(' ')[0]).toBe(level);
  });
});

describe('a token in hand (current), which lets a call skip a promise', () => {
  const silent = { debug() {}, info() {}, warn() {}, error() {} };

  it('TokenManager: none before the exchange, the token after it, none again inside the refresh margin or after invalidate', async () => {
    let now = Date.UTC(2026, 10, 25, 12, 0, 0);
    const issued = await token({ iat: now / 1000, exp: now / 1000 + 1800 });
    let exchanges = 0;
    const manager = new TokenManager(
      async () => {
        exchanges++;
        return issued;
      },
      silent,
      () => now,
    );
    expect(manager.current()).toBeUndefined();
    expect(await manager.get()).toBe(issued);
    expect(manager.current()).toBe(issued);
    now += 1_800_000 - REFRESH_MARGIN_MS; // the margin reached: get() would exchange again
    expect(manager.current()).toBeUndefined();
    now -= 1;
    expect(manager.current()).toBe(issued);
    manager.invalidate(issued);
    expect(manager.current()).toBeUndefined();
    expect(exchanges).toBe(1);
  });

  it('StaticTokenSource: a fixed string is in hand; a provider is asked on every call, so nothing is', async () => {
    expect(new StaticTokenSource('fixed-token').current()).toBe('fixed-token');
    let asked = 0;
    const provided = new StaticTokenSource(() => `token-${++asked}`);
    expect(provided.current()).toBeUndefined();
    expect(await provided.get()).toBe('token-1');
    expect(provided.current()).toBeUndefined();
    expect(await provided.get()).toBe('token-2');
  });
});
