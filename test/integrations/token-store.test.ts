/**
 * The token store's pieces on their own: the file store (atomic, 0600, corrupt files read as
 * empty) and the shared exchange's rules (fresh stored token used, one within 60 s of expiry or
 * of another client id or just rejected ignored, a failing store bypassed).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IssuedToken } from '../../src/core/token/auth.js';
import { sharedTokenExchange } from '../../src/core/token/token-store.js';
import { FileTokenStore, type StoredToken, type TokenStore } from '../../src/index.js';
import { capturingLogger } from '../support/http-server.js';

const NOW = 1_800_000_000_000;
const token = (name: string, expiresInMs: number, clientId = 'client-a'): StoredToken => ({
  token: `token-${name}`,
  expiresAt: NOW + expiresInMs,
  clientId,
});

describe('FileTokenStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'token-store-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads nothing before the first set, then what was set, in a 0600 file in a 0700 folder', async () => {
    const path = join(dir, 'nested', 'token.json');
    const store = new FileTokenStore(path);
    expect(await store.get('client-a')).toBeUndefined();
    await store.set(token('one', 1_800_000));
    expect(await store.get('client-a')).toEqual(token('one', 1_800_000));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      tokens: { 'client-a': token('one', 1_800_000) },
    });
  });

  it('replaces the file atomically: concurrent writers leave one whole token and no temporary file', async () => {
    const path = join(dir, 'token.json');
    const stores = Array.from({ length: 8 }, () => new FileTokenStore(path));
    const written = stores.map((_, i) => token(`writer-${i}-${'x'.repeat(2000)}`, 1_800_000));
    await Promise.all(stores.map((store, i) => store.set(written[i] as StoredToken)));
    expect(written).toContainEqual(await stores[0]?.get('client-a'));
    expect(readdirSync(dir)).toEqual(['token.json']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('keeps every account’s token in one file, each read by its own client id, expired ones dropped', async () => {
    const path = join(dir, 'token.json');
    const store = new FileTokenStore(path);
    await store.set(token('a', 1_800_000, 'client-a'));
    await store.set(token('b', 1_800_000, 'client-b'));
    expect(await store.get('client-a')).toEqual(token('a', 1_800_000, 'client-a'));
    expect(await store.get('client-b')).toEqual(token('b', 1_800_000, 'client-b'));
    expect(await store.get('client-c')).toBeUndefined();
    // A token expired on the wall clock is dropped on the next write.
    await store.set({ token: 'token-old', expiresAt: Date.now() - 1, clientId: 'client-c' });
    await store.set(token('a2', 1_800_000, 'client-a'));
    expect(await store.get('client-c')).toBeUndefined();
    expect(await store.get('client-b')).toEqual(token('b', 1_800_000, 'client-b'));
    // A row filed under another client id than its own is not that client id's token.
    writeFileSync(path, JSON.stringify({ tokens: { 'client-a': token('b', 1_800_000, 'client-b') } }));
    expect(await store.get('client-a')).toBeUndefined();
    // The earlier one-token shape reads as its client id's token.
    writeFileSync(path, JSON.stringify(token('one', 1_800_000, 'client-b')));
    expect(await store.get('client-b')).toEqual(token('one', 1_800_000, 'client-b'));
    expect(await store.get('client-a')).toBeUndefined();
  });

  it('reads a corrupt or foreign file as no token', async () => {
    const path = join(dir, 'token.json');
    const store = new FileTokenStore(path);
    writeFileSync(path, '{"token": tru');
    expect(await store.get('client-a')).toBeUndefined();
    writeFileSync(path, JSON.stringify({ token: 'x' }));
    expect(await store.get('client-a')).toBeUndefined();
  });

  it('shows only its path when inspected or serialised', async () => {
    const store = new FileTokenStore(join(dir, 'token.json'));
    await store.set(token('secret-looking', 1_800_000));
    expect(inspect(store)).toBe(`FileTokenStore { path: '${join(dir, 'token.json')}' }`);
    expect(JSON.stringify(store)).toBe(JSON.stringify({ path: join(dir, 'token.json') }));
  });

  it('refuses an empty path', () => {
    expect(() => new FileTokenStore('  ')).toThrow(/needs the path of its token file/);
  });
});

/** A store in memory that records its calls. */
function memoryStore(initial?: unknown): TokenStore & { value: unknown; sets: StoredToken[] } {
  const store = {
    value: initial,
    sets: [] as StoredToken[],
    async get() {
      return store.value as StoredToken | undefined;
    },
    async set(value: StoredToken) {
      store.sets.push(value);
      store.value = value;
    },
  };
  return store;
}

