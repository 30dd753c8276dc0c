/**
 * One {@link GroupStore} (one database table) serves every account a platform syncs: each
 * client's sync and webhook hints see the store through a view that passes the client's account
 * (its client id) to every method, so one landlord's groups never mix with another's.
 *
 * The types require the account, but TypeScript accepts a method that ignores a parameter (a
 * store written for one account), which would hand one landlord's groups to another's sync. So
 * the view writes the account into every snapshot it saves and checks every snapshot it reads
 * back: one of another account is a {@link ConfigurationError} naming both accounts, never a
 * silent mix. A snapshot without an account (saved before snapshots carried one) is read as the
 * asking account's, and carries it from its next save on.
 */
import { ConfigurationError } from '../core/options.js';
import type { AccountGroupStore, GroupSnapshot, GroupStore } from './group-sync.js';

/** `snapshot` when it is `account`'s (or names none); a {@link ConfigurationError} otherwise. */
function ownedBy(snapshot: GroupSnapshot, account: string, method: string): GroupSnapshot {
  if (snapshot.account === undefined || snapshot.account === account) return snapshot;
  throw new ConfigurationError(
    `The group store's ${method} returned group ${snapshot.id} of account ${snapshot.account} to the sync of account ${account}: the store ignores its account argument. Key it by (account, group id) before it serves more than one account (docs/platforms.md, "One table for every account's stores").`,
  );
}

/** `store` as the client of `account` uses it: every call carries the account, every snapshot read back is checked. */
export function accountView(store: GroupStore, account: string): AccountGroupStore {
  return {
    get: async (groupId: string) => {
      const snapshot = await store.get(groupId, account);
      return snapshot === undefined ? undefined : ownedBy(snapshot, account, 'get');
    },
    put: (snapshot: GroupSnapshot) => store.put(Object.assign({}, snapshot, { account }), account),
    live: async () => [...(await store.live(account))].map((snapshot) => ownedBy(snapshot, account, 'live')),
    groupOfVerification: (verificationId: string) => store.groupOfVerification(verificationId, account),
  };
}
