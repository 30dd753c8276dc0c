/**
 * The framework adapters against the real frameworks over loopback: Express (with
 * `express.raw`), Fastify (the plugin), and the web-standard `handleWebhook` served by
 * node:http. Each receives the signed deliveries of a real group from the mock server, then a
 * forged, a tampered and an unsigned delivery, which get 400 without reaching the handler.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  expressWebhook,
  fastifyWebhook,
  handleWebhook,
  signWebhook,
  VerificationClient,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
  WebhookVerificationError,
  webhookHandler,
} from '../../src/index.js';
import { createMockServer, type DeliveryRecord, type MockServer } from '../../src/testing/index.js';
import { engineHouseBody } from '../support/bodies.js';
import { expose } from '../support/exposure.js';
import { closeServer, listen } from '../support/http-server.js';

const SECRET = 'whsec-adapters-test';

interface Receiver {
  /** The webhook URL. */
  url: string;
  /** Events handed to `onEvent`, in arrival order. */
  events: WebhookEvent[];
  /** Lines the adapter logged. */
  logged: string[];
  close(): Promise<void>;
}

/** What each framework setup gets: the handler to call, and where misconfiguration is logged. */
interface Setup {
  onEvent: (event: WebhookEvent) => Promise<void>;
  logger: { error: (message: string) => void };
}

/** A node:http request as a web `Request`, its body streamed (not pre-read) into the adapter. */
function toWebRequest(request: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      headers.append(name, item);
    }
  }
  const method = request.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(request.url ?? '/', origin), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(request) as ReadableStream<Uint8Array>) : null,
    duplex: 'half',
  } as RequestInit);
}

async function sendWebResponse(response: Response, target: import('node:http').ServerResponse) {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  target.writeHead(response.status, headers);
  target.end(Buffer.from(await response.arrayBuffer()));
}

type Start = (setup: Setup) => Promise<{ url: string; close(): Promise<void> }>;

