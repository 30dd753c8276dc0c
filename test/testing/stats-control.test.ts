/**
 * The mock's request statistics per account, per route and in token exchanges, in JS
 * (`mock.stats.summary()`, `count(route, { account })`) and over the control API
 * (`GET /__mock/stats`, `?account=`, `DELETE /__mock/stats`) for suites in other languages: the
 * same object either way, exact for what the SDK's clients sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError } from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { caught } from '../support/exposure.js';

const AUTH = 'POST /api/v1/tenants/auth';
const LIST = 'GET /api/v1/applicant_groups';
const accounts = [
  { clientId: 'landlord-a', secretKey: 'sk-landlord-a' },
  { clientId: 'landlord-b', secretKey: 'sk-landlord-b' },
] as const;

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const control = async (method: 'GET' | 'DELETE', path: string) => {
  const response = await fetch(`${mock?.url}/__mock${path}`, { method });
  return { status: response.status, json: (await response.json()) as unknown };
};

describe('mock request statistics', () => {
  it('per account, per route and token exchanges: the same in JS and over the control API', async () => {
    mock = await createMockServer({ seed: 5, accounts: [...accounts] });
    const a = mock.client({ account: 'landlord-a' });
    const b = a.withOptions(accounts[1]);
    await a.applicantGroups.list();
    await a.applicantGroups.list();
    await b.applicantGroups.list();
    // A wrong secret for landlord-b: one more exchange named by b, refused.
    const wrong = a.withOptions({ clientId: 'landlord-b', secretKey: 'not-its-secret', maxRetries: 0 });
    expect(await caught(wrong.applicantGroups.list())).toBeInstanceOf(AuthenticationError);

    const expected = {
      total: 6,
      routes: { [AUTH]: 3, [LIST]: 3 },
      tokenExchanges: 3,
      accounts: {
        'landlord-a': { total: 3, routes: { [AUTH]: 1, [LIST]: 2 }, tokenExchanges: 1 },
        'landlord-b': { total: 3, routes: { [AUTH]: 2, [LIST]: 1 }, tokenExchanges: 2 },
      },
    };
    expect(mock.stats.summary()).toEqual(expected);
    expect(mock.stats.count(LIST, { account: 'landlord-a' })).toBe(2);
    expect(mock.stats.count(undefined, { account: 'landlord-b' })).toBe(3);
    expect(mock.stats.count(LIST, { account: 'landlord-z' })).toBe(0);
    expect(mock.stats.count(LIST)).toBe(3);

    expect(await control('GET', '/stats')).toEqual({ status: 200, json: expected });
    expect(await control('GET', '/stats?account=landlord-b')).toEqual({
      status: 200,
      json: expected.accounts['landlord-b'],
    });
    expect((await control('GET', '/stats?account=landlord-z')).json).toEqual({
      total: 0,
      routes: {},
      tokenExchanges: 0,
    });
    // Control requests count in no stats.
    expect(mock.stats.count()).toBe(6);

    const cleared = { total: 0, routes: {}, tokenExchanges: 0, accounts: {} };
    expect(await control('DELETE', '/stats')).toEqual({ status: 200, json: cleared });
    expect(mock.stats.summary()).toEqual(cleared);
    await b.applicantGroups.list();
    expect(mock.stats.summary().accounts).toEqual({
      'landlord-b': { total: 1, routes: { [LIST]: 1 }, tokenExchanges: 0 },
    });
  });
});