function exchanger() {
  let count = 0;
  const exchange = async (): Promise<IssuedToken> => {
    count += 1;
    return { token: `token-exchanged-${count}`, expiresAt: NOW + 1_800_000 };
  };
  return { exchange, count: () => count };
}

/** `sharedTokenExchange` for client-a at NOW over `store`, with a counting exchange and a captured log. */
function exchangeOver(store: TokenStore) {
  const { exchange, count } = exchanger();
  const { logger, lines } = capturingLogger();
  const next = sharedTokenExchange(store, { clientId: 'client-a', logger, exchange, now: () => NOW });
  return { next, count, lines };
}

describe('sharedTokenExchange', () => {
  it('uses a fresh stored token of the same client id without exchanging', async () => {
    const store = memoryStore(token('shared', 20 * 60_000));
    const { next, count } = exchangeOver(store);
    expect(await next()).toEqual({ token: 'token-shared', expiresAt: NOW + 20 * 60_000 });
    expect(count()).toBe(0);
    expect(store.sets).toEqual([]);
  });

  it('ignores a stored token within 60 s of expiry, exchanges, and saves the new one', async () => {
    const store = memoryStore(token('old', 60_000));
    const { next, count } = exchangeOver(store);
    expect(await next()).toEqual({ token: 'token-exchanged-1', expiresAt: NOW + 1_800_000 });
    expect(count()).toBe(1);
    expect(store.sets).toEqual([
      { token: 'token-exchanged-1', expiresAt: NOW + 1_800_000, clientId: 'client-a' },
    ]);
  });

  it('uses a stored token with 61 s left', async () => {
    const store = memoryStore(token('almost', 61_000));
    const { next, count } = exchangeOver(store);
    expect((await next()).token).toBe('token-almost');
    expect(count()).toBe(0);
  });

  it("ignores another client id's token and a malformed entry", async () => {
    for (const stored of [
      token('other', 1_800_000, 'client-b'),
      { token: '', expiresAt: NOW + 1e6, clientId: 'client-a' },
    ]) {
      const store = memoryStore(stored);
      const { next, count } = exchangeOver(store);
      expect((await next()).token).toBe('token-exchanged-1');
      expect(count()).toBe(1);
    }
  });

  it('never hands back the token it used last (a refresh means it expired or was rejected)', async () => {
    const store = memoryStore(token('shared', 20 * 60_000));
    const { next, count } = exchangeOver(store);
    expect((await next()).token).toBe('token-shared');
    // The API rejected token-shared: the next refresh exchanges rather than reusing it.
    expect((await next()).token).toBe('token-exchanged-1');
    // Another process saved a newer token meanwhile: that one is taken.
    store.value = token('from-another-process', 25 * 60_000);
    expect((await next()).token).toBe('token-from-another-process');
    expect(count()).toBe(1);
  });

  it('bypasses a store that fails, warning without the token', async () => {
    const broken: TokenStore = {
      get: async () => {
        throw new Error('connection refused');
      },
      set: async () => {
        throw new Error('read-only replica');
      },
    };
    const { next, count, lines } = exchangeOver(broken);
    expect((await next()).token).toBe('token-exchanged-1');
    expect(count()).toBe(1);
    expect(lines).toEqual([
      'warn The token store could not be read (Error: connection refused); exchanging a token instead. ',
      'warn The token store could not be written (Error: read-only replica); the token is used anyway. ',
    ]);
  });
});