const frameworks: Record<string, Start> = {
  express: async ({ onEvent, logger }) => {
    const app = express();
    app.post(
      '/webhooks',
      express.raw({ type: 'application/json' }),
      expressWebhook({ secret: SECRET, onEvent, logger }),
    );
    // The JSON parser on other routes does not reach the webhook route.
    app.use(express.json());
    app.post('/echo', (request, response) => {
      response.json({ parsed: request.body });
    });
    // Errors from onEvent come through next(): answer 500 as Express's default handler would.
    app.use(
      (
        error: unknown,
        _request: express.Request,
        response: express.Response,
        _next: express.NextFunction,
      ) => {
        logger.error(`handler failed: ${error instanceof Error ? error.message : String(error)}`);
        response.status(500).end();
      },
    );
    const server = createServer(app);
    const origin = await listen(server);
    return { url: `${origin}/webhooks`, close: () => closeServer(server) };
  },
  fastify: async ({ onEvent, logger }) => {
    const app: FastifyInstance = Fastify({ logger: false });
    // Set before the plugin is registered, so the plugin's scope inherits it.
    app.setErrorHandler((error, _request, reply) => {
      logger.error(`handler failed: ${error instanceof Error ? error.message : String(error)}`);
      return reply.code(500).send();
    });
    await app.register(fastifyWebhook({ secret: SECRET, onEvent, path: '/webhooks' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/webhooks`, close: () => app.close() };
  },
  'web Request (node:http)': async ({ onEvent, logger }) => {
    const handler = webhookHandler({ secret: SECRET, onEvent });
    let origin = '';
    const server = createServer(async (request, response) => {
      try {
        await sendWebResponse(await handler(toWebRequest(request, origin)), response);
      } catch (error) {
        logger.error(`handler failed: ${error instanceof Error ? error.message : String(error)}`);
        response.writeHead(500).end();
      }
    });
    origin = await listen(server);
    return { url: `${origin}/webhooks`, close: () => closeServer(server) };
  },
};

async function startReceiver(start: Start, failFirst = 0): Promise<Receiver> {
  const events: WebhookEvent[] = [];
  const logged: string[] = [];
  let failures = failFirst;
  const onEvent = async (event: WebhookEvent) => {
    if (failures > 0) {
      failures -= 1;
      throw new Error('handler down for a moment');
    }
    events.push(event);
  };
  const logger = {
    error: (message: string) => {
      expose(message);
      logged.push(message);
    },
  };
  const server = await start({ onEvent, logger });
  return { url: server.url, events, logged, close: server.close };
}

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

async function createGroupAndComplete(client: VerificationClient, mock: MockServer, webhookUrl: string) {
  const group = await client.applicantGroups.create(engineHouseBody(webhookUrl));
  for (const applicant of group.applicants) {
    mock.applicants.start(applicant.id);
    mock.applicants.complete(applicant.id, 'finished');
  }
  await mock.deliveries.settled();
  return group;
}

describe.each(Object.entries(frameworks))('%s webhook adapter', (_name, start) => {
  let mock: MockServer;
  let client: VerificationClient;
  let receiver: Receiver;
  let deliveries: DeliveryRecord[];

  beforeAll(async () => {
    mock = await createMockServer({ seed: 18, secretKey: SECRET });
    client = new VerificationClient({ baseURL: mock.url, clientId: mock.clientId, secretKey: SECRET });
    receiver = await startReceiver(start);
    await createGroupAndComplete(client, mock, receiver.url);
    deliveries = mock.deliveries.all();
  });

  afterAll(async () => {
    await receiver?.close();
    await client?.close();
    await mock?.close();
  });

  it('verifies and hands over every signed delivery of the mock, answering 204', () => {
    // Two applicants: started and completed each, two individual reports and the household one.
    expect(deliveries.map((delivery) => delivery.event.code).sort()).toEqual(
      [
        ...Array(2).fill('VERIFICATION_STARTED'),
        ...Array(2).fill('VERIFICATION_COMPLETED'),
        ...Array(3).fill('REPORT_READY'),
      ].sort(),
    );
    expect(deliveries.map((delivery) => [delivery.status, delivery.attempts])).toEqual(
      deliveries.map(() => [204, 1]),
    );
    expect(receiver.events).toEqual(deliveries.map((delivery) => delivery.event));
    expect(receiver.logged).toEqual([]);
  });

  it('answers 400 to a forged, a tampered and an unsigned delivery without calling the handler', async () => {
    const genuine = deliveries.find((delivery) => delivery.event.code === 'REPORT_READY');
    if (!genuine) throw new Error('no REPORT_READY delivery recorded');
    const before = receiver.events.length;

    const forged = await post(receiver.url, genuine.body, {
      [WEBHOOK_SIGNATURE_HEADER]: signWebhook(genuine.body, 'an-attackers-guess'),
    });
    const tampered = await post(
      receiver.url,
      genuine.body.replace(/"report_id":"[^"]+"/, '"report_id":"00000000-0000-4000-8000-000000000000"'),
      { [WEBHOOK_SIGNATURE_HEADER]: genuine.signature },
    );
    const unsigned = await post(receiver.url, genuine.body);
    const answers = [forged, tampered, unsigned];
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    expect(await Promise.all(answers.map((answer) => answer.json()))).toEqual([
      { error: 'bad_signature' },
      { error: 'bad_signature' },
      { error: 'missing_signature' },
    ]);
    expect(receiver.events).toHaveLength(before);

    // The genuine bytes replayed still verify: deduplicating repeats is the receiver's job.
    expect(
      (await post(receiver.url, genuine.body, { [WEBHOOK_SIGNATURE_HEADER]: genuine.signature })).status,
    ).toBe(204);
    expect(receiver.events.slice(before)).toEqual([genuine.event]);
  });

  it('answers 400 to a correctly signed body that is not an event', async () => {
    const before = receiver.events.length;
    const body = '{"no_code":true}';
    const answer = await post(receiver.url, body, { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, SECRET) });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'invalid_payload' });
    expect(receiver.events).toHaveLength(before);
  });
});

describe.each(Object.entries(frameworks))('%s webhook adapter, handler failures', (_name, start) => {
  let mock: MockServer | undefined;
  let client: VerificationClient | undefined;
  let receiver: Receiver | undefined;

  afterEach(async () => {
    await receiver?.close();
    await client?.close();
    await mock?.close();
  });

  it('answers 500 when onEvent throws, so the mock redelivers and the retry is handled', async () => {
    mock = await createMockServer({
      seed: 19,
      secretKey: SECRET,
      webhookRetry: { attempts: 3, baseDelayMs: 10 },
    });
    client = new VerificationClient({ baseURL: mock.url, clientId: mock.clientId, secretKey: SECRET });
    receiver = await startReceiver(start, 1);
    await createGroupAndComplete(client, mock, receiver.url);
    const deliveries = mock.deliveries.all();
    expect(deliveries[0]?.attempts).toBe(2);
    expect(deliveries.every((delivery) => delivery.delivered && delivery.status === 204)).toBe(true);
    expect(receiver.events).toEqual(deliveries.map((delivery) => delivery.event));
    expect(receiver.logged).toEqual(['handler failed: handler down for a moment']);
  });
});

describe('express adapter misconfigured behind express.json()', () => {
  it('answers 500 and logs how to fix it, without calling the handler', async () => {
    const events: WebhookEvent[] = [];
    const logged: string[] = [];
    const app = express();
    app.use(express.json());
    app.post(
      '/webhooks',
      expressWebhook({
        secret: SECRET,
        onEvent: (event) => {
          events.push(event);
        },
        logger: { error: (message) => logged.push(message) },
      }),
    );
    const server = createServer(app);
    const url = `${await listen(server)}/webhooks`;
    try {
      const body = '{"code":"VERIFICATION_STARTED","verification_id":"7b0a6a3e-2a8e-4bb0-9d7b-2b1f7cf1f8a1"}';
      const answer = await post(url, body, { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, SECRET) });
      expect(answer.status).toBe(500);
      const payload = (await answer.json()) as { error: string; message: string };
      expect(payload.error).toBe('webhook_body_already_parsed');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toBe(payload.message);
      expect(logged[0]).toMatch(/req\.body is an object, already parsed by a body parser/);
      expect(logged[0]).toContain("express.raw({ type: 'application/json' })");
      expect(events).toEqual([]);
    } finally {
      await closeServer(server);
    }
  });

  it('reads the stream itself when no body parser ran', async () => {
    const events: WebhookEvent[] = [];
    const app = express();
    app.post('/webhooks', expressWebhook({ secret: SECRET, onEvent: (event) => void events.push(event) }));
    const server = createServer(app);
    const url = `${await listen(server)}/webhooks`;
    try {
      const body = '{"code":"VERIFICATION_STARTED","verification_id":"7b0a6a3e-2a8e-4bb0-9d7b-2b1f7cf1f8a1"}';
      const answer = await post(url, body, { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, SECRET) });
      expect(answer.status).toBe(204);
      expect(events).toEqual([JSON.parse(body)]);
    } finally {
      await closeServer(server);
    }
  });
});

describe('fastify adapter scope', () => {
  it('keeps JSON parsing for the routes outside the plugin', async () => {
    const app = Fastify({ logger: false });
    await app.register(fastifyWebhook({ secret: SECRET, onEvent: () => {} }));
    app.post('/echo', async (request) => ({ parsed: request.body }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      const answer = await post(`http://127.0.0.1:${port}/echo`, '{"a":1}');
      expect(await answer.json()).toEqual({ parsed: { a: 1 } });
    } finally {
      await app.close();
    }
  });
});

describe('adapters without a secret', () => {
  it('fail at setup, naming the option', () => {
    const options = { secret: undefined, onEvent: () => {} };
    for (const make of [
      () => expressWebhook(options),
      () => fastifyWebhook(options),
      () => webhookHandler(options),
    ]) {
      const error = (() => {
        try {
          make();
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect((error as WebhookVerificationError).reason).toBe('missing_secret');
      expect((error as WebhookVerificationError).message).toMatch(/no secret to verify webhooks with/);
    }
  });

  it('handleWebhook refuses other methods and oversized bodies before verifying', async () => {
    const options = { secret: SECRET, onEvent: () => {}, maxBodyBytes: 16 };
    const get = await handleWebhook(new Request('http://receiver.test/webhooks'), options);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const big = await handleWebhook(
      new Request('http://receiver.test/webhooks', { method: 'POST', body: 'x'.repeat(17) }),
      options,
    );
    expect(big.status).toBe(413);
  });
});
