import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import {
  applicantGroupListResponseSchema,
  applicantGroupSchema,
  reportDetailSchema,
  screeningGroupListResponseSchema,
  screeningGroupSchema,
} from '../../src/schemas/index.js';
import { startMockBin } from '../../src/testing/bin-main.js';
import { createMockApi, createMockServer, type MockServer, signWebhook } from '../../src/testing/index.js';
import {
  applicantGroupBody,
  call,
  expectError,
  expectOk,
  sameAs,
  screeningGroupBody,
  session,
  UNKNOWN_ID,
} from './helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

const ALPHA = { clientId: 'landlord-alpha', secretKey: 'alpha-secret', webhookSecret: 'alpha-whsec' };
const BETA = { clientId: 'landlord-beta', secretKey: 'beta-secret' };

describe('a mock with two accounts', () => {
  let mock: MockServer;
  let alpha: ReturnType<typeof session>;
  let beta: ReturnType<typeof session>;

  beforeEach(async () => {
    mock = await createMockServer({ accounts: [ALPHA, BETA], seed: 7 });
    alpha = session({ url: mock.url, clock: mock.clock, ...ALPHA });
    beta = session({ url: mock.url, clock: mock.clock, ...BETA });
  });
  afterEach(async () => {
    await mock.close();
  });

  it("answers another account's groups, reports and screening groups exactly as unknown ids", async () => {
    const group = expectOk(
      await alpha('POST', '/api/v1/applicant_groups', { body: applicantGroupBody() }),
      applicantGroupSchema,
    );
    const screening = expectOk(
      await alpha('POST', '/api/v1/screening_groups', { body: screeningGroupBody() }),
      screeningGroupSchema,
    );
    mock.applicants.complete(group.applicants[0]?.id ?? '');
    mock.applicants.complete(mock.state.screeningGroups[0]?.screenings[0]?.id ?? '');
    const [report] = mock.reports.forGroup(group.id);
    if (!report) throw new Error('no report');

    const paths: Array<[string, string]> = [
      [`/api/v1/applicant_groups/{id}/reports`, group.id],
      [`/api/v1/reports/{id}`, report.id],
      [`/api/v1/screening_groups/{id}`, screening.id],
      [`/api/v1/screening_groups/{id}/report`, screening.id],
      [`/api/v1/screening_groups/{id}/report/data`, screening.id],
    ];
    for (const [path, id] of paths) {
      // The owner reads it; the other account gets what an unknown id gets, word for word.
      expect((await alpha('GET', path.replace('{id}', id))).status).toBe(200);
      const foreign = await beta('GET', path.replace('{id}', id));
      const unknown = await beta('GET', path.replace('{id}', UNKNOWN_ID));
      expectError(foreign, 404);
      expect(sameAs(foreign, id)).toEqual(sameAs(unknown, UNKNOWN_ID));
    }
    // The owner's PDF link still opens (pre-signed, no account needed); the other account never gets one.
    const detail = expectOk(await alpha('GET', `/api/v1/reports/${report.id}`), reportDetailSchema);
    expect((await call(mock.url, 'GET', detail.pdf_url)).status).toBe(200);
  });

  it("lists only the caller's groups, correlation-id lookups included", async () => {
    for (const [who, count] of [
      [alpha, 3],
      [beta, 2],
    ] as const) {
      for (let n = 0; n < count; n++) {
        await who('POST', '/api/v1/applicant_groups', {
          body: applicantGroupBody({ correlation_id: `lease-${n}` }),
        });
        await who('POST', '/api/v1/screening_groups', { body: screeningGroupBody() });
      }
    }
    const alphaList = expectOk(
      await alpha('GET', '/api/v1/applicant_groups'),
      applicantGroupListResponseSchema,
    );
    const betaList = expectOk(
      await beta('GET', '/api/v1/applicant_groups'),
      applicantGroupListResponseSchema,
    );
    expect([alphaList.total_count, betaList.total_count]).toEqual([3, 2]);
    const ids = (account: string) =>
      mock.state.applicantGroups.filter((g) => g.account === account).map((g) => g.id);
    expect(alphaList.applicant_groups.map((g) => g.id)).toEqual(ids(ALPHA.clientId));
    expect(betaList.applicant_groups.map((g) => g.id)).toEqual(ids(BETA.clientId));
    // Both used lease-0: each finds its own only.
    const byCorrelation = expectOk(
      await beta('GET', '/api/v1/applicant_groups?correlation_id=lease-0'),
      applicantGroupListResponseSchema,
    );
    expect(byCorrelation.applicant_groups.map((g) => g.id)).toEqual([ids(BETA.clientId)[0]]);
    const screenings = expectOk(
      await beta('GET', '/api/v1/screening_groups'),
      screeningGroupListResponseSchema,
    );
    expect(screenings.total_count).toBe(2);
    // The test-side views and the control API narrow to one account on request.
    expect(mock.groups.applicant({ account: BETA.clientId }).map((g) => g.id)).toEqual(ids(BETA.clientId));
    expect(mock.groups.applicant()).toHaveLength(5);
    const control = await call(mock.controlUrl, 'GET', `/groups?account=${BETA.clientId}`);
    expect(control.json).toMatchObject({ applicant_groups: { length: 2 }, screening_groups: { length: 2 } });
    expect((await call(mock.controlUrl, 'GET', '/accounts')).json).toEqual([
      { client_id: ALPHA.clientId },
      { client_id: BETA.clientId },
    ]);
  });

  it('refuses a token whose subject was changed to another account', async () => {
    const answer = await call(mock.url, 'POST', '/api/v1/tenants/auth', {
      body: { client_id: BETA.clientId, secret_key: BETA.secretKey },
    });
    const token = /^Bearer (.+)$/.exec(answer.headers.authorization ?? '')?.[1] ?? '';
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    expect(claims.sub).toBe(BETA.clientId);
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: ALPHA.clientId })).toString('base64url');
    const refused = await call(mock.url, 'GET', '/api/v1/applicant_groups', {
      token: `${header}.${forged}.${signature}`,
    });
    expect(expectError(refused, 401).error).toBe('unauthorized');
    // Each account's secret opens its own account only.
    const crossed = await call(mock.url, 'POST', '/api/v1/tenants/auth', {
      body: { client_id: ALPHA.clientId, secret_key: BETA.secretKey },
    });
    expect(expectError(crossed, 401).error).toBe('invalid_client');
  });

  it('records the account of each request, and fails only the named account with a matching fault', async () => {
    mock.faults.next(1, { status: 503 }, { account: BETA.clientId, path: '/api/v1/applicant_groups' });
    expect((await alpha('GET', '/api/v1/applicant_groups')).status).toBe(200);
    expect((await beta('GET', '/api/v1/applicant_groups')).status).toBe(503);
    expect((await beta('GET', '/api/v1/applicant_groups')).status).toBe(200);
    expect(mock.stats.log().map((entry) => [entry.route, entry.account])).toEqual([
      ['POST /api/v1/tenants/auth', ALPHA.clientId],
      ['GET /api/v1/applicant_groups', ALPHA.clientId],
      ['POST /api/v1/tenants/auth', BETA.clientId],
      ['GET /api/v1/applicant_groups', BETA.clientId],
      ['GET /api/v1/applicant_groups', BETA.clientId],
    ]);
  });

  it("gives SDK clients of either account on the mock's one clock", async () => {
    const alphaClient = mock.client({ account: ALPHA.clientId });
    const betaClient = mock.client({ account: BETA.clientId });
    const group = await alphaClient.applicantGroups.create(applicantGroupBody() as never);
    await expect(betaClient.applicantGroups.listReports(group.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await alphaClient.applicantGroups.listReports(group.id)).individual_reports).toEqual([]);
    // One clock: 31 minutes later both accounts' tokens have expired, and each exchanges its own again.
    mock.clock.advance(31 * 60_000);
    await alphaClient.applicantGroups.list();
    await betaClient.applicantGroups.list();
    const exchanges = mock.stats.log().filter((entry) => entry.route === 'POST /api/v1/tenants/auth');
    expect(exchanges.map((entry) => entry.account)).toEqual([
      ALPHA.clientId,
      BETA.clientId,
      ALPHA.clientId,
      BETA.clientId,
    ]);
    expect(() => mock.client({ account: 'landlord-gamma' })).toThrow(
      /no account "landlord-gamma" \(its accounts: "landlord-alpha", "landlord-beta"\)/,
    );
  });
});

