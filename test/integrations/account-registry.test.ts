/**
 * `AccountRegistry`: a platform's account clients, each derived from the platform root on first
 * use (no I/O) and kept; bounded (the least recently used closed and forgotten); rebuilt when the
 * account's secret key changes (the old client closed, the old token dropped from the store);
 * closed when dropped; and `each`, a loop over accounts with bounded concurrency where one
 * account's failure stays its own. Against the multi-account mock and the accounts server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AccountCredentials,
  AccountRegistry,
  AuthenticationError,
  ClientClosedError,
  ConfigurationError,
  VerificationClient,
} from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { type AccountsServer, startAccountsServer, testAccounts } from '../support/accounts-server.js';
import { groupCreateBody } from '../support/bodies.js';
import { caught } from '../support/exposure.js';
import { TableTokenStore } from '../support/isolation.js';

const landlords = Array.from({ length: 5 }, (_, i) => ({
  clientId: `landlord-${i}`,
  secretKey: `sk-landlord-${i}`,
}));

let mock: MockServer | undefined;
let server: AccountsServer | undefined;
const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const client of closing.splice(0)) await client.close();
  await mock?.close();
  await server?.close();
  mock = undefined;
  server = undefined;
});

/** The platform's table: credentials by client id, changeable by the test. */
function table(rows: readonly AccountCredentials[]) {
  const byId = new Map(rows.map((row) => [row.clientId, { ...row }]));
  const lookups: string[] = [];
  return {
    byId,
    lookups,
    credentials: (clientId: string) => {
      lookups.push(clientId);
      return byId.get(clientId);
    },
  };
}

async function platform(options: { maxAccounts?: number } = {}) {
  mock = await createMockServer({ seed: 11, accounts: landlords });
  const root = VerificationClient.platformRoot({ baseURL: mock.url, logLevel: 'off' });
  closing.push(root);
  const rows = table(landlords);
  const accounts = new AccountRegistry(root, { credentials: rows.credentials, ...options });
  return { mock, root, rows, accounts };
}

describe('AccountRegistry', () => {
  it('builds an account’s client on first use without I/O, and hands back the same one after', async () => {
    const { mock, accounts } = await platform();
    const first = await accounts.get('landlord-1');
    expect(first?.clientId).toBe('landlord-1');
    expect(mock.stats.count()).toBe(0);
    expect(await accounts.get('landlord-1')).toBe(first);
    expect(accounts.size).toBe(1);
    await first?.applicantGroups.create(groupCreateBody('ada@example.com', 'lease-1'));
    expect(mock.groups.applicant({ account: 'landlord-1' })).toHaveLength(1);
  });

  it('no such account: undefined, and a client held for it is closed and dropped', async () => {
    const { rows, accounts } = await platform();
    const held = await accounts.get('landlord-2');
    expect(await accounts.get('landlord-unknown')).toBeUndefined();
    rows.byId.delete('landlord-2');
    expect(await accounts.get('landlord-2')).toBeUndefined();
    expect(accounts.size).toBe(0);
    expect(await caught(held?.applicantGroups.list() ?? Promise.resolve())).toBeInstanceOf(ClientClosedError);
  });

  it('bounded: past maxAccounts the least recently used is closed and forgotten', async () => {
    const { accounts } = await platform({ maxAccounts: 2 });
    const zero = await accounts.get('landlord-0');
    const one = await accounts.get('landlord-1');
    await accounts.get('landlord-0'); // used again: landlord-1 is now the least recent
    await accounts.get('landlord-2');
    expect(accounts.size).toBe(2);
    expect(await caught(one?.applicantGroups.list() ?? Promise.resolve())).toBeInstanceOf(ClientClosedError);
    expect((await zero?.applicantGroups.list())?.items).toEqual([]);
    const again = await accounts.get('landlord-1');
    expect(again).not.toBe(one);
    expect((await again?.applicantGroups.list())?.items).toEqual([]);
  });

  it('refuses credentials of another client id, and bad options', async () => {
    const { root } = await platform();
    const mixed = new AccountRegistry(root, { credentials: () => landlords[0] });
    expect(await caught(mixed.get('landlord-3'))).toBeInstanceOf(ConfigurationError);
    expect(() => new AccountRegistry(root, {} as never)).toThrow(/credentials\(clientId\) function/);
    expect(() => new AccountRegistry(root, { credentials: () => undefined, maxAccounts: 0 })).toThrow(
      /maxAccounts/,
    );
  });

  it('close() closes every account client, not the root', async () => {
    const { root, accounts } = await platform();
    const a = await accounts.get('landlord-0');
    await accounts.close();
    expect(accounts.size).toBe(0);
    expect(await caught(a?.applicantGroups.list() ?? Promise.resolve())).toBeInstanceOf(ClientClosedError);
    const b = root.withOptions(landlords[1] as AccountCredentials);
    expect((await b.applicantGroups.list()).items).toEqual([]);
  });
});

