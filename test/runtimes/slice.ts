/**
 * A slice of the integration suite that runs as a plain script under Node (tsx), Bun 1 and
 * Deno 2, so the SDK's behaviour is checked on each runtime it claims: auth, list, create (with
 * recovery by correlation id, and the no-resend rule without one), retries, timeouts, request
 * validation, reports and the PDF, webhook verification of real deliveries, tracing, and the mock itself.
 * It prints one line per case and closes with "N passed, N failed" (exit code 1 on a failure).
 *
 *   npx tsx test/runtimes/slice.ts
 *   npx -y bun@1 test/runtimes/slice.ts
 *   npx -y deno@2 run -A --sloppy-imports --import-map=test/runtimes/import-map.json test/runtimes/slice.ts
 */
import assert from 'node:assert/strict';
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type AttemptTraceEvent,
  GroupMayHaveBeenCreatedError,
  handleWebhook,
  type OperationTraceContext,
  operationChannelName,
  RequestValidationError,
  signWebhook,
  TRACE_STEP_CHANNELS,
  unwrapWebhook,
  VerificationClient,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
} from 'applicant-verification';
import { createMockServer, type MockServer } from 'applicant-verification/testing';

const runtime =
  'Deno' in globalThis
    ? `Deno ${(globalThis as { Deno?: { version?: { deno?: string } } }).Deno?.version?.deno ?? ''}`
    : typeof process.versions.bun === 'string'
      ? `Bun ${process.versions.bun}`
      : `Node ${process.version}`;

const GROUPS = '/api/v1/applicant_groups';
const AUTH = 'POST /api/v1/tenants/auth';
const CREATE = `POST ${GROUPS}`;

const household = (key: string, webhookUrl?: string) => ({
  applicants: [
    { first_name: 'Ana', last_name: 'Silva', email: `ana.${key}@example.com`, phone_number: '+14155550123' },
    { first_name: 'Ben', last_name: 'Okafor', email: `ben.${key}@example.com` },
  ],
  property: {
    name: 'Maple Court',
    street_address: '77 Maple Ave',
    city: 'Denver',
    state: 'Colorado',
    zip_code: '80203',
  },
  decision_maker_display_name: 'Maple Court Leasing',
  monthly_rent: 1950,
  ...(webhookUrl ? { webhook_url: webhookUrl } : {}),
});

interface World {
  mock: MockServer;
  client: VerificationClient;
}

async function world(options: { timeout?: number; maxRetries?: number } = {}): Promise<World> {
  const mock = await createMockServer({ seed: 18, webhookRetry: { attempts: 2, baseDelayMs: 10 } });
  const client = new VerificationClient({
    baseURL: mock.url,
    clientId: mock.clientId,
    secretKey: mock.secretKey,
    logLevel: 'error',
    ...options,
  });
  return { mock, client };
}

async function within(run: (world: World) => Promise<void>, options?: Parameters<typeof world>[0]) {
  const current = await world(options);
  try {
    await run(current);
  } finally {
    await current.client.close();
    await current.mock.close();
  }
}

