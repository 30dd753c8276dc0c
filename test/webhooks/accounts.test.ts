/**
 * One receiver for many accounts: the `secret` option as a function of the request (a landlord id
 * in the path) naming the account, a rotation's two secrets, a delivery signed with one account's
 * secret posted to another's URL refused, an unknown account answered 404, and one delivery store
 * keeping each account's records apart. The web handler, Express and Fastify adapters alike.
 */
import { createServer } from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  expressWebhook,
  fastifyWebhook,
  handleWebhook,
  MemoryDeliveryStore,
  signWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookSecretFor,
  WebhookVerificationError,
  webhookHandler,
} from '../../src/index.js';
import { closeAfterEach, closeServer, listen } from '../support/http-server.js';
import { TEST_SECRET_KEY } from '../support/secrets.js';
import { SAMPLE_EVENTS } from './fixtures.js';

/** Three landlords; `landlord-b` is mid-rotation: its new key first, the old one still accepted. */
const SECRETS: Record<string, readonly string[]> = {
  'landlord-a': [`${TEST_SECRET_KEY}-a`],
  'landlord-b': [`${TEST_SECRET_KEY}-b-new`, `${TEST_SECRET_KEY}-b-old`],
  'landlord-c': [`${TEST_SECRET_KEY}-c`],
};

const BODY = JSON.stringify(SAMPLE_EVENTS.VERIFICATION_COMPLETED);
const track = closeAfterEach();

/** The landlord id at the end of a path such as `/webhooks/landlord-a`. */
function landlordOf(path: string): string {
  return path.split('?')[0]?.split('/').pop() ?? '';
}

/** An async lookup, as a database's would be. */
async function secretFor(path: string): Promise<WebhookSecretFor> {
  await Promise.resolve();
  const landlord = landlordOf(path);
  const secret = SECRETS[landlord];
  return secret && { account: landlord, secret };
}

interface Delivered {
  event: WebhookEvent;
  delivery: WebhookDelivery;
}

/** Posts `body` signed with `key` to `/webhooks/<landlord>`; the answer's status and body. */
type Post = (landlord: string, key: string, body?: string) => Promise<{ status: number; body: string }>;

interface Adapter {
  post: Post;
  delivered: Delivered[];
}

/** Where a receiver's `onEvent` records what it was handed. */
function recorder() {
  const delivered: Delivered[] = [];
  const onEvent = (event: WebhookEvent, _request: unknown, delivery: WebhookDelivery) => {
    delivered.push({ event, delivery });
  };
  return { delivered, onEvent };
}

