import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  applicantGroupListResponseSchema,
  applicantGroupReportsSchema,
  applicantGroupSchema,
  reportDetailSchema,
  screeningGroupSchema,
} from '../../src/schemas/index.js';
import { createMockApi } from '../../src/testing/msw.js';
import { applicantGroupBody, errorBodySchema, screeningGroupBody } from './helpers.js';
import { startReceiver } from './receiver.js';

// In-process mode: msw intercepts globalThis.fetch; nothing listens on the base URL.
const mock = createMockApi({ seed: 7 });
const server = setupServer(...mock.handlers);

// The mock's webhook deliveries go through globalThis.fetch too (msw intercepts them): the real
// receiver on loopback is let through, as docs/testing.md lets a suite's own services through.
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request, print) => {
      if (new URL(request.url).hostname !== '127.0.0.1') print.error();
    },
  }),
);
afterEach(() => mock.faults.clear());
afterAll(async () => {
  server.close();
  await mock.close();
});

async function token(): Promise<string> {
  const response = await fetch(`${mock.baseUrl}/api/v1/tenants/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: mock.clientId, secret_key: mock.secretKey }),
  });
  expect(response.status).toBe(204);
  return (response.headers.get('authorization') ?? '').replace(/^Bearer /, '');
}

describe('createMockApi with msw setupServer', () => {
  it('serves the whole API on the base URL through globalThis.fetch', async () => {
    expect(mock.baseUrl).toBe('https://mock.verification.test');
    const auth = { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' };
    const created = await fetch(`${mock.baseUrl}/api/v1/applicant_groups`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify(applicantGroupBody()),
    });
    expect(created.status).toBe(200);
    expect(created.headers.get('x-request-id')).toMatch(/^req_/);
    const group = applicantGroupSchema.parse(await created.json());
    expect(mock.outbox.forGroup(group.id)).toHaveLength(3);

    const listed = applicantGroupListResponseSchema.parse(
      await (
        await fetch(`${mock.baseUrl}/api/v1/applicant_groups?search=lovelace`, { headers: auth })
      ).json(),
    );
    expect(listed.applicant_groups.map((g) => g.id)).toEqual([group.id]);

    mock.applicants.complete(group.applicants[0]?.id ?? '');
    const reports = applicantGroupReportsSchema.parse(
      await (
        await fetch(`${mock.baseUrl}/api/v1/applicant_groups/${group.id}/reports`, { headers: auth })
      ).json(),
    );
    const detail = reportDetailSchema.parse(
      await (
        await fetch(`${mock.baseUrl}/api/v1/reports/${reports.individual_reports[0]?.id}`, { headers: auth })
      ).json(),
    );
    expect(detail.pdf_url.startsWith(`${mock.baseUrl}/files/reports/`)).toBe(true);
    const pdf = await fetch(detail.pdf_url);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-');

    const screening = await fetch(`${mock.baseUrl}/api/v1/screening_groups`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify(screeningGroupBody()),
    });
    screeningGroupSchema.parse(await screening.json());

    const missing = await fetch(`${mock.baseUrl}/api/v1/applicant_groups`);
    expect(missing.status).toBe(401);
    errorBodySchema.parse(await missing.json());
  });

  it('turns socket faults into network errors and keeps status faults', async () => {
    const auth = { authorization: `Bearer ${await token()}` };
    mock.faults.next(1, { reset: 'before' });
    await expect(fetch(`${mock.baseUrl}/api/v1/applicant_groups`, { headers: auth })).rejects.toThrow(
      TypeError,
    );
    mock.faults.next(1, { truncated: true });
    await expect(fetch(`${mock.baseUrl}/api/v1/applicant_groups`, { headers: auth })).rejects.toThrow(
      TypeError,
    );
    mock.faults.next(1, { status: 503, retryAfter: 1 });
    const unavailable = await fetch(`${mock.baseUrl}/api/v1/applicant_groups`, { headers: auth });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('1');
    mock.faults.next(1, { malformedJson: true });
    const broken = await fetch(`${mock.baseUrl}/api/v1/applicant_groups`, { headers: auth });
    await expect(broken.json()).rejects.toThrow(SyntaxError);
  });

  it('delivers webhooks over the real network to a receiver whose host msw lets through', async () => {
    const receiver = await startReceiver();
    try {
      const auth = { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' };
      const created = await fetch(`${mock.baseUrl}/api/v1/applicant_groups`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(applicantGroupBody({ webhook_url: receiver.url })),
      });
      const group = applicantGroupSchema.parse(await created.json());
      mock.applicants.start(group.applicants[0]?.id ?? '');
      await mock.deliveries.settled();
      expect(receiver.received.map((r) => JSON.parse(r.body).code)).toEqual(['VERIFICATION_STARTED']);
    } finally {
      await receiver.close();
    }
  });
});