describe('AccountRegistry, a changed secret key', () => {
  it('closes the old client, derives a new one, and drops the old token from the store', async () => {
    const [landlord] = testAccounts(1) as [AccountCredentials];
    server = await startAccountsServer([landlord]);
    const tokenStore = new TableTokenStore();
    const root = VerificationClient.platformRoot({ baseURL: server.url, tokenStore, logLevel: 'off' });
    closing.push(root);
    const rows = table([landlord]);
    const accounts = new AccountRegistry(root, {
      credentials: rows.credentials,
      clientOptions: { defaultHeaders: { 'x-test-account': landlord.clientId } },
    });
    const before = await accounts.get(landlord.clientId);
    await before?.get('/api/v1/whoami');
    const oldToken = tokenStore.rows.get(landlord.clientId)?.token;
    const rotated = `${landlord.secretKey}-rotated`;
    server.rotate(landlord.clientId, rotated);
    (rows.byId.get(landlord.clientId) as AccountCredentials).secretKey = rotated;
    const after = await accounts.get(landlord.clientId);
    expect(after).not.toBe(before);
    expect(await caught(before?.get('/api/v1/whoami') ?? Promise.resolve())).toBeInstanceOf(
      ClientClosedError,
    );
    expect(await after?.get('/api/v1/whoami')).toEqual({ account: landlord.clientId });
    expect(tokenStore.deleted).toEqual([oldToken]);
    expect(server.rotatedTokenUses.get(landlord.clientId) ?? 0).toBe(0);
    expect(server.crossAccount).toBe(0);
  });
});

describe('AccountRegistry.each', () => {
  it('runs every account, at most `concurrency` at once, each failure its own, results in input order', async () => {
    const { rows, accounts } = await platform();
    // landlord-3's stored secret went stale: its exchange is refused.
    (rows.byId.get('landlord-3') as AccountCredentials).secretKey = 'stale';
    let inFlight = 0;
    let most = 0;
    const ids = ['landlord-0', 'landlord-1', 'landlord-2', 'landlord-3', 'landlord-4', 'landlord-none'];
    const results = await accounts.each(
      ids,
      async (client, clientId) => {
        inFlight++;
        most = Math.max(most, inFlight);
        try {
          const page = await client.applicantGroups.list();
          return `${clientId}: ${page.items.length}`;
        } finally {
          inFlight--;
        }
      },
      { concurrency: 2 },
    );
    expect(most).toBeLessThanOrEqual(2);
    expect(results.map((result) => result.account)).toEqual(ids);
    expect(results.map((result) => result.ok)).toEqual([true, true, true, false, true, false]);
    expect(results[0]).toMatchObject({ ok: true, value: 'landlord-0: 0' });
    expect(results[3]).toMatchObject({ ok: false, account: 'landlord-3' });
    expect((results[3] as { error: unknown }).error).toBeInstanceOf(AuthenticationError);
    expect((results[5] as { error: unknown }).error).toBeInstanceOf(ConfigurationError);
  });
});
