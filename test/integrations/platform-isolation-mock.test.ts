/**
 * Isolation between accounts against the SDK's own multi-account mock: 200 landlord accounts,
 * derived from two root clients (two "processes") that share one token store, create, list and
 * read their own groups and reports concurrently through forced 401s (the mock's faults, matched
 * per account) and token expiries (the mock clock moved by the token lifetime). The mock's own
 * records decide: its request log names the account each request's token belongs to beside the
 * account the client meant (`x-mock-tag`, set through each client's `defaultHeaders`), and its
 * store names the owner of every object a request asked for.
 */
import { describe, expect, it } from 'vitest';
import {
  type ApplicantGroupCreateInDollars,
  type ScreeningGroupCreateParams,
  VerificationClient,
} from '../../src/index.js';
import { TOKEN_LIFETIME_SECONDS } from '../../src/testing/accounts/auth.js';
import { createMockServer, createTestClock, DEFAULT_START_TIME } from '../../src/testing/index.js';
import { createRandom } from '../../src/testing/state/random.js';
import { type TestAccount, testAccounts } from '../support/accounts-server.js';
import { inBatches, TableTokenStore } from '../support/isolation.js';

const ACCOUNTS = 200;
const PROCESSES = 2;
const CONCURRENCY = 32;
const AUTH_ROUTE = 'POST /api/v1/tenants/auth';
const TAG = 'x-mock-tag';

/** What one account owns on the mock, as its own clients created it. */
interface Owned {
  applicantGroup: string;
  screeningGroup: string;
}

const applicantGroupBody = (account: TestAccount): ApplicantGroupCreateInDollars => ({
  applicants: [{ first_name: 'Ada', last_name: 'Lovelace', email: `ada@${account.clientId}.example.com` }],
  property: {
    name: `Elm Court of ${account.clientId}`,
    street_address: '12 Elm Street',
    city: 'Springfield',
    state: 'Illinois',
    zip_code: '62701',
  },
  decision_maker_display_name: account.clientId,
  monthly_rent: 1850,
});

const screeningGroupBody = (account: TestAccount): ScreeningGroupCreateParams => ({
  applicants: [
    {
      applicant_first_name: 'Grace',
      applicant_last_name: 'Hopper',
      applicant_email: `grace@${account.clientId}.example.com`,
    },
  ],
  property: {
    name: `Oak House of ${account.clientId}`,
    street_address: '500 Oak Avenue',
    city: 'Austin',
    state: 'Texas',
    zip_code: '73301',
  },
  is_decision_maker_paying: true,
  decision_maker_display_name: account.clientId,
  monthly_rent: 2400,
});