describe('webhook deliveries of several accounts', () => {
  let mock: MockServer;
  let receiver: Receiver;
  beforeEach(async () => {
    mock = await createMockServer({ accounts: [ALPHA, BETA] });
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await mock.close();
    await receiver.close();
  });

  it("signs each delivery with the owning account's webhook secret", async () => {
    for (const account of [ALPHA.clientId, BETA.clientId]) {
      const client = mock.client({ account });
      const group = await client.applicantGroups.create(
        applicantGroupBody({ webhook_url: receiver.url }) as never,
      );
      mock.applicants.start(group.applicants[0]?.id ?? '');
    }
    await mock.deliveries.settled();
    const records = mock.deliveries.all();
    expect(records.map((record) => record.account)).toEqual([ALPHA.clientId, BETA.clientId]);
    // Alpha's own webhookSecret, Beta's secret key (it set none); neither verifies with the other's.
    const keys = [ALPHA.webhookSecret, BETA.secretKey];
    expect(receiver.received.map((r) => r.headers['verification-signature'])).toEqual(
      receiver.received.map((r, index) => signWebhook(r.body, keys[index] ?? '')),
    );
    expect(receiver.received.map((r, index) => signWebhook(r.body, keys[1 - index] ?? ''))).not.toContain(
      receiver.received[0]?.headers['verification-signature'],
    );
    const betaOnly = await call(mock.controlUrl, 'GET', `/deliveries?account=${BETA.clientId}`);
    expect(betaOnly.json).toMatchObject([{ account: BETA.clientId }]);
  });
});

