/**
 * Webhook weather: the mock delivers events twice, out of order or not at all (webhook faults),
 * and the receivers (Express, Fastify, the web-standard handler) with a delivery store handle each
 * signed body once, while `applicantGroups.syncEvent` takes every event as a hint, so the state
 * the receiver reaches equals the API's whatever the order.
 */
import { createServer } from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  expressWebhook,
  fastifyWebhook,
  type GroupChange,
  handleWebhook,
  MemoryDeliveryStore,
  MemoryGroupStore,
  signWebhook,
  type VerificationClient,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookDeliveryStore,
  type WebhookEvent,
} from '../../src/index.js';
import type { MockServer } from '../../src/testing/index.js';
import { engineHouseBody } from '../support/bodies.js';
import { closeServer, listen } from '../support/http-server.js';
import { mockWithClient } from '../support/mock-client.js';

let mock: MockServer;
let client: VerificationClient;
mockWithClient((pair) => ({ mock, client } = pair), {
  mock: { seed: 7, webhookRetry: { attempts: 3, baseDelayMs: 5 } },
  reset: true,
});

/** A plain receiver that answers 204 and keeps each raw body, in arrival order. */
async function recorder(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk);
    bodies.push(Buffer.concat(chunks).toString('utf8'));
    response.writeHead(204).end();
  });
  const url = `${await listen(server)}/hooks`;
  return { url, bodies, close: () => closeServer(server) };
}

