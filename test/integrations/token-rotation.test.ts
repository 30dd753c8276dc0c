/**
 * Rotation: after a landlord's secret key changes, the token the old secret minted is dropped from
 * the token store, wherever it is (a table, one machine's file), instead of staying until it
 * expires: through `withOptions` with the new secret (the first refresh neither uses nor keeps
 * it), and after a 401 on a stored token (dropped before the next read, unless another process
 * saved a newer one meanwhile). A store without `delete` (written before it) still works.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IssuedToken } from '../../src/core/token/auth.js';
import { sharedTokenExchange } from '../../src/core/token/token-store.js';
import { FileTokenStore, type StoredToken, type TokenStore, VerificationClient } from '../../src/index.js';
import { type AccountsServer, startAccountsServer, testAccounts } from '../support/accounts-server.js';
import { capturingLogger } from '../support/http-server.js';
import { TableTokenStore } from '../support/isolation.js';

const NOW = 1_800_000_000_000;
const stored = (name: string, clientId = 'client-a'): StoredToken => ({
  token: `token-${name}`,
  expiresAt: NOW + 20 * 60_000,
  clientId,
});

function exchangeOver(store: TokenStore, rotated = false) {
  let count = 0;
  const exchange = async (): Promise<IssuedToken> => ({
    token: `token-exchanged-${++count}`,
    expiresAt: NOW + 1_800_000,
  });
  const { logger } = capturingLogger();
  const next = sharedTokenExchange(store, {
    clientId: 'client-a',
    logger,
    exchange,
    now: () => NOW,
    rotated,
  });
  return { next, count: () => count };
}

describe('the shared exchange, on a rejected token and on a rotation', () => {
  it('a token the API rejected is dropped from the store before the next read', async () => {
    const store = new TableTokenStore();
    await store.set(stored('shared'));
    const { next, count } = exchangeOver(store);
    expect((await next()).token).toBe('token-shared');
    next.reject('token-shared');
    expect((await next()).token).toBe('token-exchanged-1');
    expect(store.deleted).toEqual(['token-shared']);
    expect(store.rows.get('client-a')?.token).toBe('token-exchanged-1');
    expect(count()).toBe(1);
  });

  it('a newer token another process saved after the rejection stays, and is used', async () => {
    const store = new TableTokenStore();
    await store.set(stored('shared'));
    const { next, count } = exchangeOver(store);
    await next();
    next.reject('token-shared');
    await store.set(stored('from-another-process'));
    expect((await next()).token).toBe('token-from-another-process');
    expect(store.deleted).toEqual([]);
    expect(count()).toBe(0);
  });

  it('after a rotation the first refresh drops the stored token and exchanges with the new secret', async () => {
    const store = new TableTokenStore();
    await store.set(stored('minted-by-old-secret'));
    const { next, count } = exchangeOver(store, true);
    expect((await next()).token).toBe('token-exchanged-1');
    expect(store.deleted).toEqual(['token-minted-by-old-secret']);
    // Only the first: a token saved after the rotation is trusted again.
    await store.set(stored('after-rotation'));
    next.reject('token-exchanged-1');
    expect((await next()).token).toBe('token-after-rotation');
    expect(count()).toBe(1);
  });

  it('a store without delete still works: the rejected token is skipped, not dropped', async () => {
    const rows = new Map<string, StoredToken>([['client-a', stored('shared')]]);
    const store: TokenStore = {
      get: async (clientId) => rows.get(clientId),
      set: async (token) => {
        rows.set(token.clientId, token);
      },
    };
    const { next } = exchangeOver(store, true);
    expect((await next()).token).toBe('token-exchanged-1');
    next.reject('token-exchanged-1');
    expect((await next()).token).toBe('token-exchanged-2');
  });
});

describe('FileTokenStore.delete', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('drops a client id’s token only while it is still the one named, keeping the other accounts', async () => {
    dir = mkdtempSync(join(tmpdir(), 'token-rotation-'));
    const store = new FileTokenStore(join(dir, 'tokens.json'));
    const fresh = { ...stored('a'), expiresAt: Date.now() + 1_800_000 };
    const other = { ...stored('b', 'client-b'), expiresAt: Date.now() + 1_800_000 };
    await store.set(fresh);
    await store.set(other);
    await store.delete('client-a', 'token-not-held');
    expect(await store.get('client-a')).toEqual(fresh);
    await store.delete('client-a', 'token-a');
    expect(await store.get('client-a')).toBeUndefined();
    expect(await store.get('client-b')).toEqual(other);
    await store.delete('client-c', 'token-c');
    expect(await store.get('client-b')).toEqual(other);
  });
});

describe('a landlord’s secret key rotated, through the client', () => {
  let server: AccountsServer | undefined;
  const roots: VerificationClient[] = [];
  afterEach(async () => {
    for (const root of roots.splice(0)) await root.close();
    await server?.close();
    server = undefined;
  });

  const [landlord] = testAccounts(1) as [ReturnType<typeof testAccounts>[number]];
  const rotatedSecret = `${landlord.secretKey}-rotated`;
  const headers = { 'x-test-account': landlord.clientId };

  async function setup() {
    server = await startAccountsServer([landlord]);
    const tokenStore = new TableTokenStore();
    const root = () => {
      const built = VerificationClient.platformRoot({
        baseURL: server?.url ?? '',
        tokenStore,
        logLevel: 'off',
      });
      roots.push(built);
      return built;
    };
    return { server, tokenStore, root };
  }

  it('withOptions with the new secret: the old token is dropped from the store and never sent again', async () => {
    const { server, tokenStore, root } = await setup();
    const platform = root();
    const before = platform.withOptions({ ...landlord, defaultHeaders: headers });
    await before.get('/api/v1/whoami');
    const oldToken = tokenStore.rows.get(landlord.clientId)?.token;
    expect(oldToken).toBeDefined();
    server.rotate(landlord.clientId, rotatedSecret);
    const after = platform.withOptions({
      clientId: landlord.clientId,
      secretKey: rotatedSecret,
      defaultHeaders: headers,
    });
    expect(await after.get('/api/v1/whoami')).toEqual({ account: landlord.clientId });
    expect(tokenStore.deleted).toEqual([oldToken]);
    expect(tokenStore.rows.get(landlord.clientId)?.token).not.toBe(oldToken);
    expect(server.rotatedTokenUses.get(landlord.clientId) ?? 0).toBe(0);
    expect(server.exchanges.get(landlord.clientId)).toBe(2);
  });

  it('a 401 on a stored token (another process, told of the rotation first): dropped before the replay', async () => {
    const { server, tokenStore, root } = await setup();
    await root()
      .withOptions({ ...landlord, defaultHeaders: headers })
      .get('/api/v1/whoami');
    const oldToken = tokenStore.rows.get(landlord.clientId)?.token;
    server.rotate(landlord.clientId, rotatedSecret);
    // A fresh process knows only the new secret: it takes the stored token, which the API refuses.
    const fresh = root().withOptions({
      clientId: landlord.clientId,
      secretKey: rotatedSecret,
      defaultHeaders: headers,
    });
    expect(await fresh.get('/api/v1/whoami')).toEqual({ account: landlord.clientId });
    expect(server.rotatedTokenUses.get(landlord.clientId)).toBe(1);
    expect(tokenStore.deleted).toEqual([oldToken]);
    const now = tokenStore.rows.get(landlord.clientId)?.token;
    expect(now).toBeDefined();
    expect(now).not.toBe(oldToken);
    expect(server.crossAccount).toBe(0);
  });
});
