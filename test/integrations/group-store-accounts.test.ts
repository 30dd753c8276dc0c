/**
 * "Account" is one thing for the group store: the syncing client's client id, passed to every
 * method, and written into every snapshot sync saves. A store written for one account (its
 * methods ignore the account: TypeScript accepts that) shared by two landlords is refused at run
 * time the first time it hands one landlord's snapshot to the other's sync, naming both, before
 * anything of the other landlord is yielded. Against the multi-account mock over loopback.
 */
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  type GroupSnapshot,
  type GroupStore,
  MemoryGroupStore,
  type VerificationClient,
} from '../../src/index.js';
import { createMockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { caught } from '../support/exposure.js';

const accounts = [
  { clientId: 'landlord-a', secretKey: 'sk-landlord-a' },
  { clientId: 'landlord-b', secretKey: 'sk-landlord-b' },
] as const;

/** A store for one account: one table keyed by group id, every `account` argument ignored. */
function singleAccountStore(): GroupStore & { rows: Map<string, GroupSnapshot> } {
  const rows = new Map<string, GroupSnapshot>();
  return {
    rows,
    get: (id) => (rows.has(id) ? structuredClone(rows.get(id)) : undefined),
    put: (snapshot) => {
      rows.set(snapshot.id, structuredClone(snapshot));
    },
    live: () => [...rows.values()].filter((s) => s.status !== 'completed' && !s.is_expired),
    groupOfVerification: (id) => [...rows.values()].find((s) => s.verification_ids.includes(id))?.id,
  };
}

async function changesOf(client: VerificationClient, store: GroupStore): Promise<string[]> {
  const seen: string[] = [];
  for await (const change of client.applicantGroups.sync(store))
    seen.push(`${change.type} ${change.group.id}`);
  return seen;
}

async function twoLandlords() {
  const mock = await createMockServer({ seed: 49, accounts: [...accounts] });
  const a = mock.client({ account: 'landlord-a' });
  const b = a.withOptions(accounts[1]);
  const groupA = await a.applicantGroups.create(groupCreateBody('ada@example.com', 'lease-a'));
  const groupB = await b.applicantGroups.create(groupCreateBody('bob@example.com', 'lease-b'));
  return { mock, a, b, groupA, groupB };
}

describe('a group store and the account that reads it', () => {
  it('every snapshot sync saves carries the syncing client’s client id', async () => {
    const { mock, a, b, groupA, groupB } = await twoLandlords();
    try {
      const store = new MemoryGroupStore();
      expect(await changesOf(a, store)).toEqual([`added ${groupA.id}`]);
      expect(await changesOf(b, store)).toEqual([`added ${groupB.id}`]);
      expect(store.get(groupA.id, 'landlord-a')?.account).toBe('landlord-a');
      expect(store.get(groupB.id, 'landlord-b')?.account).toBe('landlord-b');
    } finally {
      await mock.close();
    }
  });

  it('a store that ignores the account, shared by two landlords: the second’s sync is refused naming both accounts, and yields nothing of the first’s', async () => {
    const { mock, a, b, groupA, groupB } = await twoLandlords();
    try {
      const store = singleAccountStore();
      expect(await changesOf(a, store)).toEqual([`added ${groupA.id}`]);
      const seen: string[] = [];
      const error = await caught(
        (async () => {
          for await (const change of b.applicantGroups.sync(store))
            seen.push(`${change.type} ${change.group.id}`);
        })(),
      );
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toContain(`group ${groupA.id} of account landlord-a`);
      expect((error as Error).message).toContain('sync of account landlord-b');
      expect((error as Error).message).toContain('(account, group id)');
      // B saw its own group (the list is B's), never A's.
      expect(seen.every((line) => !line.includes(groupA.id))).toBe(true);
      expect(seen).toEqual([`added ${groupB.id}`]);
      // A webhook hint naming A's verification, taken by B's client, is refused the same way.
      const verification = groupA.applicants[0]?.verifications?.[0]?.id ?? '';
      const hint = { code: 'VERIFICATION_STARTED' as const, verification_id: verification };
      const fromB = await caught(
        (async () => {
          for await (const _ of b.applicantGroups.syncEvent(hint, store)) {
            // nothing of A's may arrive
          }
        })(),
      );
      expect(fromB).toBeInstanceOf(ConfigurationError);
    } finally {
      await mock.close();
    }
  });

  it('a snapshot saved before snapshots carried an account is read as the asking account’s, and carries it from its next save', async () => {
    const { mock, a, groupA } = await twoLandlords();
    try {
      const store = singleAccountStore();
      await changesOf(a, store);
      const legacy = structuredClone(store.rows.get(groupA.id) as GroupSnapshot);
      delete legacy.account;
      legacy.status = 'not_started_before';
      store.rows.set(groupA.id, legacy);
      expect(await changesOf(a, store)).toEqual([`status_changed ${groupA.id}`]);
      expect(store.rows.get(groupA.id)?.account).toBe('landlord-a');
    } finally {
      await mock.close();
    }
  });
});
