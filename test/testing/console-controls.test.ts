/**
 * The controls the console added (fail, group expiry, redelivery), each over HTTP and in JS, the
 * faults a delivery records, and what the console reads: `GET /__mock/snapshot`, the PDF redirect,
 * and the page itself, served only when asked. The page in a browser is test/browser/.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applicantGroupSchema } from '../../src/schemas/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { applicantGroupBody, call, expectOk, login } from './helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

describe('the controls and reads the console uses', () => {
  let mock: MockServer;
  let receiver: Receiver;
  let token: string;
  const control = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
    call(mock.controlUrl, method, path, body === undefined ? {} : { body });
  const createGroup = async (overrides: Record<string, unknown> = {}) =>
    expectOk(
      await call(mock.url, 'POST', '/api/v1/applicant_groups', {
        token,
        body: applicantGroupBody({ webhook_url: receiver.url, correlation_id: 'lease-1', ...overrides }),
      }),
      applicantGroupSchema,
    );

  beforeEach(async () => {
    mock = await createMockServer({ secretKey: 'whsec-console', now: Date.UTC(2026, 2, 2, 15) });
    receiver = await startReceiver();
    token = await login(mock);
  });
  afterEach(async () => {
    await mock.close();
    await receiver.close();
  });

  it('fail completes an applicant with a failing reason (bank_cannot_connect by default), never finished', async () => {
    const group = await createGroup();
    const [ada, charles] = group.applicants.map((applicant) => applicant.id);
    const failed = await control('POST', `/applicants/${ada}/fail`);
    expect(failed.status).toBe(200);
    expect(failed.json).toMatchObject({ status: 'completed', reasonCompleted: 'bank_cannot_connect' });
    expect((await control('POST', `/applicants/${charles}/fail`, { reason: 'finished' })).json).toMatchObject(
      {
        error: 'invalid_request',
        fields: [{ field: 'reason', message: 'unknown failure reason "finished"' }],
      },
    );
    expect(mock.applicants.get(charles ?? '').status).toBe('not_started');
    mock.applicants.fail(charles ?? '', 'no_income');
    expect(mock.applicants.get(charles ?? '')).toMatchObject({
      status: 'completed',
      reasonCompleted: 'no_income',
    });
    expect(() => mock.applicants.fail(charles ?? '', 'finished' as 'no_income')).toThrow(
      /other than "finished"/,
    );
    await mock.deliveries.settled();
    const completed = receiver.received
      .map((r) => JSON.parse(r.body))
      .filter((e) => e.code === 'VERIFICATION_COMPLETED');
    expect(completed.map((e) => e.reason_completed)).toEqual(['bank_cannot_connect', 'no_income']);
  });

  it('group expiry makes a group expired now, without moving the clock; a completed or unknown group is refused', async () => {
    const group = await createGroup();
    const now = mock.clock.now();
    const expired = await control('POST', `/groups/${group.id}/expire`);
    expect(expired.status).toBe(200);
    expect(expired.json).toMatchObject({ id: group.id, is_expired: true });
    expect(mock.clock.now()).toBe(now);
    expect(mock.groups.applicantGroup(group.id)?.is_expired).toBe(true);

    const done = await createGroup({ correlation_id: 'lease-2' });
    for (const applicant of done.applicants) mock.applicants.complete(applicant.id);
    expect((await control('POST', `/groups/${done.id}/expire`)).status).toBe(409);
    expect(() => mock.groups.expire(done.id)).toThrow(/fully completed group does not expire/);
    expect((await control('POST', `/groups/${done.id}/expire?account=someone-else`)).status).toBe(404);
    expect((await control('POST', '/groups/00000000-0000-4000-8000-000000000000/expire')).status).toBe(404);
  });

  it('redeliver sends a delivery again, the same signed body, as a new delivery naming the one it repeats', async () => {
    const group = await createGroup();
    mock.applicants.start(group.applicants[0]?.id ?? '');
    await mock.deliveries.settled();
    const [first] = mock.deliveries.all();
    expect(first).toMatchObject({ id: 1, delivered: true, attempts: 1 });
    const again = await control('POST', '/deliveries/1/redeliver');
    expect(again.status).toBe(201);
    expect(again.json).toMatchObject({
      id: 2,
      redeliveryOf: 1,
      body: first?.body,
      signature: first?.signature,
    });
    await mock.deliveries.settled();
    expect(receiver.received.map((r) => r.body)).toEqual([first?.body, first?.body]);
    expect(receiver.received[1]?.headers['verification-signature']).toBe(first?.signature);
    expect(mock.deliveries.redeliver(2)).toMatchObject({ id: 3, redeliveryOf: 2 });
    expect((await control('POST', '/deliveries/99/redeliver')).status).toBe(404);
    expect((await control('POST', '/deliveries/one/redeliver')).status).toBe(404);
  });

  it('a delivery records the webhook fault it suffered, and a dropped one can be redelivered', async () => {
    const group = await createGroup();
    mock.webhookFaults.next(1, { drop: true });
    mock.webhookFaults.next(1, { duplicate: true });
    const [ada, charles] = group.applicants.map((applicant) => applicant.id ?? '');
    mock.applicants.start(ada ?? '');
    mock.applicants.start(charles ?? '');
    await mock.deliveries.settled();
    const records = mock.deliveries.all();
    expect(records.map(({ id, dropped, fault, delivered }) => ({ id, dropped, fault, delivered }))).toEqual([
      { id: 1, dropped: true, fault: { drop: true }, delivered: false },
      { id: 2, dropped: undefined, fault: { duplicate: true }, delivered: true },
      { id: 3, dropped: undefined, fault: { duplicate: true }, delivered: true },
    ]);
    expect(receiver.received).toHaveLength(2);
    mock.deliveries.redeliver(1);
    await mock.deliveries.settled();
    expect(receiver.received.map((r) => r.body)).toEqual([
      records[1]?.body,
      records[2]?.body,
      records[0]?.body,
    ]);
  });

  it('the snapshot holds what the console shows: groups, invitations as read, deliveries checked, reports', async () => {
    const group = await createGroup({ correlation_id: 'lease-77' });
    const ada = group.applicants[0]?.id ?? '';
    mock.applicants.complete(ada);
    await mock.deliveries.settled();
    const answer = await control('GET', '/snapshot');
    expect(answer.status).toBe(200);
    const snapshot = answer.json as {
      iso: string;
      accounts: string[];
      groups: {
        id: string;
        correlationId: string;
        property: string;
        status: string;
        members: { id: string; status: string }[];
      }[];
      outbox: { channel: string; to: string; subject: string | null; text: string }[];
      deliveries: { code: string; groupId: string; signatureValid: boolean; delivered: boolean }[];
      reports: {
        applicantId: string | null;
        applicantName: string | null;
        recurringTotal: number | null;
        pdfPath: string;
      }[];
    };
    expect(snapshot.iso).toBe('2026-03-02T15:00:00.000Z');
    expect(snapshot.accounts).toEqual([mock.clientId]);
    expect(snapshot.groups).toMatchObject([
      { id: group.id, correlationId: 'lease-77', property: 'Elm Court, unit 4B', status: 'in_progress' },
    ]);
    expect(snapshot.groups[0]?.members.map((m) => m.status)).toEqual(['completed', 'not_started']);
    const email = snapshot.outbox.find(
      (entry) => entry.channel === 'email' && entry.to === 'ada@example.com',
    );
    expect(email?.subject).toBe(
      'Acme Property Management asks you to verify your income for Elm Court, unit 4B',
    );
    expect(email?.text).toMatch(/^Hi Ada,\n/);
    expect(email?.text).toContain(`https://applicant.verification.test/start/${ada}`);
    expect(snapshot.outbox.find((entry) => entry.channel === 'sms')?.subject).toBeNull();
    expect(snapshot.deliveries.length).toBeGreaterThan(0);
    for (const delivery of snapshot.deliveries)
      expect(delivery).toMatchObject({ groupId: group.id, signatureValid: true, delivered: true });
    const report = snapshot.reports.find((entry) => entry.applicantId === ada);
    expect(report?.applicantName).toBe('Ada Lovelace');
    expect(report?.recurringTotal).toEqual(expect.any(Number));

    const redirect = await call(mock.url, 'GET', report?.pdfPath ?? '');
    expect(redirect.status).toBe(302);
    const pdf = await fetch(redirect.headers.location ?? '');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect((await control('GET', '/reports/00000000-0000-4000-8000-000000000000/pdf')).status).toBe(404);
  });

  it('the page is served only when asked, with a policy that loads nothing from elsewhere', async () => {
    expect(mock.consoleUrl).toBeUndefined();
    const off = await call(mock.url, 'GET', '/__mock/console');
    expect(off.status).toBe(404);
    expect(off.text).toContain('The console is off');

    const on = await createMockServer({ console: true });
    try {
      expect(on.consoleUrl).toBe(`${on.url}/__mock/console`);
      const page = await fetch(on.consoleUrl ?? '');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'; script-src 'self'");
      const html = await page.text();
      // Nothing from outside the machine: every src and href is the mock's own path (or empty data).
      const references = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1]);
      expect(references).toEqual([
        'data:,',
        '/__mock/console/console.css',
        '/__mock/console/console.js',
        '#groups-heading',
      ]);
      const script = await (await fetch(`${on.consoleUrl}/console.js`)).text();
      expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
      expect((await fetch(`${on.consoleUrl}/console.css`)).headers.get('content-type')).toBe(
        'text/css; charset=utf-8',
      );
    } finally {
      await on.close();
    }
  });
});
