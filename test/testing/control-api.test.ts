/**
 * The control API routes the scenario table does not walk: re-open, report expiry, deliveries,
 * fault listing and clearing, and that control requests neither take faults nor count in stats.
 * Each route is checked against the JS control it stands for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applicantGroupSchema } from '../../src/schemas/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { applicantGroupBody, call, expectError, expectOk, login } from './helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

describe('mock control API', () => {
  let mock: MockServer;
  let receiver: Receiver;
  let token: string;
  const control = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
    call(mock.controlUrl, method, path, body === undefined ? {} : { body });

  beforeEach(async () => {
    mock = await createMockServer();
    receiver = await startReceiver();
    token = await login(mock);
  });
  afterEach(async () => {
    await mock.close();
    await receiver.close();
  });

  it('re-open, report expiry and deliveries do what the JS controls do', async () => {
    const group = expectOk(
      await call(mock.url, 'POST', '/api/v1/applicant_groups', {
        token,
        body: applicantGroupBody({ webhook_url: receiver.url }),
      }),
      applicantGroupSchema,
    );
    const ada = group.applicants[0]?.id ?? '';
    expect(
      (await control('POST', `/applicants/${ada}/complete`, { reason: 'no_income' })).json,
    ).toMatchObject({
      status: 'completed',
      reasonCompleted: 'no_income',
    });
    expect((await control('POST', `/applicants/${ada}/reopen`)).json).toEqual(mock.applicants.get(ada));
    expect(mock.applicants.get(ada).status).toBe('in_progress');
    expect((await control('GET', `/applicants/${ada}`)).json).toMatchObject({ status: 'in_progress' });
    expect((await control('POST', `/applicants/${ada}/reopen`)).status).toBe(409);

    const [report] = mock.reports.forGroup(group.id);
    expect((await control('POST', `/reports/${report?.id}/expire`)).json).toEqual({ expired: report?.id });
    expect(mock.reports.get(report?.id ?? '')?.expired).toBe(true);
    expectError(await call(mock.url, 'GET', `/api/v1/reports/${report?.id}`, { token }), 410);
    expect((await control('POST', '/reports/nope/expire')).status).toBe(404);

    const deliveries = (await control('GET', '/deliveries?settled=1')).json as {
      event: { code: string };
      delivered: boolean;
    }[];
    expect(deliveries.map((d) => d.event.code)).toEqual([
      'VERIFICATION_STARTED',
      'VERIFICATION_COMPLETED',
      'REPORT_READY',
    ]);
    expect(deliveries.every((d) => d.delivered)).toBe(true);
    expect(receiver.received).toHaveLength(3);
  });

  it('lists and clears faults; control requests take none and are not counted', async () => {
    mock.faults.next(2, { status: 500 }, { path: /^\/api\/v1\/reports\// });
    expect((await control('GET', '/faults')).json).toEqual([
      { fault: { status: 500 }, match: { path: '/^\\/api\\/v1\\/reports\\//' }, remaining: 2 },
    ]);
    await control('POST', '/faults', { count: 3, fault: { latencyMs: 0 } });
    // Control requests pass every pending fault by.
    expect((await control('GET', '/outbox')).status).toBe(200);
    expect(mock.faults.pending().map((p) => p.remaining)).toEqual([2, 3]);
    expect((await control('DELETE', '/faults')).json).toEqual([]);
    expect(mock.faults.pending()).toEqual([]);
    expect(mock.stats.routes()).toEqual({ 'POST /api/v1/tenants/auth': 1 });
    expect((await control('GET', '/nothing-here')).status).toBe(404);
    expect((await control('POST', '/clock/advance', { ms: -1 })).json).toMatchObject({
      fields: [{ field: 'ms' }],
    });
  });
});
