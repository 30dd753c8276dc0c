/**
 * The isolation suite's account-plumbing cases (issue 49), 200 landlord accounts against the
 * accounts server, which checks every request's token against the account the client meant:
 * every spelling of the credential header, per call and in `defaultHeaders`, is refused before
 * any request; a platform root without credentials sends nothing in its own name (whatever the
 * environment holds); and secrets rotated under load, through an `AccountRegistry`: 0 requests
 * with another account's token, 0 answers with another account's data, and no token the old
 * secret minted left in the store.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type AccountCredentials,
  AccountRegistry,
  AuthenticationError,
  ClientClosedError,
  ConfigurationError,
  RequestValidationError,
  VerificationClient,
} from '../../src/index.js';
import { startAccountsServer, testAccounts } from '../support/accounts-server.js';
import { caught } from '../support/exposure.js';
import { inBatches, TableTokenStore } from '../support/isolation.js';

const ACCOUNTS = 200;
const SPELLINGS = ['Authorization', 'AUTHORIZATION', 'aUtHoRiZaTiOn', 'authorization', 'AuthoriZation'];
const meantBy = (clientId: string) => ({ 'x-test-account': clientId });

afterEach(() => {
  vi.unstubAllEnvs();
});

async function platform() {
  const accounts = testAccounts(ACCOUNTS);
  const server = await startAccountsServer(accounts);
  const tokenStore = new TableTokenStore();
  const root = VerificationClient.platformRoot({ baseURL: server.url, tokenStore, logLevel: 'off' });
  return { accounts, server, tokenStore, root };
}

describe('platform isolation, account plumbing', () => {
  it('every spelling of Authorization, per call and in defaultHeaders, on 200 accounts: refused, 0 requests sent with it', async () => {
    const { accounts, server, root } = await platform();
    try {
      const clients = accounts.map((account) =>
        root.withOptions({ ...account, defaultHeaders: meantBy(account.clientId) }),
      );
      // Every account's own token first, so there is another account's token to try.
      await inBatches(accounts, 32, async (account) => {
        const index = accounts.indexOf(account);
        expect(await clients[index]?.get('/api/v1/whoami')).toEqual({ account: account.clientId });
      });
      const tokens = await Promise.all(clients.map((client) => client.auth.getToken()));
      const sentBefore = server.apiRequests;
      let refused = 0;
      await inBatches(accounts, 32, async (account) => {
        const index = accounts.indexOf(account);
        const neighbour = `Bearer ${tokens[(index + 1) % ACCOUNTS]}`;
        for (const name of SPELLINGS) {
          const perCall = await caught(
            clients[index]?.get('/api/v1/whoami', { options: { headers: { [name]: neighbour } } }) ??
              Promise.resolve(),
          );
          expect(perCall).toBeInstanceOf(RequestValidationError);
          const byDefault = root.withOptions({
            ...account,
            defaultHeaders: { ...meantBy(account.clientId), [name]: neighbour },
          });
          expect(await caught(byDefault.get('/api/v1/whoami'))).toBeInstanceOf(RequestValidationError);
          refused += 2;
        }
      });
      expect(refused).toBe(ACCOUNTS * SPELLINGS.length * 2);
      expect(server.apiRequests).toBe(sentBefore);
      expect(server.crossAccount).toBe(0);
    } finally {
      await root.close();
      await server.close();
    }
  });

  it('a platform root without credentials sends nothing in its own name, whatever the environment holds', async () => {
    const { accounts, server, root: first } = await platform();
    await first.close();
    vi.stubEnv('VERIFICATION_CLIENT_ID', accounts[0]?.clientId ?? '');
    vi.stubEnv('VERIFICATION_SECRET_KEY', accounts[0]?.secretKey ?? '');
    const root = VerificationClient.platformRoot({ baseURL: server.url, logLevel: 'off' });
    try {
      expect(root.clientId).toBeUndefined();
      for (const attempt of [
        root.get('/api/v1/whoami'),
        root.auth.getToken(),
        root.withOptions({ timeout: 1_000 }).get('/api/v1/whoami'),
      ]) {
        expect(await caught(attempt)).toBeInstanceOf(ConfigurationError);
      }
      expect(server.apiRequests).toBe(0);
      expect(server.exchanges.size).toBe(0);
      await inBatches(accounts, 32, async (account) => {
        const client = root.withOptions({ ...account, defaultHeaders: meantBy(account.clientId) });
        expect(await client.get('/api/v1/whoami')).toEqual({ account: account.clientId });
      });
      expect(server.crossAccount).toBe(0);
      expect(server.exchanges.size).toBe(ACCOUNTS);
    } finally {
      await root.close();
      await server.close();
    }
  });

  it('secrets rotated under load through an AccountRegistry: 0 requests with another account’s token, 0 answers with another account’s data, no old token left stored', async () => {
    const { accounts, server, tokenStore, root } = await platform();
    const table = new Map<string, AccountCredentials>(
      accounts.map((account) => [account.clientId, { ...account }]),
    );
    const registry = new AccountRegistry(root, { credentials: (clientId) => table.get(clientId) });
    const call = async (clientId: string) => {
      const client = await registry.get(clientId);
      return (await client?.get('/api/v1/whoami', { options: { headers: meantBy(clientId) } })) as {
        account: string;
      };
    };
    try {
      const ids = accounts.map((account) => account.clientId);
      await inBatches(ids, 32, async (clientId) => {
        expect(await call(clientId)).toEqual({ account: clientId });
      });
      const rotated = ids.filter((_, index) => index % 4 === 0);
      const oldTokens = new Set(rotated.map((clientId) => tokenStore.rows.get(clientId)?.token));
      const work = [...ids, ...ids, ...ids];
      let started = 0;
      let answered = 0;
      let refusedDuringRotation = 0;
      await inBatches(work, 32, async (clientId) => {
        started++;
        if (started === ids.length) {
          // Mid-load: the vendor rotates 50 landlords' secrets, and the platform's table follows.
          for (const id of rotated) {
            const secretKey = `${table.get(id)?.secretKey}-rotated`;
            server.rotate(id, secretKey);
            table.set(id, { clientId: id, secretKey });
          }
        }
        try {
          expect(await call(clientId)).toEqual({ account: clientId });
          answered++;
        } catch (error) {
          // A call an old client had in flight: refused (its token revoked, its secret stale), never answered for another.
          if (!(error instanceof AuthenticationError || error instanceof ClientClosedError)) throw error;
          refusedDuringRotation++;
        }
      });
      expect(answered + refusedDuringRotation).toBe(work.length);
      expect(refusedDuringRotation).toBeLessThanOrEqual(32);
      // Afterwards every account answers for itself, the rotated ones with their new secret.
      await inBatches(ids, 32, async (clientId) => {
        expect(await call(clientId)).toEqual({ account: clientId });
      });
      expect(server.crossAccount).toBe(0);
      expect(tokenStore.mixups).toBe(0);
      for (const clientId of rotated) expect(oldTokens.has(tokenStore.rows.get(clientId)?.token)).toBe(false);
      for (const [clientId, row] of tokenStore.rows) expect(row.clientId).toBe(clientId);
    } finally {
      await registry.close();
      await root.close();
      await server.close();
    }
  });
});
