/**
 * A platform root (`VerificationClient.platformRoot(...)`) is no account: it takes no
 * credentials and reads none from the environment, holds the pool, settings and token store its
 * derived clients share, and refuses its own calls (and those of a client derived from it without
 * credentials) with a ConfigurationError naming withOptions, before any I/O: the mock's request
 * log stays empty, and no create lease is taken.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VerificationClient as EdgeClient } from '../../src/edge.js';
import {
  ClientClosedError,
  ConfigurationError,
  InProcessCoordination,
  type TokenStore,
  VerificationClient,
} from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { caught } from '../support/exposure.js';

const accounts = [
  { clientId: 'landlord-a', secretKey: 'sk-landlord-a' },
  { clientId: 'landlord-b', secretKey: 'sk-landlord-b' },
] as const;

let mock: MockServer | undefined;
const clients: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await mock?.close();
  mock = undefined;
  vi.unstubAllEnvs();
});

/** A token store that records what it was asked. */
function recordingStore(): TokenStore & { calls: string[] } {
  const saved = new Map<string, Parameters<TokenStore['set']>[0]>();
  const calls: string[] = [];
  return {
    calls,
    get: async (clientId) => {
      calls.push(`get ${clientId}`);
      return saved.get(clientId);
    },
    set: async (token) => {
      calls.push(`set ${token.clientId}`);
      saved.set(token.clientId, token);
    },
  };
}

async function platform(options: { coordination?: InProcessCoordination; tokenStore?: TokenStore } = {}) {
  mock = await createMockServer({ seed: 2, accounts: [...accounts] });
  const root = VerificationClient.platformRoot({ baseURL: mock.url, logLevel: 'off', ...options });
  clients.push(root);
  return { mock, root };
}

const refusedWithWithOptions = (error: unknown) => {
  expect(error).toBeInstanceOf(ConfigurationError);
  expect((error as Error).message).toContain('platform root');
  expect((error as Error).message).toContain('root.withOptions({ clientId, secretKey })');
};

describe('a platform root', () => {
  it('is no account: it reads no credentials from the environment, and says so', async () => {
    vi.stubEnv('VERIFICATION_CLIENT_ID', 'landlord-a');
    vi.stubEnv('VERIFICATION_SECRET_KEY', 'sk-landlord-a');
    const { root } = await platform();
    expect(root).toBeInstanceOf(VerificationClient);
    expect(root.clientId).toBeUndefined();
  });

  it('refuses every call of its own before any I/O, naming withOptions: lists, creates, createOnce, raw requests, tokens', async () => {
    const coordination = new InProcessCoordination();
    const leases = vi.spyOn(coordination, 'acquireCreateLease');
    const { mock, root } = await platform({ coordination });
    const attempts: Array<Promise<unknown>> = [
      root.applicantGroups.list(),
      root.applicantGroups.create(groupCreateBody('ada@example.com', 'lease-1')),
      root.applicantGroups.createOnce(groupCreateBody('ada@example.com', 'lease-2')),
      root.reports.retrieve('rep_1'),
      root.screeningGroups.list(),
      root.get('/api/v1/applicant_groups'),
      root.post('/api/v1/applicant_groups', { body: {} }),
      root.auth.getToken(),
    ];
    for (const attempt of attempts) refusedWithWithOptions(await caught(attempt));
    const sameAccount = root.withOptions({ timeout: 5_000 });
    expect(sameAccount.clientId).toBeUndefined();
    refusedWithWithOptions(await caught(sameAccount.applicantGroups.list()));
    refusedWithWithOptions(await caught(sameAccount.withOptions({ maxRetries: 0 }).applicantGroups.list()));
    expect(mock.stats.count()).toBe(0);
    // createOnce was refused before it took a lease.
    expect(leases).not.toHaveBeenCalled();
  });

  it('derives each landlord’s client, which acts for that landlord on the root’s token store', async () => {
    const tokenStore = recordingStore();
    const { mock, root } = await platform({ tokenStore });
    const a = root.withOptions(accounts[0]);
    const b = root.withOptions(accounts[1]);
    expect([a.clientId, b.clientId]).toEqual(['landlord-a', 'landlord-b']);
    const created = await a.applicantGroups.create(groupCreateBody('ada@example.com', 'lease-a'));
    expect((await b.applicantGroups.list()).items).toEqual([]);
    expect((await a.applicantGroups.list()).items.map((group) => group.id)).toEqual([created.id]);
    expect(mock.groups.applicant({ account: 'landlord-a' })).toHaveLength(1);
    expect(mock.stats.summary().accounts).toMatchObject({
      'landlord-a': { tokenExchanges: 1 },
      'landlord-b': { tokenExchanges: 1 },
    });
    expect(tokenStore.calls).toEqual(expect.arrayContaining(['set landlord-a', 'set landlord-b']));
    // Still nothing in the root's own name.
    refusedWithWithOptions(await caught(root.applicantGroups.list()));
  });

  it('takes no credentials: a clientId, secretKey or accessToken is a ConfigurationError naming it', () => {
    for (const credentials of [
      { clientId: 'landlord-a' },
      { secretKey: 'sk' },
      { accessToken: 'token' },
      { clientId: 'landlord-a', secretKey: 'sk' },
    ]) {
      const build = () =>
        VerificationClient.platformRoot({ baseURL: 'https://api.example.com', ...(credentials as object) });
      expect(build).toThrow(ConfigurationError);
      expect(build).toThrow(new RegExp(`takes no ${Object.keys(credentials).join(', ')}`));
    }
    // An ordinary client without credentials is still refused, not made a root by inference.
    expect(() => new VerificationClient({ baseURL: 'https://api.example.com' })).toThrow(
      /Missing credentials/,
    );
  });

  it('closing it closes every client derived from it; the edge entry has one too', async () => {
    const { root } = await platform();
    const a = root.withOptions(accounts[0]);
    await a.applicantGroups.list();
    await root.close();
    expect(await caught(a.applicantGroups.list())).toBeInstanceOf(ClientClosedError);
    const edge = EdgeClient.platformRoot({ baseURL: mock?.url ?? '' });
    clients.push(edge);
    expect(edge).toBeInstanceOf(EdgeClient);
    refusedWithWithOptions(await caught(edge.applicantGroups.list()));
    expect((await edge.withOptions(accounts[1]).applicantGroups.list()).items).toEqual([]);
  });
});