describe('platform isolation against the multi-account mock', () => {
  it('200 accounts, concurrent calls, forced 401s and expiries, one shared token store: 0 requests with another account’s token, 0 cross-account reads', async () => {
    const accounts = testAccounts(ACCOUNTS);
    const mock = await createMockServer({ accounts, seed: 37, now: DEFAULT_START_TIME });
    const tokenStore = new TableTokenStore();
    const [first] = accounts as [TestAccount];
    // Two roots on one token store: two processes of one platform, each with its own connections
    // and coordination, serving the same landlords.
    const roots = Array.from(
      { length: PROCESSES },
      () =>
        new VerificationClient({
          baseURL: mock.url,
          ...first,
          defaultHeaders: { [TAG]: first.clientId },
          tokenStore,
          clock: createTestClock(mock.clock),
          logLevel: 'off',
        }),
    );
    const random = createRandom(37);
    const forced401s = new Map<string, number>();
    try {
      const derived = roots.map((root) =>
        accounts.map((account) =>
          root.withOptions({ ...account, defaultHeaders: { [TAG]: account.clientId } }),
        ),
      );
      const clientOf = (process: number, index: number) => derived[process]?.[index] as VerificationClient;
      // Every (process, account) pair, in a seeded shuffle so accounts and processes interleave.
      const pairs = accounts.flatMap((_, index) =>
        Array.from({ length: PROCESSES }, (_, process) => ({ process, index })),
      );
      const shuffled = () =>
        pairs
          .map((pair) => ({ pair, key: random.next() }))
          .sort((a, b) => a.key - b.key)
          .map(({ pair }) => pair);

      // Creates: each account makes an applicant group from one process and a screening group
      // from the other (no faults meanwhile: a create is never blindly retried).
      const owned = new Map<string, Owned>();
      const created = new Map<string, Partial<Owned>>();
      await inBatches(shuffled(), CONCURRENCY, async ({ process, index }) => {
        const account = accounts[index] as TestAccount;
        const client = clientOf(process, index);
        const mine = created.get(account.clientId) ?? {};
        created.set(account.clientId, mine);
        if ((process + index) % 2 === 0) {
          mine.applicantGroup = (await client.applicantGroups.create(applicantGroupBody(account))).id;
        } else {
          mine.screeningGroup = (await client.screeningGroups.create(screeningGroupBody(account))).id;
        }
      });
      for (const [clientId, mine] of created) {
        if (!mine.applicantGroup || !mine.screeningGroup) throw new Error(`${clientId} created too little`);
        owned.set(clientId, { applicantGroup: mine.applicantGroup, screeningGroup: mine.screeningGroup });
        // Each account's applicant completes (a report), found by its own account only.
        const group = mock.state.applicantGroups.find((record) => record.id === mine.applicantGroup);
        mock.applicants.complete(group?.applicants[0]?.id ?? '', 'finished', { account: clientId });
      }

      // One read per call, rotating through the kinds, each checked against what the account owns.
      const read = async (process: number, index: number, round: number) => {
        const { clientId } = accounts[index] as TestAccount;
        const mine = owned.get(clientId) as Owned;
        const client = clientOf(process, index);
        switch ((index + process + round) % 4) {
          case 0: {
            const page = await client.applicantGroups.list();
            expect(page.items.map((group) => group.id)).toEqual([mine.applicantGroup]);
            break;
          }
          case 1: {
            const group = await client.screeningGroups.retrieve(mine.screeningGroup);
            expect(group.id).toBe(mine.screeningGroup);
            break;
          }
          case 2: {
            const reports = await client.applicantGroups.listReports(mine.applicantGroup);
            const [summary] = reports.individual_reports;
            if (!summary?.id) throw new Error(`${clientId} has no report`);
            const detail = await client.reports.retrieve(summary.id);
            expect(detail.applicant_group_id).toBe(mine.applicantGroup);
            break;
          }
          default: {
            const page = await client.screeningGroups.list();
            expect(page.items.map((group) => group.id)).toEqual([mine.screeningGroup]);
          }
        }
      };
      const forceRandom401s = (share: number) => {
        for (const { clientId } of accounts) {
          if (random.next() >= share) continue;
          // Only reads: a 401 on a create is not what this suite is about.
          mock.faults.next(1, { status: 401 }, { account: clientId, method: 'GET' });
          forced401s.set(clientId, (forced401s.get(clientId) ?? 0) + 1);
        }
      };

      // Round 0: every account's reads on the tokens of the creates.
      await inBatches(shuffled(), CONCURRENCY, ({ process, index }) => read(process, index, 0));
      // Round 1: random accounts' next read is refused (401): that account refreshes and replays.
      forceRandom401s(0.3);
      await inBatches(shuffled(), CONCURRENCY, ({ process, index }) => read(process, index, 1));
      // Round 2: every token expires (the mock's token lifetime), and more random 401s.
      mock.clock.advance(TOKEN_LIFETIME_SECONDS * 1000);
      forceRandom401s(0.3);
      await inBatches(shuffled(), CONCURRENCY, ({ process, index }) => read(process, index, 2));

      // Every forced 401 was served.
      expect(mock.faults.pending()).toEqual([]);
      const log = mock.stats.log();
      expect(log.length).toBe(mock.stats.count());

      // 0 requests carried another account's token: the account each request's token (or an
      // auth request's client_id) named is the one the client meant.
      const api = log.filter((entry) => entry.route !== AUTH_ROUTE);
      expect(api.length).toBeGreaterThan(ACCOUNTS * PROCESSES * 4);
      expect(api.filter((entry) => entry.tag === undefined)).toEqual([]);
      expect(api.filter((entry) => entry.account !== entry.tag)).toEqual([]);
      const exchanges = log.filter((entry) => entry.route === AUTH_ROUTE);
      expect(exchanges.filter((entry) => entry.tag !== undefined && entry.account !== entry.tag)).toEqual([]);

      // 0 cross-account reads: every object a request named belongs to the account it meant.
      const owner = new Map<string, string>();
      for (const record of [
        ...mock.state.applicantGroups,
        ...mock.state.screeningGroups,
        ...mock.state.reports,
      ])
        owner.set(record.id, record.account);
      let named = 0;
      for (const entry of api) {
        for (const segment of entry.url.split('?')[0]?.split('/') ?? []) {
          const account = owner.get(segment);
          if (account === undefined) continue;
          named++;
          expect(account, entry.url).toBe(entry.tag);
        }
      }
      expect(named).toBeGreaterThan(ACCOUNTS);

      // Token exchanges per account: one per token lifetime (two) plus one per forced 401; the
      // second process takes the first's token from the store, or races it to the exchange (at
      // most one more each time). Accounts never forced exchanged only for the lifetimes.
      const perAccount = new Map<string, number>();
      for (const entry of exchanges)
        perAccount.set(entry.account ?? '', (perAccount.get(entry.account ?? '') ?? 0) + 1);
      expect([...perAccount.keys()].sort()).toEqual(accounts.map((account) => account.clientId).sort());
      const total401s = [...forced401s.values()].reduce((sum, n) => sum + n, 0);
      expect(total401s).toBeGreaterThan(ACCOUNTS / 4);
      for (const { clientId } of accounts) {
        const needed = 2 + (forced401s.get(clientId) ?? 0);
        const count = perAccount.get(clientId) ?? 0;
        expect(count, clientId).toBeGreaterThanOrEqual(needed);
        expect(count, clientId).toBeLessThanOrEqual(PROCESSES * needed);
      }
      expect(tokenStore.mixups).toBe(0);
      for (const [clientId, row] of tokenStore.rows) expect(row.clientId).toBe(clientId);
      expect(tokenStore.rows.size).toBe(ACCOUNTS);
    } finally {
      for (const root of roots) await root.close();
      await mock.close();
    }
  });
});
