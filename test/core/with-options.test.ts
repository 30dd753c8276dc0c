/**
 * Derived clients (`client.withOptions`): another account on the root's connection, with its own
 * token; the same account with other per-call behaviour; what may not be overridden; what close
 * does on either side; credentials as a pair; the account named in errors, logs and traces.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VerificationClient as EdgeClient } from '../../src/edge.js';
import {
  ClientClosedError,
  ConfigurationError,
  InProcessCoordination,
  type OperationTraceContext,
  VerificationClient,
} from '../../src/index.js';
import { type AccountsServer, startAccountsServer, testAccounts } from '../support/accounts-server.js';
import { caught, exposeError } from '../support/exposure.js';
import { capturingLogger } from '../support/http-server.js';

const [alice, bob, carol] = testAccounts(3) as [
  ReturnType<typeof testAccounts>[number],
  ReturnType<typeof testAccounts>[number],
  ReturnType<typeof testAccounts>[number],
];

let server: AccountsServer | undefined;
const clients: VerificationClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

/** A root client's options for alice on `url`, marking its requests as alice's. */
const aliceOn = (url: string) => ({
  baseURL: url,
  clientId: alice.clientId,
  secretKey: alice.secretKey,
  defaultHeaders: { 'x-test-account': alice.clientId },
  logLevel: 'off' as const,
});

async function rootFor(options: Record<string, unknown> = {}) {
  server = await startAccountsServer([alice, bob, carol]);
  const root = new VerificationClient({ ...aliceOn(server.url), ...options });
  clients.push(root);
  return { root, server };
}

function forAccount(root: VerificationClient, account: { clientId: string; secretKey: string }) {
  return root.withOptions({ ...account, defaultHeaders: { 'x-test-account': account.clientId } });
}

const whoami = async (client: VerificationClient) =>
  ((await client.get('/api/v1/whoami')) as { account: string }).account;