describe('account options', () => {
  it('refuses both forms at once, an empty list, a duplicate or a blank field', () => {
    expect(() => createMockApi({ accounts: [ALPHA], clientId: 'x' })).toThrow(
      'Pass either accounts or clientId/secretKey, not both',
    );
    expect(() => createMockApi({ accounts: [] })).toThrow(/non-empty array/);
    expect(() => createMockApi({ accounts: [ALPHA, { ...BETA, clientId: ALPHA.clientId }] })).toThrow(
      /"landlord-alpha" twice/,
    );
    expect(() => createMockApi({ accounts: [{ clientId: 'c', secretKey: '' }] })).toThrow(
      /accounts\[0\]\.secretKey must be a non-empty string/,
    );
  });

  it('releases the port when the options are bad', async () => {
    const probe = await createMockServer();
    const port = Number(new URL(probe.url).port);
    await probe.close();
    await expect(createMockServer({ accounts: [ALPHA, ALPHA], port })).rejects.toThrow(/twice/);
    // The failed start left nothing listening: the same port serves a good mock at once.
    const again = await createMockServer({ accounts: [ALPHA], port });
    expect(again.url).toBe(probe.url);
    await again.close();
  });

  it('keeps one account from clientId / secretKey, the first of several as the default', () => {
    const single = createMockApi({ clientId: 'only', secretKey: 'only-secret' });
    expect(single.accounts).toEqual([{ clientId: 'only', secretKey: 'only-secret' }]);
    const many = createMockApi({ accounts: [BETA, ALPHA] });
    expect([many.clientId, many.secretKey]).toEqual([BETA.clientId, BETA.secretKey]);
  });
});

describe('the mock bin with --account', () => {
  const io = (lines: string[]) => ({
    out: (line: string) => lines.push(line),
    err: (line: string) => lines.push(`stderr: ${line}`),
    env: { VERIFICATION_MOCK_CLIENT_ID: 'env-client', VERIFICATION_MOCK_SECRET_KEY: 'env-secret' },
  });

  it('serves each --account ID:SECRET apart, names them without their secrets, and exports the first', async () => {
    const lines: string[] = [];
    const mock = await startMockBin(
      ['--port', '0', '--account', 'north:n-secret:with-colon', '--account', 'south:s-secret'],
      io(lines),
    );
    if (!mock) throw new Error('the bin started no mock');
    try {
      const text = lines.join('\n');
      expect(text).toContain('accounts:    north, south (secret keys as you set them)');
      expect(text).toContain('export VERIFICATION_CLIENT_ID=north');
      expect(text).not.toMatch(/n-secret|s-secret|env-secret/);
      const north = session({
        url: mock.url,
        clock: mock.clock,
        clientId: 'north',
        secretKey: 'n-secret:with-colon',
      });
      const south = session({ url: mock.url, clock: mock.clock, clientId: 'south', secretKey: 's-secret' });
      const group = expectOk(
        await north('POST', '/api/v1/applicant_groups', { body: applicantGroupBody() }),
        applicantGroupSchema,
      );
      expectError(await south('GET', `/api/v1/applicant_groups/${group.id}/reports`), 404);
      const southList = expectOk(
        await south('GET', '/api/v1/applicant_groups'),
        applicantGroupListResponseSchema,
      );
      expect(southList.total_count).toBe(0);
      // With --account the environment's single pair is not an account.
      const envLogin = await call(mock.url, 'POST', '/api/v1/tenants/auth', {
        body: { client_id: 'env-client', secret_key: 'env-secret' },
      });
      expectError(envLogin, 401);
    } finally {
      await mock.close();
    }
  });

  it('refuses a malformed --account without echoing it, and --account beside --client-id', async () => {
    const lines: string[] = [];
    const malformed = startMockBin(['--port', '0', '--account', 'no-secret-here'], io(lines));
    await expect(malformed).rejects.toThrow(/--account must be ID:SECRET with both parts non-empty\nUsage:/);
    await expect(malformed).rejects.not.toThrow(/no-secret-here/);
    await expect(
      startMockBin(['--port', '0', '--account', 'a:', '--account', 'b:x'], io(lines)),
    ).rejects.toThrow(/--account must be ID:SECRET/);
    await expect(
      startMockBin(['--port', '0', '--account', 'a:x', '--client-id', 'b'], io(lines)),
    ).rejects.toThrow(/--account cannot be combined with --client-id or --secret-key/);
    await expect(
      startMockBin(['--port', '0', '--account', 'a:x', '--account', 'a:y'], io(lines)),
    ).rejects.toThrow(/"a" twice/);
    expect(lines).toEqual([]);
  });
});