const cases: Record<string, () => Promise<void>> = {
  'auth: one token exchange shared by concurrent calls': () =>
    within(async ({ mock, client }) => {
      const token = await client.auth.getToken();
      assert.equal(token.split('.').length, 3, 'a JWT');
      await Promise.all([
        client.applicantGroups.list(),
        client.applicantGroups.list(),
        client.screeningGroups.list(),
      ]);
      assert.equal(mock.stats.count(AUTH), 1);
    }),

  'list: pages, filters and for await': () =>
    within(async ({ mock, client }) => {
      for (const key of ['a', 'b', 'c'])
        await client.applicantGroups.create({ ...household(key), correlation_id: `slice-${key}` });
      const page = await client.applicantGroups.list();
      assert.equal(page.totalCount, 3);
      const found = await client.applicantGroups.list({ correlation_id: 'slice-b' });
      assert.deepEqual(
        found.items.map((group) => group.correlation_id),
        ['slice-b'],
      );
      let walked = 0;
      for await (const _group of client.applicantGroups.list()) walked++;
      assert.equal(walked, 3);
      assert.equal(mock.stats.count(CREATE), 3);
    }),

  'create: a reset after the server acted is recovered by correlation id, never resent': () =>
    within(async ({ mock, client }) => {
      mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: GROUPS });
      const group = await client.applicantGroups.create({
        ...household('r'),
        correlation_id: 'slice-recover',
      });
      assert.equal(group.correlation_id, 'slice-recover');
      assert.equal(mock.stats.count(CREATE), 1);
      assert.equal(mock.groups.applicant().length, 1);
      assert.equal(mock.outbox.forGroup(group.id).length, 3, 'two emails and one text, once');
    }),

  'create: without a correlation id an ambiguous failure throws and is not resent': () =>
    within(async ({ mock, client }) => {
      mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: GROUPS });
      await assert.rejects(client.applicantGroups.create(household('n')), GroupMayHaveBeenCreatedError);
      assert.equal(mock.stats.count(CREATE), 1);
    }),

  'create: a refused connection is known as not sent (no "may have been created")': async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = new VerificationClient({
      baseURL: `http://127.0.0.1:${port}`,
      accessToken: 'test-token',
      maxRetries: 0,
      logLevel: 'off',
    });
    try {
      const error = await client.applicantGroups.create(household('x')).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof APIConnectionError, `got ${String(error)}`);
      assert.ok(!(error instanceof GroupMayHaveBeenCreatedError));
      assert.equal(error.requestNotSent, true);
    } finally {
      await client.close();
    }
  },

  'retries: a read retried after 503, a create after 429': () =>
    within(async ({ mock, client }) => {
      mock.faults.next(1, { status: 503, retryAfterMs: 10 }, { method: 'GET', path: GROUPS });
      await client.applicantGroups.list();
      assert.equal(mock.stats.count(`GET ${GROUPS}`), 2);
      mock.faults.next(1, { status: 429, retryAfterMs: 10 }, { method: 'POST', path: GROUPS });
      await client.applicantGroups.create(household('429'));
      assert.equal(mock.stats.count(CREATE), 2);
      assert.equal(mock.groups.applicant().length, 1);
    }),

  'timeouts: a slow answer becomes APIConnectionTimeoutError': () =>
    within(
      async ({ mock, client }) => {
        await client.auth.getToken();
        mock.faults.next(1, { latencyMs: 1_000 }, { method: 'GET', path: GROUPS });
        await assert.rejects(client.applicantGroups.list(), APIConnectionTimeoutError);
      },
      { timeout: 150, maxRetries: 0 },
    ),

  'validation: a bad body is refused before any request': () =>
    within(async ({ mock, client }) => {
      const good = household('v');
      const [first, second] = good.applicants;
      assert.ok(first && second);
      const badEmail = { ...good, applicants: [{ ...first, email: 'not-an-email' }, second] };
      await assert.rejects(client.applicantGroups.create(badEmail), RequestValidationError);
      await assert.rejects(
        client.applicantGroups.create({ ...good, monthly_rent: -5 }),
        RequestValidationError,
      );
      assert.equal(mock.stats.count(), 0);
    }),

  'reports: completed applicants give reports and a PDF': () =>
    within(async ({ mock, client }) => {
      const group = await client.applicantGroups.create(household('p'));
      for (const applicant of group.applicants) mock.applicants.complete(applicant.id, 'finished');
      const reports = await client.applicantGroups.listReports(group.id);
      assert.equal(reports.individual_reports.length, 2);
      const summary = reports.household_reports[0];
      assert.ok(summary, 'a household report');
      const report = await client.reports.retrieve(summary.id);
      assert.equal(report.report_id, summary.id);
      const pdf = await client.reports.downloadPdf(report);
      assert.equal(new TextDecoder().decode(pdf.slice(0, 5)), '%PDF-');
    }),

  'webhooks: the mock delivers signed events, the receiver verifies them, forgeries get 400': () =>
    within(async ({ mock, client }) => {
      const events: WebhookEvent[] = [];
      const receiver = createServer(async (request, response) => {
        const chunks: Uint8Array[] = [];
        for await (const chunk of request) chunks.push(chunk as Uint8Array);
        const raw = Buffer.concat(chunks);
        try {
          events.push(unwrapWebhook(raw, request.headers, mock.secretKey));
          response.writeHead(204).end();
        } catch {
          response.writeHead(400).end();
        }
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
        const group = await client.applicantGroups.create(household('w', url));
        for (const applicant of group.applicants) mock.applicants.complete(applicant.id, 'finished');
        await mock.deliveries.settled();
        const deliveries = mock.deliveries.all();
        assert.ok(deliveries.length >= 5, `deliveries: ${deliveries.length}`);
        assert.deepEqual(
          deliveries.map((delivery) => delivery.status),
          deliveries.map(() => 204),
        );
        assert.deepEqual(
          events,
          deliveries.map((delivery) => delivery.event),
        );

        // The web-standard adapter on the same bytes: genuine 204, tampered and forged 400.
        const genuine = deliveries[0];
        assert.ok(genuine);
        const seen: WebhookEvent[] = [];
        const deliver = (body: string, signature: string) =>
          handleWebhook(
            new Request(url, { method: 'POST', body, headers: { [WEBHOOK_SIGNATURE_HEADER]: signature } }),
            { secret: mock.secretKey, onEvent: (event) => void seen.push(event) },
          );
        assert.equal((await deliver(genuine.body, genuine.signature)).status, 204);
        assert.equal((await deliver(`${genuine.body} `, genuine.signature)).status, 400);
        assert.equal((await deliver(genuine.body, signWebhook(genuine.body, 'forged'))).status, 400);
        assert.deepEqual(seen, [genuine.event]);
      } finally {
        receiver.closeAllConnections();
        await new Promise<void>((resolve) => receiver.close(() => resolve()));
      }
    }),

  'tracing: a create on its diagnostics_channel, attempts on the step channel': () =>
    within(async ({ mock, client }) => {
      await client.auth.getToken();
      const seen: string[] = [];
      const record = (kind: string) => (message: unknown) => {
        const context = message as OperationTraceContext;
        seen.push(`${kind} ${context.attempts}`);
      };
      const handlers = {
        start: record('start'),
        end: record('end'),
        asyncStart: record('asyncStart'),
        asyncEnd: record('asyncEnd'),
        error: record('error'),
      };
      const channel = tracingChannel(operationChannelName('applicantGroups.create'));
      const onAttempt = (message: unknown) => seen.push(`attempt ${(message as AttemptTraceEvent).status}`);
      channel.subscribe(handlers);
      subscribe(TRACE_STEP_CHANNELS.attempt, onAttempt);
      try {
        mock.faults.next(1, { status: 429, retryAfterMs: 10 }, { method: 'POST', path: GROUPS });
        await client.applicantGroups.create(household('t'));
      } finally {
        channel.unsubscribe(handlers);
        unsubscribe(TRACE_STEP_CHANNELS.attempt, onAttempt);
      }
      // A 429 was refused before processing: resent without a lookup (no correlation_id here).
      assert.deepEqual(seen, [
        'start 0',
        'end 0',
        'attempt 429',
        'attempt 200',
        'asyncStart 2',
        'asyncEnd 2',
      ]);
    }),

  'mock: faults, stats, the clock and the outbox': () =>
    within(async ({ mock, client }) => {
      const group = await client.applicantGroups.create(household('m'));
      assert.equal(mock.outbox.count(), 3);
      mock.clock.advance(15 * 24 * 60 * 60 * 1000);
      const [expired] = (await client.applicantGroups.list()).items;
      assert.equal(expired?.id, group.id);
      assert.equal(expired?.is_expired, true);
      assert.deepEqual(mock.faults.pending(), []);
      assert.ok(mock.stats.count() >= 3);
    }),
};

let passed = 0;
let failed = 0;
console.log(`SDK slice on ${runtime}`);
for (const [name, run] of Object.entries(cases)) {
  try {
    await run();
    passed++;
    console.log(`ok - ${name}`);
  } catch (error) {
    failed++;
    console.log(
      `not ok - ${name}\n  ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    );
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