describe('webhook faults of the mock', () => {
  it('delivers an event twice, holds one back past the next, or drops it', async () => {
    const receiver = await recorder();
    try {
      mock.webhookFaults.next(1, { duplicate: true }, { code: 'VERIFICATION_STARTED' });
      mock.webhookFaults.next(1, { reorder: true }, { code: 'VERIFICATION_COMPLETED' });
      mock.webhookFaults.next(1, { drop: true }, { code: 'REPORT_READY' });
      const group = await client.applicantGroups.create({
        ...engineHouseBody(receiver.url),
        applicants: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }],
      });
      mock.applicants.complete(group.applicants[0]?.id ?? '');
      await mock.deliveries.settled();
      const codes = receiver.bodies.map((body) => (JSON.parse(body) as { code: string }).code);
      // STARTED twice; COMPLETED held back until the next event (the individual REPORT_READY,
      // dropped), then the household REPORT_READY.
      expect(codes).toEqual([
        'VERIFICATION_STARTED',
        'VERIFICATION_STARTED',
        'VERIFICATION_COMPLETED',
        'REPORT_READY',
      ]);
      expect(receiver.bodies[0]).toBe(receiver.bodies[1]);
      const records = mock.deliveries.all();
      expect(records.map((r) => `${r.event.code}${r.dropped ? ' (dropped)' : ''}`)).toEqual([
        'VERIFICATION_STARTED',
        'VERIFICATION_STARTED',
        'REPORT_READY (dropped)',
        'VERIFICATION_COMPLETED',
        'REPORT_READY',
      ]);
      expect(records[2]?.attempts).toBe(0);
      expect(mock.webhookFaults.pending()).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('releases a held event at settled() when no other event follows', async () => {
    const receiver = await recorder();
    try {
      mock.webhookFaults.next(1, { reorder: true }, { code: 'VERIFICATION_STARTED' });
      const group = await client.applicantGroups.create({
        ...engineHouseBody(receiver.url),
        applicants: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }],
      });
      mock.applicants.start(group.applicants[0]?.id ?? '');
      expect(mock.deliveries.all()).toEqual([]);
      await mock.deliveries.settled();
      expect(receiver.bodies.map((b) => (JSON.parse(b) as { code: string }).code)).toEqual([
        'VERIFICATION_STARTED',
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('takes webhook faults through the control API too', async () => {
    const post = await fetch(`${mock.url}/__mock/webhook-faults`, {
      method: 'POST',
      body: JSON.stringify({ count: 2, fault: { drop: true }, match: { code: 'REPORT_READY' } }),
    });
    expect(post.status).toBe(201);
    expect(mock.webhookFaults.pending()).toEqual([
      { fault: { drop: true }, match: { code: 'REPORT_READY' }, remaining: 2 },
    ]);
    const bad = await fetch(`${mock.url}/__mock/webhook-faults`, {
      method: 'POST',
      body: JSON.stringify({ fault: { lose: true } }),
    });
    expect(bad.status).toBe(400);
    await fetch(`${mock.url}/__mock/webhook-faults`, { method: 'DELETE' });
    expect(mock.webhookFaults.pending()).toEqual([]);
  });
});

interface Served {
  url: string;
  close(): Promise<void>;
}

type OnEvent = (event: WebhookEvent) => Promise<void>;

/** The three receivers, each with the same delivery store and handler. */
const receivers: Record<string, (deliveries: WebhookDeliveryStore, onEvent: OnEvent) => Promise<Served>> = {
  async express(deliveries, onEvent) {
    const app = express();
    app.post(
      '/webhooks',
      express.raw({ type: 'application/json' }),
      expressWebhook({ secret: mock.secretKey, deliveries, onEvent }),
    );
    const server = createServer(app);
    return { url: `${await listen(server)}/webhooks`, close: () => closeServer(server) };
  },
  async fastify(deliveries, onEvent) {
    const app = Fastify();
    await app.register(fastifyWebhook({ path: '/webhooks', secret: mock.secretKey, deliveries, onEvent }));
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `${address}/webhooks`, close: () => app.close() };
  },
  async web(deliveries, onEvent) {
    const server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string') headers.set(name, value);
      const answer = await handleWebhook(
        new Request('http://receiver/webhooks', { method: 'POST', headers, body: Buffer.concat(chunks) }),
        { secret: mock.secretKey, deliveries, onEvent },
      ).catch(() => new Response(null, { status: 500 }));
      response.writeHead(answer.status).end();
    });
    return { url: `${await listen(server)}/webhooks`, close: () => closeServer(server) };
  },
};

describe.each(Object.keys(receivers))('%s receiver with a delivery store', (name) => {
  const serve = receivers[name] as (typeof receivers)[string];

  it('handles each signed body once through duplicated, reordered and dropped deliveries; the state equals the API', async () => {
    const groups = new MemoryGroupStore();
    const handled: string[] = [];
    const changes: GroupChange[] = [];
    const onEvent: OnEvent = async (event) => {
      handled.push(JSON.stringify(event));
      for await (const change of client.applicantGroups.syncEvent(event, groups, {
        now: () => mock.clock.now(),
      }))
        changes.push(change);
    };
    const served = await serve(new MemoryDeliveryStore(), onEvent);
    try {
      // One STARTED lost; both completions arriving late; every other event sent twice.
      mock.webhookFaults.next(1, { drop: true }, { code: 'VERIFICATION_STARTED' });
      mock.webhookFaults.next(2, { reorder: true }, { code: 'VERIFICATION_COMPLETED' });
      mock.webhookFaults.next(100, { duplicate: true });
      const group = await client.applicantGroups.create(engineHouseBody(served.url));
      for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
      await mock.deliveries.settled();

      const sent = mock.deliveries.all().filter((r) => !r.dropped);
      const distinct = new Set(sent.map((r) => r.body));
      // Every body twice, but the two held-back completions (one fault per event).
      expect(sent.length).toBe(2 * distinct.size - 2);
      expect(sent.every((r) => r.delivered)).toBe(true);
      // Each distinct body handled exactly once (the JSON the SDK parsed is the body re-serialised).
      expect(handled.sort()).toEqual([...distinct].map((b) => JSON.stringify(JSON.parse(b))).sort());

      // The state reached equals the API's: status, expiry and every report.
      const api = await client.applicantGroups.findById(group.id);
      const reports = await client.applicantGroups.listReports(group.id);
      const snapshot = groups.get(group.id);
      expect(snapshot?.status).toBe(api?.status);
      expect(snapshot?.status).toBe('completed');
      expect(snapshot?.is_expired).toBe(api?.is_expired);
      expect([...(snapshot?.report_ids ?? [])].sort()).toEqual(
        [...reports.individual_reports, ...reports.household_reports].map((r) => r.id).sort(),
      );
      // Every change was yielded once: one added, one report_added per report, no rollback.
      const reportChanges = changes.filter((c) => c.type === 'report_added').map((c) => c.report.id);
      expect(new Set(reportChanges).size).toBe(reportChanges.length);
      expect(reportChanges).toHaveLength(3);
      expect(changes.filter((c) => c.type === 'added')).toHaveLength(1);
      const statuses = changes.flatMap((c) => (c.type === 'status_changed' ? [c.group.status] : []));
      expect(statuses.at(-1) ?? changes.find((c) => c.type === 'added')?.group.status).toBe('completed');
    } finally {
      await served.close();
    }
  });
});

describe('the delivery store', () => {
  function signed(event: object) {
    const body = JSON.stringify(event);
    return { body, signature: signWebhook(body, mock.secretKey) };
  }
  const post = (url: string, { body, signature }: { body: string; signature: string }) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature },
      body,
    });
  const started = { code: 'VERIFICATION_STARTED', verification_id: 'a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b' };

  it('drops concurrent repeats, handles again after a failure, and after the window', async () => {
    let now = 0;
    const deliveries = new MemoryDeliveryStore({ now: () => now });
    const calls: string[] = [];
    let fail = true;
    const served = await receivers.web?.(deliveries, async (event) => {
      calls.push(event.code);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (fail) throw new Error('database down');
    });
    if (!served) throw new Error('no receiver');
    try {
      const delivery = signed(started);
      // A failed handler records nothing: the sender's retry is handled.
      expect((await post(served.url, delivery)).status).toBe(500);
      fail = false;
      // Two copies at once: the second waits for the first and is dropped.
      const answers = await Promise.all([post(served.url, delivery), post(served.url, delivery)]);
      expect(answers.map((a) => a.status)).toEqual([204, 204]);
      expect(calls).toEqual(['VERIFICATION_STARTED', 'VERIFICATION_STARTED']);
      // Within the window: dropped. Past it (a re-opened, re-completed applicant sends the same
      // body again much later): handled.
      now += 5 * 60_000 - 1;
      expect((await post(served.url, delivery)).status).toBe(204);
      expect(calls).toHaveLength(2);
      now += 1;
      expect((await post(served.url, delivery)).status).toBe(204);
      expect(calls).toHaveLength(3);
      // A different body is a different delivery.
      expect(
        (
          await post(
            served.url,
            signed({ ...started, verification_id: 'b3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b' }),
          )
        ).status,
      ).toBe(204);
      expect(calls).toHaveLength(4);
    } finally {
      await served.close();
    }
  });

  it('keeps at most maxEntries deliveries, forgetting the oldest', () => {
    const store = new MemoryDeliveryStore({ now: () => 0, maxEntries: 2 });
    store.add('a', 1000);
    store.add('b', 1000);
    store.add('c', 1000);
    expect([store.has('a'), store.has('b'), store.has('c')]).toEqual([false, true, true]);
  });
});
