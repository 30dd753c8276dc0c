import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applicantGroupSchema, screeningGroupSchema } from '../../src/schemas/index.js';
import { knownWebhookEventSchema, reportReadyEventSchema } from '../../src/schemas/webhooks.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { applicantGroupBody, expectOk, screeningGroupBody, session } from './helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

describe('mock webhooks', () => {
  let mock: MockServer;
  let receiver: Receiver;
  let api: ReturnType<typeof session>;

  beforeEach(async () => {
    mock = await createMockServer({ secretKey: 'whsec-test' });
    receiver = await startReceiver();
    api = session(mock);
  });
  afterEach(async () => {
    await mock.close();
    await receiver.close();
  });

  // A household REPORT_READY names no applicant: the SDK schema with applicant_id left out.
  const householdReady = reportReadyEventSchema.omit({ applicant_id: true }).strict();

  /** Every delivered body: signature checked independently, shape checked with the SDK schema. */
  const events = () =>
    receiver.received
      .filter((r) => r.status < 300)
      .map((r) => {
        const expected = createHmac('sha256', 'whsec-test').update(r.body).digest('hex');
        expect(r.headers['verification-signature']).toBe(expected);
        expect(r.headers['content-type']).toBe('application/json');
        const event: unknown = JSON.parse(r.body);
        const household = householdReady.safeParse(event);
        return household.success ? household.data : knownWebhookEventSchema.parse(event);
      });

  it('sends signed applicant-group events in order as the life cycle moves', async () => {
    const group = expectOk(
      await api('POST', '/api/v1/applicant_groups', {
        body: applicantGroupBody({ webhook_url: receiver.url }),
      }),
      applicantGroupSchema,
    );
    const [ada, charles] = group.applicants;
    const v = (i: number) => group.applicants[i]?.verifications[0]?.id;
    mock.applicants.start(ada?.id ?? '');
    mock.applicants.complete(ada?.id ?? '');
    mock.applicants.complete(charles?.id ?? '', 'no_income');
    mock.applicants.reopen(charles?.id ?? '');
    mock.applicants.complete(charles?.id ?? '');
    await mock.deliveries.settled();

    const reports = mock.reports.forGroup(group.id);
    const report = (i: number) => reports[i]?.id;
    expect(events()).toEqual([
      { code: 'VERIFICATION_STARTED', verification_id: v(0) },
      { code: 'VERIFICATION_COMPLETED', verification_id: v(0), reason_completed: 'finished' },
      {
        code: 'REPORT_READY',
        applicant_group_id: group.id,
        applicant_id: ada?.id,
        report_id: report(0),
        report_type: 'income',
      },
      { code: 'VERIFICATION_STARTED', verification_id: v(1) },
      { code: 'VERIFICATION_COMPLETED', verification_id: v(1), reason_completed: 'no_income' },
      {
        code: 'REPORT_READY',
        applicant_group_id: group.id,
        applicant_id: charles?.id,
        report_id: report(1),
        report_type: 'income',
      },
      // The household report names no applicant.
      { code: 'REPORT_READY', applicant_group_id: group.id, report_id: report(2), report_type: 'income' },
      { code: 'VERIFICATION_COMPLETED', verification_id: v(1), reason_completed: 'finished' },
      {
        code: 'REPORT_READY',
        applicant_group_id: group.id,
        applicant_id: charles?.id,
        report_id: report(3),
        report_type: 'income',
      },
      // The household report names no applicant.
      { code: 'REPORT_READY', applicant_group_id: group.id, report_id: report(4), report_type: 'income' },
    ]);
    expect(reports.map((r) => r.kind)).toEqual([
      'individual',
      'individual',
      'household',
      'individual',
      'household',
    ]);
    const records = mock.deliveries.all();
    expect(records).toHaveLength(10);
    for (const record of records) {
      expect(record).toMatchObject({ url: receiver.url, attempts: 1, status: 204, delivered: true });
      expect(record.signature).toBe(createHmac('sha256', 'whsec-test').update(record.body).digest('hex'));
    }
  });

  it('sends the screening-group events, reason-specific ones included', async () => {
    const body = screeningGroupBody({
      webhook_url: receiver.url,
      applicants: ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => ({
        applicant_first_name: n,
        applicant_last_name: n,
        applicant_email: `${n}@example.com`,
      })),
    });
    const group = expectOk(await api('POST', '/api/v1/screening_groups', { body }), screeningGroupSchema);
    const ids = (group.screenings ?? []).map((s) => s.id);
    const [a, b, c, d, e, f] = ids.map((id) => id);
    const g = group.id;
    mock.applicants.start(a ?? '');
    mock.applicants.complete(a ?? '');
    mock.applicants.complete(b ?? '', 'no_bank');
    mock.applicants.complete(c ?? '', 'share_bank');
    mock.applicants.complete(d ?? '', 'no_income');
    mock.applicants.complete(e ?? '', 'missing_bank', { bankName: 'Tiny Local Bank' });
    mock.applicants.reopen(a ?? '');
    mock.applicants.complete(a ?? '');
    mock.applicants.complete(f ?? '', 'bank_cannot_connect', { bankName: 'Flaky Bank' });
    mock.reports.expire(g);
    await mock.deliveries.settled();

    const s = (id: string | undefined) => ({ screening_group_id: g, screening_id: id });
    expect(events()).toEqual([
      { code: 'BEGIN_SCREENING', ...s(a) },
      { code: 'SCREENING_COMPLETED', ...s(a) },
      { code: 'BEGIN_SCREENING', ...s(b) },
      { code: 'SCREENING_COMPLETED', ...s(b) },
      { code: 'NO_BANK', ...s(b) },
      { code: 'BEGIN_SCREENING', ...s(c) },
      { code: 'SCREENING_COMPLETED', ...s(c) },
      { code: 'SHARE_BANK', ...s(c) },
      { code: 'BEGIN_SCREENING', ...s(d) },
      { code: 'SCREENING_COMPLETED', ...s(d) },
      { code: 'NO_INCOME', ...s(d) },
      { code: 'BEGIN_SCREENING', ...s(e) },
      { code: 'SCREENING_COMPLETED', ...s(e) },
      { code: 'BANK_NOT_SUPPORTED', ...s(e), value: 'Tiny Local Bank' },
      { code: 'RE_OPEN_SCREENING', ...s(a) },
      { code: 'SCREENING_COMPLETED', ...s(a) },
      { code: 'BEGIN_SCREENING', ...s(f) },
      { code: 'SCREENING_COMPLETED', ...s(f) },
      { code: 'BANK_CANNOT_CONNECT', ...s(f), value: 'Flaky Bank' },
      { code: 'SCREENING_GROUP_COMPLETED', screening_group_id: g },
      { code: 'REPORT_EXPIRED', screening_group_id: g },
    ]);
  });

  it('retries with backoff when the receiver fails, and records every attempt', async () => {
    receiver.failNext(2, 503);
    const group = expectOk(
      await api('POST', '/api/v1/applicant_groups', {
        body: applicantGroupBody({ webhook_url: receiver.url }),
      }),
      applicantGroupSchema,
    );
    const started = Date.now();
    mock.applicants.start(group.applicants[0]?.id ?? '');
    await mock.deliveries.settled();
    // 50 ms, then 100 ms of backoff (real timers).
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(receiver.received.map((r) => r.status)).toEqual([503, 503, 204]);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(mock.deliveries.all()[0]).toMatchObject({ attempts: 3, status: 204, delivered: true });
    expect(events()).toHaveLength(1);
  });

  it('gives up after the configured attempts, also on connection errors', async () => {
    await mock.close();
    mock = await createMockServer({ webhookRetry: { attempts: 2, baseDelayMs: 5 } });
    api = session(mock);
    receiver.failNext(5);
    const deadUrl = `${receiver.url.replace(/:\d+\//, ':1/')}`;
    for (const url of [receiver.url, deadUrl]) {
      const group = expectOk(
        await api('POST', '/api/v1/applicant_groups', { body: applicantGroupBody({ webhook_url: url }) }),
        applicantGroupSchema,
      );
      mock.applicants.start(group.applicants[1]?.id ?? '');
    }
    await mock.deliveries.settled();
    const [refused, unreachable] = mock.deliveries.all();
    expect(refused).toMatchObject({ attempts: 2, status: 500, delivered: false });
    expect(unreachable).toMatchObject({ attempts: 2, status: null, delivered: false });
    expect(unreachable?.error).toMatch(/ECONNREFUSED/);
    expect(receiver.received).toHaveLength(2);
  });

  it('sends nothing for groups without webhook_url', async () => {
    const group = expectOk(
      await api('POST', '/api/v1/applicant_groups', { body: applicantGroupBody() }),
      applicantGroupSchema,
    );
    mock.applicants.complete(group.applicants[0]?.id ?? '');
    await mock.deliveries.settled();
    expect(mock.deliveries.all()).toEqual([]);
  });
});
