/**
 * One {@link GroupStore} (one database table) serves every account a platform syncs: each
 * client's sync and webhook hints see the store through a view that passes the client's account
 * (its client id) to every method, so one landlord's groups never mix with another's.
 */
import type { GroupSnapshot, GroupStore } from './group-sync.js';

/** `store` as the client of `account` uses it: every call carries the account. */
export function accountView(store: GroupStore, account: string): GroupStore {
  return {
    get: (groupId: string) => store.get(groupId, account),
    put: (snapshot: GroupSnapshot) => store.put(snapshot, account),
    live: () => store.live(account),
    groupOfVerification: (verificationId: string) => store.groupOfVerification(verificationId, account),
  };
}
