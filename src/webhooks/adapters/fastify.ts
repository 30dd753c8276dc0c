/**
 * The Fastify webhook adapter: a plugin that adds the webhook route in its own encapsulated
 * scope, where request bodies are kept as raw bytes (a `parseAs: 'buffer'` content-type parser
 * replaces the JSON one). Routes registered outside the plugin keep Fastify's JSON parsing. Typed
 * structurally (the few Fastify methods it calls), so the SDK needs no Fastify dependency.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { receiveDelivery, type WebhookHandlerOptions } from '../receive.js';
import { checkWebhookSecretOption } from '../secrets.js';
import { DEFAULT_WEBHOOK_MAX_BODY_BYTES } from './web.js';

/** The request as the route reads it. */
export interface FastifyWebhookRequest {
  /** Request headers, as Node gives them. */
  headers: IncomingHttpHeaders;
  /** The body: a Buffer in the plugin's scope. */
  body: unknown;
  /** The route's parameters (`/webhooks/:landlord`), for a secret function that reads them. */
  params?: unknown;
  /** The request URL (path and query). */
  url?: string;
}

/** The reply methods the route uses. */
export interface FastifyWebhookReply {
  /** Sets the status. */
  code(statusCode: number): FastifyWebhookReply;
  /** Sends the reply. */
  send(payload?: unknown): FastifyWebhookReply;
}

/** The Fastify instance methods the plugin uses (a real `FastifyInstance` has them all). */
export interface FastifyWebhookHost {
  /** Drops a content-type parser in this scope. */
  removeContentTypeParser(contentType: string | string[]): void;
  /** Adds a content-type parser in this scope. */
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer'; bodyLimit?: number },
    parser: (request: unknown, body: Buffer, done: (error: Error | null, body?: Buffer) => void) => void,
  ): void;
  /** Adds a POST route. */
  post(
    path: string,
    handler: (request: FastifyWebhookRequest, reply: FastifyWebhookReply) => unknown,
  ): unknown;
}

/** Options of {@link fastifyWebhook}. */
export interface FastifyWebhookOptions extends WebhookHandlerOptions<FastifyWebhookRequest> {
  /** Route path inside the plugin's prefix. Default `/webhooks`. */
  path?: string;
  /** Bodies larger than this many bytes get Fastify's 413. Default 1 MiB. */
  maxBodyBytes?: number;
}

const ADAPTER = 'fastifyWebhook';

/**
 * A Fastify plugin serving the webhook route:
 *
 * ```ts
 * await app.register(fastifyWebhook({
 *   path: '/webhooks',
 *   secret: process.env.VERIFICATION_SECRET_KEY,
 *   onEvent: async (event) => { ... },
 * }));
 * ```
 *
 * The route verifies the `Verification-Signature` header on the raw body (with any of the
 * secrets `secret` gives for the request), validates the event, calls
 * `onEvent(event, request, { account, secretIndex })` and answers 204; a secret function that
 * names no account gets 404. A forged, tampered, unsigned or malformed
 * delivery gets 400 with `{ "error": reason }` and `onEvent` is not called. What `onEvent` throws
 * goes to Fastify's error handler (500, logged), so the sender retries.
 *
 * @throws {WebhookVerificationError} `missing_secret` at once when `secret` is missing.
 */
export function fastifyWebhook(
  options: FastifyWebhookOptions,
): (instance: FastifyWebhookHost) => Promise<void> {
  checkWebhookSecretOption(options.secret, ADAPTER);
  const path = options.path ?? '/webhooks';
  const bodyLimit = options.maxBodyBytes ?? DEFAULT_WEBHOOK_MAX_BODY_BYTES;
  return async (instance) => {
    // Only in this plugin's scope: the rest of the app keeps its JSON parsing.
    instance.removeContentTypeParser(['application/json']);
    const keepRaw = (_request: unknown, body: Buffer, done: (error: Error | null, body?: Buffer) => void) =>
      done(null, body);
    instance.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, keepRaw);
    instance.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, keepRaw);
    instance.post(path, async (request, reply) => {
      // No body at all is simply an unsigned delivery: refused by the signature check with 400.
      const body = request.body ?? '';
      if (!(typeof body === 'string' || body instanceof Uint8Array)) {
        // Another parser was registered for this scope after the plugin's: say so rather than fail as a bad signature.
        throw new Error(
          `${ADAPTER}: the request body reached the route already parsed, so its signature cannot be checked. Do not add content-type parsers inside the webhook plugin's scope.`,
        );
      }
      const received = await receiveDelivery(options, request, body, request.headers, ADAPTER, 'node');
      if ('rejected' in received) return reply.code(received.rejected.status).send(received.rejected.body);
      return reply.code(204).send();
    });
  };
}
