/**
 * Per-account isolation of the mock's own controls, over loopback: invitations name the account
 * that created the group, per-object controls (JS and control API) given an `account` find only
 * that account's objects, PDF links are signed with the owning account's key, and the request log
 * keeps the `x-mock-tag` label a test sets.
 */
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applicantGroupSchema, reportDetailSchema, screeningGroupSchema } from '../../src/schemas/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
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

const ALPHA = { clientId: 'landlord-alpha', secretKey: 'alpha-secret' };
const BETA = { clientId: 'landlord-beta', secretKey: 'beta-secret' };

// A PDF link to `path` (the link's own path) signed, as the mock signs, with `secretKey`.
const signedWith = (secretKey: string, link: string): string => {
  const url = new URL(link);
  const file = url.pathname.split('/').pop() ?? '';
  const expires = url.searchParams.get('expires') ?? '';
  const sig = createHmac('sha256', `pdf-link:${secretKey}`)
    .update(`${file.replace(/\.pdf$/, '')}:${expires}`)
    .digest('hex');
  url.searchParams.set('sig', sig);
  return url.toString();
};

describe('per-account controls of a mock with two accounts', () => {
  let mock: MockServer;
  let alpha: ReturnType<typeof session>;
  let beta: ReturnType<typeof session>;
  const control = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    call(mock.controlUrl, method, path, body === undefined ? {} : { body });

  beforeEach(async () => {
    mock = await createMockServer({ accounts: [ALPHA, BETA], seed: 11 });
    alpha = session({ url: mock.url, clock: mock.clock, ...ALPHA });
    beta = session({ url: mock.url, clock: mock.clock, ...BETA });
  });
  afterEach(async () => {
    await mock.close();
  });

  const createGroups = async () => {
    const a = expectOk(
      await alpha('POST', '/api/v1/applicant_groups', { body: applicantGroupBody() }),
      applicantGroupSchema,
    );
    const b = expectOk(
      await beta('POST', '/api/v1/applicant_groups', { body: applicantGroupBody() }),
      applicantGroupSchema,
    );
    return { a, b };
  };

  it('records the creating account on every invitation and filters the outbox by account', async () => {
    const { a, b } = await createGroups();
    expectOk(
      await beta('POST', '/api/v1/screening_groups', { body: screeningGroupBody() }),
      screeningGroupSchema,
    );

    const all = mock.outbox.all();
    expect(all.length).toBeGreaterThan(2);
    expect(all.filter((entry) => entry.groupId === a.id).map((entry) => entry.account)).toEqual(
      mock.outbox.forGroup(a.id).map(() => ALPHA.clientId),
    );
    expect(new Set(mock.outbox.all({ account: ALPHA.clientId }).map((entry) => entry.groupId))).toEqual(
      new Set([a.id]),
    );
    const betaEntries = mock.outbox.all({ account: BETA.clientId });
    expect(betaEntries.every((entry) => entry.account === BETA.clientId)).toBe(true);
    expect(betaEntries.map((entry) => entry.family)).toContain('screening_group');
    expect(betaEntries.length + mock.outbox.all({ account: ALPHA.clientId }).length).toBe(all.length);
    // Another account's group has no entries for the account asked about.
    expect(mock.outbox.forGroup(b.id, { account: ALPHA.clientId })).toEqual([]);
    expect(mock.outbox.forGroup(b.id, { account: BETA.clientId })).toEqual(mock.outbox.forGroup(b.id));

    // The control API answers the same.
    expect((await control('GET', `/outbox?account=${BETA.clientId}`)).json).toEqual(betaEntries);
    expect((await control('GET', `/outbox?group_id=${b.id}&account=${ALPHA.clientId}`)).json).toEqual([]);
    expect((await control('GET', '/outbox')).json).toEqual(all);
  });

  it("finds only the named account's applicants with complete, reopen, start and get", async () => {
    const { a } = await createGroups();
    const ada = a.applicants[0]?.id ?? '';

    // JS: another account's id throws exactly as an unknown one, and changes nothing.
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof Error
          ? error.message.replaceAll(ada, '<id>').replaceAll(UNKNOWN_ID, '<id>')
          : '';
      }
      return 'no error';
    };
    const unknown = refusal(() => mock.applicants.complete(UNKNOWN_ID));
    expect(unknown).toMatch(/^No applicant or screening with id/);
    expect(refusal(() => mock.applicants.complete(ada, 'finished', { account: BETA.clientId }))).toBe(
      unknown,
    );
    expect(refusal(() => mock.applicants.start(ada, { account: BETA.clientId }))).toBe(unknown);
    expect(refusal(() => mock.applicants.get(ada, { account: BETA.clientId }))).toBe(unknown);
    expect(mock.applicants.get(ada).status).toBe('not_started');
    expect(mock.reports.all()).toEqual([]);

    // The owner's account finds it.
    mock.applicants.complete(ada, 'finished', { account: ALPHA.clientId });
    expect(mock.applicants.get(ada, { account: ALPHA.clientId }).status).toBe('completed');
    expect(refusal(() => mock.applicants.reopen(ada, { account: BETA.clientId }))).toBe(unknown);
    expect(mock.applicants.get(ada).status).toBe('completed');

    // Control API: `?account=` narrows; another account's id is the unknown id's 404.
    for (const step of ['start', 'complete', 'reopen']) {
      const foreign = await control('POST', `/applicants/${ada}/${step}?account=${BETA.clientId}`);
      const missing = await control('POST', `/applicants/${UNKNOWN_ID}/${step}?account=${BETA.clientId}`);
      expect(foreign.status).toBe(404);
      expect(sameAs(foreign, ada)).toEqual(sameAs(missing, UNKNOWN_ID));
    }
    expect((await control('GET', `/applicants/${ada}?account=${BETA.clientId}`)).status).toBe(404);
    expect(mock.applicants.get(ada).status).toBe('completed');
    const reopened = await control('POST', `/applicants/${ada}/reopen?account=${ALPHA.clientId}`);
    expect(reopened.status).toBe(200);
    expect(reopened.json).toMatchObject({ status: 'in_progress', groupId: a.id });
    const completed = await control('POST', `/applicants/${ada}/complete?account=${ALPHA.clientId}`, {
      reason: 'no_income',
    });
    expect(completed.json).toMatchObject({ status: 'completed', reasonCompleted: 'no_income' });
  });

  it("expires and looks up only the named account's reports and groups", async () => {
    const { a, b } = await createGroups();
    mock.applicants.complete(a.applicants[0]?.id ?? '');
    const [report] = mock.reports.forGroup(a.id);
    if (!report) throw new Error('no report');

    expect(mock.reports.get(report.id, { account: BETA.clientId })).toBeUndefined();
    expect(mock.reports.get(report.id, { account: ALPHA.clientId })?.id).toBe(report.id);
    expect(mock.reports.forGroup(a.id, { account: BETA.clientId })).toEqual([]);
    expect(mock.groups.applicantGroup(a.id, { account: BETA.clientId })).toBeUndefined();
    expect(mock.groups.applicantGroup(b.id, { account: BETA.clientId })?.id).toBe(b.id);
    expect(() => mock.reports.expire(report.id, { account: BETA.clientId })).toThrow(
      `No report or screening group with id ${report.id}`,
    );
    const foreign = await control('POST', `/reports/${report.id}/expire?account=${BETA.clientId}`);
    const missing = await control('POST', `/reports/${UNKNOWN_ID}/expire?account=${BETA.clientId}`);
    expect(foreign.status).toBe(404);
    expect(sameAs(foreign, report.id)).toEqual(sameAs(missing, UNKNOWN_ID));
    expect(mock.reports.get(report.id)?.expired).toBe(false);
    expect((await alpha('GET', `/api/v1/reports/${report.id}`)).status).toBe(200);

    expect((await control('POST', `/reports/${report.id}/expire?account=${ALPHA.clientId}`)).status).toBe(
      200,
    );
    expect(mock.reports.get(report.id)?.expired).toBe(true);
    expectError(await alpha('GET', `/api/v1/reports/${report.id}`), 410);
  });

  it("signs PDF links with the owning account's key: a link signed under another account's key is refused", async () => {
    const { a } = await createGroups();
    mock.applicants.complete(a.applicants[0]?.id ?? '');
    const [report] = mock.reports.forGroup(a.id);
    if (!report) throw new Error('no report');
    const detail = expectOk(await alpha('GET', `/api/v1/reports/${report.id}`), reportDetailSchema);
    const link = detail.pdf_url;

    // The minted link opens, and is exactly the link signed with the owner's key.
    expect(signedWith(ALPHA.secretKey, link)).toBe(new URL(link).toString());
    const opened = await call(mock.url, 'GET', link);
    expect(opened.status).toBe(200);
    expect(Buffer.from(opened.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    // The same link signed with the other account's key does not verify.
    const forged = await call(mock.url, 'GET', signedWith(BETA.secretKey, link));
    expect(expectError(forged, 403).message).toBe('Invalid PDF link signature');

    // Screening-group report links too.
    const screening = expectOk(
      await beta('POST', '/api/v1/screening_groups', { body: screeningGroupBody() }),
      screeningGroupSchema,
    );
    mock.applicants.complete(mock.state.screeningGroups[0]?.screenings[0]?.id ?? '');
    const { url } = (await beta('GET', `/api/v1/screening_groups/${screening.id}/report`)).json as {
      url: string;
    };
    expect(signedWith(BETA.secretKey, url)).toBe(new URL(url).toString());
    expect((await call(mock.url, 'GET', url)).status).toBe(200);
    expectError(await call(mock.url, 'GET', signedWith(ALPHA.secretKey, url)), 403);
  });

  it('keeps the x-mock-tag header of each request in the log, and nothing when there is none', async () => {
    await alpha('GET', '/api/v1/applicant_groups', { headers: { 'x-mock-tag': 'meant:alpha' } });
    await beta('GET', '/api/v1/applicant_groups');
    const lists = mock.stats.log().filter((entry) => entry.route === 'GET /api/v1/applicant_groups');
    expect(lists.map((entry) => [entry.account, entry.tag])).toEqual([
      [ALPHA.clientId, 'meant:alpha'],
      [BETA.clientId, undefined],
    ]);
    expect('tag' in (lists[1] ?? {})).toBe(false);
  });
});
