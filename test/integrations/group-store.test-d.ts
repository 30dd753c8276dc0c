import { describe, expectTypeOf, it } from 'vitest';
import {
  type GroupSnapshot,
  type GroupStore,
  MemoryGroupStore,
  VerificationClient,
} from '../../src/index.js';

declare const store: GroupStore;
declare const snapshot: GroupSnapshot;

describe('GroupStore: the account is required where the types can require it', () => {
  it('every method takes the account (a client id)', () => {
    // @ts-expect-error: a read without the account could return another landlord's group
    store.get('grp_1');
    // @ts-expect-error: a save without the account
    store.put(snapshot);
    // @ts-expect-error: live groups of which account?
    store.live();
    // @ts-expect-error: a verification of which account?
    store.groupOfVerification('ver_1');
    expectTypeOf(store.get).parameter(1).toEqualTypeOf<string>();
    expectTypeOf(store.live).parameter(0).toEqualTypeOf<string>();
  });

  it('MemoryGroupStore is one, and a snapshot names its account', () => {
    expectTypeOf(new MemoryGroupStore()).toExtend<GroupStore>();
    expectTypeOf<GroupSnapshot['account']>().toEqualTypeOf<string | undefined>();
  });

  it('a client says which account it is, read-only', () => {
    const client = new VerificationClient({
      baseURL: 'https://api.example.com',
      clientId: 'a',
      secretKey: 's',
    });
    expectTypeOf(client.clientId).toEqualTypeOf<string | undefined>();
    // @ts-expect-error: a getter without a setter
    client.clientId = 'b';
  });
});