const adapters: Record<string, (deliveries: MemoryDeliveryStore) => Promise<Adapter>> = {
  async web(deliveries) {
    const { delivered, onEvent } = recorder();
    const handle = webhookHandler({
      secret: (request: Request) => secretFor(new URL(request.url).pathname),
      deliveries,
      onEvent,
    });
    return {
      delivered,
      async post(landlord, key, body = BODY) {
        const response = await handle(
          new Request(`https://receiver.example.com/webhooks/${landlord}`, {
            method: 'POST',
            headers: { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, key) },
            body,
          }),
        );
        return { status: response.status, body: await response.text() };
      },
    };
  },
  async express(deliveries) {
    const { delivered, onEvent } = recorder();
    const app = express();
    app.post(
      '/webhooks/:landlord',
      express.raw({ type: 'application/json' }),
      expressWebhook({
        secret: (request) => secretFor(request.url ?? ''),
        deliveries,
        onEvent,
      }),
    );
    const server = createServer(app);
    const origin = await listen(server);
    track({ close: () => closeServer(server) });
    return {
      delivered,
      async post(landlord, key, body = BODY) {
        const response = await fetch(`${origin}/webhooks/${landlord}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, key) },
          body,
        });
        return { status: response.status, body: await response.text() };
      },
    };
  },
  async fastify(deliveries) {
    const { delivered, onEvent } = recorder();
    const app = Fastify();
    track({ close: () => app.close() });
    await app.register(
      fastifyWebhook({
        path: '/webhooks/:landlord',
        secret: (request) => secretFor(request.url ?? ''),
        deliveries,
        onEvent,
      }),
    );
    return {
      delivered,
      async post(landlord, key, body = BODY) {
        const response = await app.inject({
          method: 'POST',
          url: `/webhooks/${landlord}`,
          headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, key) },
          payload: body,
        });
        return { status: response.statusCode, body: response.payload };
      },
    };
  },
};

const secret = (landlord: string, index = 0) => SECRETS[landlord]?.[index] as string;

describe.each(Object.keys(adapters))('%s receiver for many accounts', (name) => {
  const start = adapters[name] as (deliveries: MemoryDeliveryStore) => Promise<Adapter>;

  it('verifies each landlord’s deliveries with its own secret and names the account to onEvent', async () => {
    const receiver = await start(new MemoryDeliveryStore());
    for (const landlord of ['landlord-a', 'landlord-c']) {
      expect((await receiver.post(landlord, secret(landlord))).status).toBe(204);
    }
    expect(receiver.delivered.map((d) => d.delivery)).toEqual([
      { account: 'landlord-a', secretIndex: 0 },
      { account: 'landlord-c', secretIndex: 0 },
    ]);
    expect(receiver.delivered[0]?.event.code).toBe('VERIFICATION_COMPLETED');
  });

  it('accepts either key of an account mid-rotation, saying which one verified', async () => {
    const receiver = await start(new MemoryDeliveryStore());
    const old = JSON.stringify(SAMPLE_EVENTS.REPORT_READY);
    expect((await receiver.post('landlord-b', secret('landlord-b', 0))).status).toBe(204);
    expect((await receiver.post('landlord-b', secret('landlord-b', 1), old)).status).toBe(204);
    expect(receiver.delivered.map((d) => d.delivery)).toEqual([
      { account: 'landlord-b', secretIndex: 0 },
      { account: 'landlord-b', secretIndex: 1 },
    ]);
  });

  it('refuses a delivery signed with one landlord’s secret posted to another’s URL, and an unknown landlord', async () => {
    const receiver = await start(new MemoryDeliveryStore());
    const crossed = await receiver.post('landlord-c', secret('landlord-a'));
    expect(crossed.status).toBe(400);
    expect(JSON.parse(crossed.body)).toEqual({ error: 'bad_signature' });
    // Neither of a rotating account's keys verifies another's delivery.
    expect((await receiver.post('landlord-b', secret('landlord-c'))).status).toBe(400);
    const unknown = await receiver.post('landlord-z', secret('landlord-a'));
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toEqual({ error: 'unknown_account' });
    expect(receiver.delivered).toEqual([]);
  });

  it('keeps each account’s deliveries apart in one delivery store: a repeat is dropped for its own account only', async () => {
    const deliveries = new MemoryDeliveryStore();
    const receiver = await start(deliveries);
    // The same bytes for two accounts (each signed with its own key) are two deliveries.
    expect((await receiver.post('landlord-a', secret('landlord-a'))).status).toBe(204);
    expect((await receiver.post('landlord-c', secret('landlord-c'))).status).toBe(204);
    expect((await receiver.post('landlord-a', secret('landlord-a'))).status).toBe(204);
    expect(receiver.delivered.map((d) => d.delivery.account)).toEqual(['landlord-a', 'landlord-c']);
  });
});

describe('the secret option', () => {
  const request = (key: string) =>
    new Request('https://receiver.example.com/webhooks', {
      method: 'POST',
      headers: { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(BODY, key) },
      body: BODY,
    });

  it('takes a list of secrets without a function: any verifies, no account named', async () => {
    const seen: WebhookDelivery[] = [];
    const options = {
      secret: [secret('landlord-b', 0), secret('landlord-b', 1)],
      onEvent: (_event: WebhookEvent, _request: Request, delivery: WebhookDelivery) => {
        seen.push(delivery);
      },
    };
    expect((await handleWebhook(request(secret('landlord-b', 1)), options)).status).toBe(204);
    expect((await handleWebhook(request(secret('landlord-a')), options)).status).toBe(400);
    expect(seen).toEqual([{ account: undefined, secretIndex: 1 }]);
  });

  it('a function may return the secret(s) alone; one that names nothing usable is a configuration error', async () => {
    const seen: WebhookDelivery[] = [];
    const onEvent = (_event: WebhookEvent, _request: Request, delivery: WebhookDelivery) => {
      seen.push(delivery);
    };
    const alone = await handleWebhook(request(secret('landlord-a')), {
      secret: () => secret('landlord-a'),
      onEvent,
    });
    expect(alone.status).toBe(204);
    expect(seen).toEqual([{ account: undefined, secretIndex: 0 }]);
    const empty = handleWebhook(request(secret('landlord-a')), { secret: () => [], onEvent });
    await expect(empty).rejects.toThrow(WebhookVerificationError);
    await expect(
      handleWebhook(request(secret('landlord-a')), { secret: () => ({ account: '', secret: 'x' }), onEvent }),
    ).rejects.toThrow(/account that is not a non-empty string/);
    expect(() => webhookHandler({ secret: [], onEvent })).toThrow(/non-empty list/);
    expect(() => webhookHandler({ secret: ['ok', ''], onEvent })).toThrow(WebhookVerificationError);
    expect(() => webhookHandler({ secret: undefined, onEvent })).toThrow(/no secret/);
  });

  it('says which setting is wrong, with the missing_secret reason, and answers 404 for a function that names no account', async () => {
    const onEvent = () => {};
    const thrown = (build: () => unknown): WebhookVerificationError => {
      try {
        build();
      } catch (error) {
        if (error instanceof WebhookVerificationError) return error;
        throw error;
      }
      throw new Error('expected a WebhookVerificationError');
    };
    for (const missing of [null, '']) {
      const error = thrown(() => webhookHandler({ secret: missing as never, onEvent }));
      expect(error.reason).toBe('missing_secret');
      expect(error.message).toContain('no secret to verify webhooks with');
    }
    // Something with a length is still no secret key.
    expect(thrown(() => webhookHandler({ secret: [{ length: 3 }] as never, onEvent })).message).toContain(
      'the secret option is not a secret key',
    );
    const body = request(secret('landlord-a'));
    await expect(handleWebhook(body.clone(), { secret: [] as never, onEvent })).rejects.toThrow(
      'the secret option is not a secret key',
    );
    await expect(handleWebhook(body.clone(), { secret: () => [], onEvent })).rejects.toThrow(
      'what the secret function returned is not a secret key',
    );
    await expect(
      handleWebhook(body.clone(), { secret: () => ({ account: 'landlord-a', secret: [] }), onEvent }),
    ).rejects.toThrow('the secret of account landlord-a is not a secret key');
    await expect(
      handleWebhook(body.clone(), { secret: () => ({ account: 7, secret: 'x' }) as never, onEvent }),
    ).rejects.toThrow(/account that is not a non-empty string/);
    // null, like undefined, names no account: the delivery is answered 404 and onEvent never runs.
    const none = await handleWebhook(body.clone(), { secret: () => null as never, onEvent });
    expect(none.status).toBe(404);
  });
});

describe('MemoryDeliveryStore with accounts', () => {
  it('records a key per account; without an account, as before', () => {
    const store = new MemoryDeliveryStore({ now: () => 0 });
    store.add('k', 1000, 'landlord-a');
    expect([store.has('k', 'landlord-a'), store.has('k', 'landlord-c'), store.has('k')]).toEqual([
      true,
      false,
      false,
    ]);
    store.add('k', 1000);
    expect(store.has('k')).toBe(true);
  });
});
