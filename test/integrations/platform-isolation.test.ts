/**
 * Isolation between accounts is a security property: 200 landlord accounts, derived from two root
 * clients (two "processes") that share one token store, call concurrently through token expiries
 * and forced 401s. The server checks every request's token against the account the client meant:
 * no request may carry another account's token, every read answers for its own account, and a
 * 401 for one account refreshes that account's token only.
 */
import { describe, expect, it } from 'vitest';
import { VerificationClient } from '../../src/index.js';
import { createTestClock } from '../../src/testing/index.js';
import { startAccountsServer, type TestAccount, testAccounts } from '../support/accounts-server.js';
import { inBatches, TableTokenStore } from '../support/isolation.js';

const ACCOUNTS = 200;

function manualClock(start: number) {
  let now = start;
  return {
    now: () => now,
    date: () => new Date(now),
    advance(ms: number) {
      now += ms;
      return now;
    },
    set(time: number | Date) {
      now = typeof time === 'number' ? time : time.getTime();
    },
  };
}

describe('platform isolation', () => {
  it('200 accounts, concurrent calls, forced 401s and expiries, one shared token store: no request carries another account’s token', async () => {
    const accounts = testAccounts(ACCOUNTS);
    const mockClock = manualClock(Date.UTC(2026, 10, 27, 12));
    const clock = createTestClock(mockClock);
    const server = await startAccountsServer(accounts, () => mockClock.now());
    const tokenStore = new TableTokenStore();
    const roots = [0, 1].map(
      () =>
        new VerificationClient({
          baseURL: server.url,
          clientId: accounts[0]?.clientId,
          secretKey: accounts[0]?.secretKey,
          defaultHeaders: { 'x-test-account': accounts[0]?.clientId ?? '' },
          tokenStore,
          clock,
          logLevel: 'off',
        }),
    );
    try {
      // Each root holds a derived client per account: two processes serving the same landlords.
      const derived = roots.map((root) =>
        accounts.map((account: TestAccount) =>
          root.withOptions({ ...account, defaultHeaders: { 'x-test-account': account.clientId } }),
        ),
      );
      const answered = new Map<string, number>();
      const call = async (process: number, index: number) => {
        const client = derived[process]?.[index] as VerificationClient;
        const { account } = (await client.get('/api/v1/whoami')) as { account: string };
        const meant = accounts[index]?.clientId as string;
        expect(account).toBe(meant);
        answered.set(meant, (answered.get(meant) ?? 0) + 1);
      };
      const work = accounts.flatMap((_, index) => [0, 1].map((process) => ({ process, index })));
      // Shuffled (deterministically) so accounts and processes interleave.
      work.sort(
        (a, b) => ((a.index * 7919 + a.process * 31) % 997) - ((b.index * 7919 + b.process * 31) % 997),
      );

      // Round 1: every account's first token, shared between the two processes through the store.
      await inBatches(work, 32, ({ process, index }) => call(process, index));
      // Round 2: 60 tokens revoked on use (401, one refresh and one replay of that account).
      server.revokeNext(60);
      await inBatches(work, 32, ({ process, index }) => call(process, index));
      // Round 3: every token expires (29 minutes later): each account refreshes its own.
      mockClock.advance(29 * 60_000);
      await inBatches(work, 32, ({ process, index }) => call(process, index));

      expect(server.crossAccount).toBe(0);
      expect(tokenStore.mixups).toBe(0);
      expect([...answered.values()].every((count) => count === 6)).toBe(true);
      expect(answered.size).toBe(ACCOUNTS);
      const revoked = [...server.revoked.values()].reduce((sum, n) => sum + n, 0);
      expect(revoked).toBe(60);
      for (const account of accounts) {
        const exchanges = server.exchanges.get(account.clientId) ?? 0;
        const revocations = server.revoked.get(account.clientId) ?? 0;
        // One token per lifetime, plus one per revocation; the second process takes the first's
        // token from the store (it may race it to the first exchange: at most one more per round).
        expect(exchanges).toBeGreaterThanOrEqual(2 + revocations);
        expect(exchanges).toBeLessThanOrEqual(2 * (2 + revocations));
      }
      // A 401 for one account refreshed that account only: accounts never revoked exchanged
      // exactly as often as accounts that sat idle would (the two expiry rounds, give or take the race).
      const untouched = accounts.filter((account) => !server.revoked.has(account.clientId));
      expect(untouched.length).toBe(ACCOUNTS - 60);
      for (const account of untouched) {
        expect(server.exchanges.get(account.clientId)).toBeLessThanOrEqual(4);
      }
      for (const [clientId, row] of tokenStore.rows) expect(row.clientId).toBe(clientId);
    } finally {
      for (const root of roots) await root.close();
      await server.close();
    }
  });
});