describe('withOptions', () => {
  it('derives a client of the same class for another account, on the root’s sockets, with its own token', async () => {
    const { root, server } = await rootFor();
    const derived = forAccount(root, bob);
    expect(derived).toBeInstanceOf(VerificationClient);
    // Deriving does no I/O.
    expect(server.apiRequests + server.exchanges.size + server.sockets).toBe(0);
    expect(await whoami(root)).toBe(alice.clientId);
    expect(await whoami(derived)).toBe(bob.clientId);
    expect(await whoami(derived)).toBe(bob.clientId);
    expect(Object.fromEntries(server.exchanges)).toEqual({ [alice.clientId]: 1, [bob.clientId]: 1 });
    // The root's keep-alive sockets carried both accounts' calls (undici may open a second while
    // the first is freed after an exchange); a socket per account would be one more each.
    expect(server.sockets).toBeLessThanOrEqual(2);
    expect(server.crossAccount).toBe(0);
    expect(await derived.auth.getToken()).not.toBe(await root.auth.getToken());
  });

  it('without credentials acts for the same account, sharing its token, with other behaviour', async () => {
    const { root, server } = await rootFor({ timeout: 60_000 });
    const patient = root.withOptions({ timeout: 120_000, maxRetries: 5 });
    expect(await whoami(root)).toBe(alice.clientId);
    expect(await whoami(patient)).toBe(alice.clientId);
    expect(server.exchanges.get(alice.clientId)).toBe(1);
    expect(await patient.auth.getToken()).toBe(await root.auth.getToken());
    // A derived client derives in turn: still the root's family and connection.
    const again = forAccount(patient, carol);
    expect(await whoami(again)).toBe(carol.clientId);
    expect(server.sockets).toBeLessThanOrEqual(2);
  });

  it.each([
    ['baseURL', 'https://other.example.com'],
    ['fetch', true],
    ['dispatcher', {}],
    ['clock', { now: () => 0, sleep: async () => {} }],
    ['coordination', {}],
    ['tokenStore', {}],
    ['logger', console],
    ['allowInsecureHttp', true],
  ])('refuses to change the root’s %s, naming it', async (name, value) => {
    const { root, server } = await rootFor();
    const derive = () => root.withOptions({ [name]: value } as never);
    expect(derive).toThrow(ConfigurationError);
    expect(derive).toThrow(new RegExp(`cannot change the ${name} option`));
    expect(server.sockets).toBe(0);
  });

  it('takes credentials only as a pair, never one of them beside the parent’s or the environment’s', async () => {
    const { root } = await rootFor();
    vi.stubEnv('VERIFICATION_SECRET_KEY', alice.secretKey);
    expect(() => root.withOptions({ clientId: bob.clientId })).toThrow(/secretKey is missing/);
    expect(() => root.withOptions({ secretKey: bob.secretKey })).toThrow(/clientId is missing/);
    expect(() => root.withOptions({ accessToken: 'a-token' } as never)).toThrow(ConfigurationError);
  });

  it('closing a derived client refuses its calls and releases nothing shared', async () => {
    const { root, server } = await rootFor();
    const derived = forAccount(root, bob);
    expect(await whoami(derived)).toBe(bob.clientId);
    await derived.close();
    const refused = await caught(whoami(derived));
    expect(refused).toBeInstanceOf(ClientClosedError);
    expect(await whoami(root)).toBe(alice.clientId);
    expect(await whoami(forAccount(root, carol))).toBe(carol.clientId);
    expect(server.sockets).toBeLessThanOrEqual(2);
  });

  it('closing the root closes every derived client', async () => {
    const { root, server } = await rootFor();
    const derived = forAccount(root, bob);
    const sameAccount = root.withOptions({ timeout: 5_000 });
    expect(await whoami(derived)).toBe(bob.clientId);
    await root.close();
    for (const client of [root, derived, sameAccount]) {
      expect(await caught(whoami(client))).toBeInstanceOf(ClientClosedError);
    }
    const before = server.apiRequests;
    expect(await caught(whoami(forAccount(root, carol)))).toBeInstanceOf(ClientClosedError);
    expect(server.apiRequests).toBe(before);
  });

  it('a 429 pauses its own account only, and reaches the same account in another process through the coordination', async () => {
    server = await startAccountsServer([alice, bob, carol]);
    let now = Date.UTC(2026, 10, 27, 12);
    const clock = {
      now: () => now,
      async sleep(ms: number) {
        await new Promise((resolve) => setImmediate(resolve));
        now += ms;
      },
    };
    const coordination = new InProcessCoordination(() => now);
    const [first, second] = [1, 2].map(() => {
      const root = new VerificationClient({ ...aliceOn(server?.url ?? ''), clock, coordination });
      clients.push(root);
      return root;
    }) as [VerificationClient, VerificationClient];
    const bobHere = forAccount(first, bob);
    const bobThere = forAccount(second, bob);
    const carolThere = forAccount(second, carol);
    for (const client of [bobHere, bobThere, carolThere]) await whoami(client);
    server.rateLimitNext(bob.clientId);
    const start = now;
    // Bob's 429: retried after its Retry-After (2 s), which pauses Bob's clients in both processes.
    expect(await whoami(bobHere)).toBe(bob.clientId);
    expect(now - start).toBeGreaterThanOrEqual(2_000);
    // Carol in the other process is not paused; Bob there is (the pause ends 2 s after the 429).
    const paused = now;
    now = start;
    expect(await whoami(carolThere)).toBe(carol.clientId);
    expect(now).toBe(start);
    expect(await whoami(bobThere)).toBe(bob.clientId);
    expect(now).toBeGreaterThan(start);
    expect(now).toBeLessThanOrEqual(paused);
  });

  it('names the account, never a secret, in errors, log lines and traces', async () => {
    const { logger, lines } = capturingLogger();
    const { root } = await rootFor({ logger, logLevel: 'debug' });
    const derived = forAccount(root, bob);
    const seen: OperationTraceContext[] = [];
    const onStart = (message: unknown) => seen.push(message as OperationTraceContext);
    subscribe('tracing:applicant-verification:request:start', onStart);
    try {
      const failure = await caught(derived.get('/api/v1/missing'));
      exposeError(failure);
      expect((failure as Error).message).toContain(`(account ${bob.clientId})`);
      expect((failure as Error).message).not.toContain(bob.secretKey);
    } finally {
      unsubscribe('tracing:applicant-verification:request:start', onStart);
    }
    expect(seen.map((context) => context.clientId)).toEqual([bob.clientId]);
    const bobLines = lines.filter((line) => line.includes(`"clientId":"${bob.clientId}"`));
    expect(bobLines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(bob.secretKey);
    // The root's own lines and messages stay as they were.
    const rootFailure = await caught(root.get('/api/v1/missing'));
    expect((rootFailure as Error).message).not.toContain('(account');
  });

  it('works on the edge entry (fetch)', async () => {
    server = await startAccountsServer([alice, bob]);
    const root = new EdgeClient(aliceOn(server.url));
    clients.push(root as unknown as VerificationClient);
    const derived = root.withOptions({ ...bob, defaultHeaders: { 'x-test-account': bob.clientId } });
    expect(derived).toBeInstanceOf(EdgeClient);
    expect(((await derived.get('/api/v1/whoami')) as { account: string }).account).toBe(bob.clientId);
    expect(server.crossAccount).toBe(0);
  });
});

describe('withOptions, what it keeps and drops', () => {
  it("a root on a static access token derives another account that exchanges its own token, never the root's", async () => {
    server = await startAccountsServer([alice, bob, carol]);
    const root = new VerificationClient({
      baseURL: server.url,
      accessToken: 'static-token-of-the-root',
      logLevel: 'off',
    });
    clients.push(root);
    expect(await whoami(forAccount(root, bob))).toBe(bob.clientId);
  });

  it('an override given as undefined keeps the parent’s value (credentials included)', async () => {
    const { root } = await rootFor();
    const same = root.withOptions({ clientId: undefined, secretKey: undefined, timeout: undefined });
    expect(await whoami(same)).toBe(alice.clientId);
  });

  it('refuses what is not an options object', async () => {
    const { root } = await rootFor();
    for (const value of [null, 'bob', 7]) {
      expect(() => root.withOptions(value as never)).toThrow(ConfigurationError);
      expect(() => root.withOptions(value as never)).toThrow('withOptions takes an options object.');
    }
  });
});

describe('credentials as a pair', () => {
  it('refuses a clientId without its secretKey even when the environment has one', () => {
    vi.stubEnv('VERIFICATION_SECRET_KEY', alice.secretKey);
    vi.stubEnv('VERIFICATION_CLIENT_ID', alice.clientId);
    const build = () =>
      new VerificationClient({ baseURL: 'https://api.example.com', clientId: bob.clientId });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(/clientId option needs its secretKey/);
    expect(
      () => new VerificationClient({ baseURL: 'https://api.example.com', secretKey: bob.secretKey }),
    ).toThrow(/secretKey option needs its clientId/);
    // Both from the environment still work, and a secret key beside an access token (webhooks) too.
    expect(new VerificationClient({ baseURL: 'https://api.example.com' }).baseURL).toBe(
      'https://api.example.com/',
    );
    expect(
      new VerificationClient({ baseURL: 'https://api.example.com', accessToken: 't', secretKey: 's' })
        .baseURL,
    ).toBe('https://api.example.com/');
  });
});

describe('which account a client is', () => {
  it('a read-only clientId: the root’s, a derived client’s own, a same-account child’s parent’s; none for an access token', async () => {
    const { root } = await rootFor();
    const forBob = root.withOptions(bob);
    const slowBob = forBob.withOptions({ timeout: 120_000 });
    expect(root.clientId).toBe(alice.clientId);
    expect(forBob.clientId).toBe(bob.clientId);
    expect(slowBob.clientId).toBe(bob.clientId);
    expect(() => {
      (forBob as { clientId: string | undefined }).clientId = alice.clientId;
    }).toThrow(TypeError);
    expect(forBob.clientId).toBe(bob.clientId);
    const byToken = new VerificationClient({ baseURL: 'https://api.example.com', accessToken: 'tok' });
    clients.push(byToken);
    expect(byToken.clientId).toBeUndefined();
    expect(byToken.withOptions(carol).clientId).toBe(carol.clientId);
  });

  it('util.inspect and JSON show the account, never its secret key or token', async () => {
    const { root } = await rootFor();
    const forBob = forAccount(root, bob);
    await whoami(forBob);
    const token = await forBob.auth.getToken();
    for (const shown of [
      inspect(forBob),
      inspect(forBob, { depth: 10, showHidden: true }),
      JSON.stringify(forBob),
    ]) {
      expect(shown).toContain(bob.clientId);
      expect(shown).not.toContain(bob.secretKey);
      expect(shown).not.toContain(token);
    }
    expect(inspect(forBob)).toBe(
      `VerificationClient { baseURL: '${server?.url}/', clientId: '${bob.clientId}' }`,
    );
    expect(JSON.parse(JSON.stringify(forBob))).toEqual({
      baseURL: `${server?.url}/`,
      clientId: bob.clientId,
    });
  });
});
