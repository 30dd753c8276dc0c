/**
 * Webhook deliveries under msw (docs/testing.md, "Webhooks under msw"): the msw entry's mock sends
 * them through `globalThis.fetch`, read at each attempt, so an msw handler is the receiver and
 * nothing goes to the network. The receiver's host, `receiver.example.test`, resolves nowhere: a
 * delivery that left the process would fail with ENOTFOUND instead of reaching the handler.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApplicantGroup,
  type ApplicantGroupCreateParams,
  unwrapWebhook,
  VerificationClient,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookVerificationError,
} from '../../src/index.js';
import { createMockApi as createInProcessMockApi } from '../../src/testing/index.js';
import { createMockApi } from '../../src/testing/msw.js';

const RECEIVER = 'https://receiver.example.test/hooks';

interface Delivery {
  body: string;
  signature: string | null;
  userAgent: string | null;
}

// Built before msw listens: the mock must read globalThis.fetch when it delivers, not now.
const mock = createMockApi({ seed: 11, webhookRetry: { attempts: 3, baseDelayMs: 1 } });
const received: Delivery[] = [];
let failuresLeft = 0;
const server = setupServer(
  ...mock.handlers,
  http.post(RECEIVER, async ({ request }) => {
    received.push({
      body: await request.text(),
      signature: request.headers.get(WEBHOOK_SIGNATURE_HEADER),
      userAgent: request.headers.get('user-agent'),
    });
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      return new HttpResponse(null, { status: 503 });
    }
    return new HttpResponse(null, { status: 204 });
  }),
);
const unhandled: string[] = [];
server.events.on('request:unhandled', ({ request }) => {
  unhandled.push(`${request.method} ${request.url}`);
});
const client = new VerificationClient({
  baseURL: mock.baseUrl,
  clientId: mock.clientId,
  secretKey: mock.secretKey,
  fetch: globalThis.fetch,
  logLevel: 'off',
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  mock.reset();
  mock.deliveries.clear();
  received.length = 0;
  unhandled.length = 0;
  failuresLeft = 0;
});
afterAll(async () => {
  await client.close();
  server.close();
  await mock.close();
});

/** A group body whose events go to {@link RECEIVER}. */
function bodyFor(correlationId: string): ApplicantGroupCreateParams {
  return {
    applicants: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }],
    property: {
      name: 'Elm Court',
      street_address: '12 Elm Street',
      city: 'Springfield',
      state: 'Illinois',
      zip_code: '62701',
    },
    decision_maker_display_name: 'Acme',
    monthly_rent: 1850,
    correlation_id: correlationId,
    webhook_url: RECEIVER,
  };
}

function groupWithReceiver(correlationId: string): Promise<ApplicantGroup> {
  return client.applicantGroups.create(bodyFor(correlationId));
}

describe('webhook deliveries under msw', () => {
  it('reach an msw handler, signed with the account secret, and nothing else is requested', async () => {
    const group = await groupWithReceiver('msw-hooks-1');
    const applicant = group.applicants[0];
    if (!applicant) throw new Error('the group has no applicant');
    mock.applicants.start(applicant.id);
    await mock.deliveries.settled();

    expect(received).toHaveLength(1);
    const [delivery] = received;
    if (!delivery) throw new Error('no delivery');
    expect(delivery.userAgent).toBe('applicant-verification-mock');
    const event = unwrapWebhook(
      delivery.body,
      { [WEBHOOK_SIGNATURE_HEADER]: delivery.signature },
      mock.secretKey,
    );
    expect(event).toEqual({
      code: 'VERIFICATION_STARTED',
      verification_id: applicant.verifications[0]?.id,
    });
    expect(() =>
      unwrapWebhook(delivery.body, { [WEBHOOK_SIGNATURE_HEADER]: delivery.signature }, 'another-secret'),
    ).toThrow(WebhookVerificationError);

    const records = mock.deliveries.all();
    expect(
      records.map(({ url, status, delivered, attempts, error }) => ({
        url,
        status,
        delivered,
        attempts,
        error,
      })),
    ).toEqual([{ url: RECEIVER, status: 204, delivered: true, attempts: 1, error: undefined }]);
    expect(records[0]?.body).toBe(delivery.body);
    expect(unhandled).toEqual([]);
  });

  it('retries through msw too: a receiver that answers 503 twice gets the same signed body three times', async () => {
    const group = await groupWithReceiver('msw-hooks-2');
    failuresLeft = 2;
    mock.applicants.start(group.applicants[0]?.id ?? '');
    await mock.deliveries.settled();

    expect(received).toHaveLength(3);
    expect(new Set(received.map((delivery) => `${delivery.signature} ${delivery.body}`)).size).toBe(1);
    expect(
      mock.deliveries.all().map(({ status, delivered, attempts }) => ({ status, delivered, attempts })),
    ).toEqual([{ status: 204, delivered: true, attempts: 3 }]);
    expect(unhandled).toEqual([]);
  });
});

describe('webhookFetch on the in-process mock (no msw)', () => {
  it('hands every attempt to the given function: an in-process receiver gets the signed event', async () => {
    const requests: Request[] = [];
    const inProcess = createInProcessMockApi({
      seed: 12,
      webhookFetch: async (input, init) => {
        requests.push(new Request(input, init));
        return new Response(null, { status: 202 });
      },
    });
    try {
      const own = inProcess.client({ logLevel: 'off' });
      const group = await own.applicantGroups.create(bodyFor('in-process-hooks'));
      inProcess.applicants.start(group.applicants[0]?.id ?? '');
      await inProcess.deliveries.settled();

      expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([`POST ${RECEIVER}`]);
      const [request] = requests;
      if (!request) throw new Error('no request');
      expect(request.redirect).toBe('manual');
      const event = unwrapWebhook(await request.text(), request.headers, inProcess.secretKey);
      expect(event.code).toBe('VERIFICATION_STARTED');
      expect(inProcess.deliveries.all().map(({ status, delivered }) => ({ status, delivered }))).toEqual([
        { status: 202, delivered: true },
      ]);
    } finally {
      await inProcess.close();
    }
  });
});
