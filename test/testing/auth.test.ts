import { decodeJwt } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applicantGroupListResponseSchema,
  screeningGroupListResponseSchema,
} from '../../src/schemas/index.js';
import { resolveAccounts } from '../../src/testing/accounts/accounts.js';
import { createTokenAuthority } from '../../src/testing/accounts/auth.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { createClock } from '../../src/testing/state/clock.js';
import { createRandom } from '../../src/testing/state/random.js';
import { call, expectError, expectOk, login } from './helpers.js';

describe('mock auth', () => {
  let mock: MockServer;
  beforeEach(async () => {
    mock = await createMockServer();
  });
  afterEach(async () => {
    await mock.close();
  });

  it('answers 204 with an empty body and a Bearer JWT valid 30 minutes on the mock clock', async () => {
    const answer = await call(mock.url, 'POST', '/api/v1/tenants/auth', {
      body: { client_id: mock.clientId, secret_key: mock.secretKey },
    });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers['x-request-id']).toMatch(/^req_/);
    const token = /^Bearer (.+)$/.exec(answer.headers.authorization ?? '')?.[1] ?? '';
    const claims = decodeJwt(token);
    expect(claims.iat).toBe(Math.floor(mock.clock.now() / 1000));
    expect(claims.exp).toBe((claims.iat ?? 0) + 30 * 60);
    expect(claims.sub).toBe(mock.clientId);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(mock.stats.count('POST /api/v1/tenants/auth')).toBe(1);
  });

  it('refuses wrong credentials with 401 JSON and a missing field with 400', async () => {
    const wrong = await call(mock.url, 'POST', '/api/v1/tenants/auth', {
      body: { client_id: mock.clientId, secret_key: 'nope' },
    });
    expect(expectError(wrong, 401).error).toBe('invalid_client');
    expect(wrong.headers.authorization).toBeUndefined();
    const missing = await call(mock.url, 'POST', '/api/v1/tenants/auth', {
      body: { client_id: mock.clientId },
    });
    expect(expectError(missing, 400).fields).toEqual([
      { field: 'secret_key', message: 'secret_key is required' },
    ]);
  });

  it('refuses missing, garbage and foreign tokens on both families', async () => {
    for (const path of ['/api/v1/applicant_groups', '/api/v1/screening_groups']) {
      expectError(await call(mock.url, 'GET', path), 401);
      expectError(await call(mock.url, 'GET', path, { token: 'garbage' }), 401);
      expectError(await call(mock.url, 'GET', path, { headers: { authorization: 'Basic abc' } }), 401);
    }
    // A token of another mock (other secret key) does not verify here.
    const other = await createMockServer({ secretKey: 'another-secret' });
    try {
      const foreign = await login(other);
      expectError(await call(mock.url, 'GET', '/api/v1/applicant_groups', { token: foreign }), 401);
    } finally {
      await other.close();
    }
  });

  it('accepts a token until 30 minutes pass on the mock clock, then answers 401 token_expired', async () => {
    const token = await login(mock);
    expectOk(
      await call(mock.url, 'GET', '/api/v1/applicant_groups', { token }),
      applicantGroupListResponseSchema,
    );
    mock.clock.advance(29 * 60_000);
    expectOk(
      await call(mock.url, 'GET', '/api/v1/screening_groups', { token }),
      screeningGroupListResponseSchema,
    );
    mock.clock.advance(2 * 60_000);
    const expired = await call(mock.url, 'GET', '/api/v1/applicant_groups', { token });
    expect(expectError(expired, 401).error).toBe('token_expired');
    // A fresh token works again.
    expectOk(
      await call(mock.url, 'GET', '/api/v1/applicant_groups', { token: await login(mock) }),
      applicantGroupListResponseSchema,
    );
    expect(mock.stats.count('POST /api/v1/tenants/auth')).toBe(2);
  });

  it('answers unknown routes with a JSON 404', async () => {
    const answer = await call(mock.url, 'GET', '/api/v1/nothing-here');
    expect(expectError(answer, 404).error).toBe('not_found');
  });
});

describe('the token authority', () => {
  const authority = (secretKey: string, clock = createClock()) =>
    createTokenAuthority({
      accounts: resolveAccounts({ clientId: 'client-1', secretKey }, { clientId: '', secretKey: '' }),
      clock,
      random: createRandom(1),
    });
  const valid = { ok: true, account: 'client-1' };
  const refused = (problem: string) => ({ ok: false, problem });

  it('decides a token it issued (checked for expiry alone) as a full verification does', async () => {
    const clock = createClock();
    const issuer = authority('secret-a', clock);
    // Same secret, but it never issued the token: it verifies signature, subject and expiry.
    const verifier = authority('secret-a', clock);
    const token = await issuer.issue('client-1');
    const exp = decodeJwt(token).exp ?? 0;
    const outcomes: Array<[number, unknown, unknown]> = [];
    for (const offset of [-60, -1, 0, 1, 3600]) {
      clock.set((exp + offset) * 1000);
      outcomes.push([offset, await issuer.check(`Bearer ${token}`), await verifier.check(`Bearer ${token}`)]);
    }
    expect(outcomes).toEqual([
      [-60, valid, valid],
      [-1, valid, valid],
      [0, refused('expired'), refused('expired')],
      [1, refused('expired'), refused('expired')],
      [3600, refused('expired'), refused('expired')],
    ]);
  });

  it("refuses another secret's token and a token with one character changed", async () => {
    const mine = authority('secret-a');
    const foreign = await authority('secret-b').issue('client-1');
    expect(await mine.check(`Bearer ${foreign}`)).toEqual(refused('invalid'));
    const token = await mine.issue('client-1');
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await mine.check(`Bearer ${tampered}`)).toEqual(refused('invalid'));
    expect(await mine.check(`Bearer ${token}`)).toEqual(valid);
    expect(await mine.check('Basic abc')).toEqual(refused('malformed'));
    expect(await mine.check(null)).toEqual(refused('missing'));
  });
});
