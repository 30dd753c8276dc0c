/**
 * The Express webhook adapter: a middleware for the webhook route. It is typed against Node's own
 * `IncomingMessage`/`ServerResponse` (which Express's request and response extend), so the SDK
 * needs no Express dependency. The signature covers the raw bytes, so the route must see them:
 * mount `express.raw({ type: 'application/json' })` before it (or no body parser at all, and the
 * middleware reads the stream itself). A body some JSON parser already turned into an object
 * cannot be verified: that is a server misconfiguration, answered 500 and logged loudly.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../core/observability/log.js';
import { receiveDelivery, type WebhookHandlerOptions } from '../receive.js';
import { checkWebhookSecretOption } from '../secrets.js';
import type { WebhookBody } from '../verify.js';
import { DEFAULT_WEBHOOK_MAX_BODY_BYTES } from './web.js';

/** The request as the middleware reads it: Node's request plus the `body` a parser may have set. */
export interface ExpressWebhookRequest extends IncomingMessage {
  /** Set by a body parser: a Buffer from `express.raw()`, a string from `express.text()`. */
  body?: unknown;
  /**
   * The route's parameters, as Express sets them (`/webhooks/:landlord` gives `params.landlord`):
   * what a `secret` function reads to find the account a delivery was posted for.
   */
  params?: Record<string, string>;
}

/** Express's `next`: called with the error `onEvent` threw, so Express's error handling answers. */
export type ExpressWebhookNext = (error?: unknown) => void;

/** Options of {@link expressWebhook}. */
export interface ExpressWebhookOptions extends WebhookHandlerOptions<ExpressWebhookRequest> {
  /** Where a misconfiguration (an already-parsed body) is reported. Default `console`. */
  logger?: Pick<Logger, 'error'>;
  /** Used only when no body parser ran and the middleware reads the stream itself. Default 1 MiB. */
  maxBodyBytes?: number;
}

const ADAPTER = 'expressWebhook';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** Message logged when a JSON parser ran before the middleware. */
function parsedBodyMessage(body: unknown): string {
  return `${ADAPTER}: req.body is ${describe(body)}, already parsed by a body parser, so the webhook signature cannot be checked against the raw bytes and the delivery was refused with 500. Mount express.raw({ type: 'application/json' }) on the webhook route, before this middleware (app.post('/webhooks', express.raw({ type: 'application/json' }), expressWebhook(options))), and register express.json() after it or only on other routes.`;
}

async function readStream(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += bytes.length;
    if (total > limit) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}

function send(response: ServerResponse, status: number, body?: unknown): void {
  if (response.headersSent) return;
  response.statusCode = status;
  if (body === undefined) {
    response.end();
    return;
  }
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(body));
}

/** Resolves the raw body, or explains why there is none. */
async function rawBodyOf(
  request: ExpressWebhookRequest,
  limit: number,
): Promise<{ raw: WebhookBody } | { tooLarge: true } | { misconfigured: string }> {
  const body = request.body;
  if (typeof body === 'string' || body instanceof Uint8Array) return { raw: body };
  if (body === undefined && !request.readableEnded) {
    const raw = await readStream(request, limit);
    return raw === undefined ? { tooLarge: true } : { raw };
  }
  if (body === undefined) {
    return {
      misconfigured: `${ADAPTER}: the request body was consumed before this middleware but req.body is empty, so there is nothing to verify. Mount express.raw({ type: 'application/json' }) on the webhook route.`,
    };
  }
  return { misconfigured: parsedBodyMessage(body) };
}

/**
 * An Express middleware receiving webhook deliveries:
 *
 * ```ts
 * app.post('/webhooks', express.raw({ type: 'application/json' }), expressWebhook({
 *   secret: process.env.VERIFICATION_SECRET_KEY,
 *   onEvent: async (event) => { ... },
 * }));
 * ```
 *
 * It verifies the `Verification-Signature` header on the raw body (with any of the secrets
 * `secret` gives for the request: one, several during a rotation, or an account's from a function
 * of `req`), validates the event, calls `onEvent(event, req, { account, secretIndex })` and answers
 * 204; a secret function that names no account gets 404. A forged, tampered, unsigned or malformed delivery gets
 * 400 with `{ "error": reason }` and `onEvent` is not called. A body already parsed into an object
 * gets 500 and an error line in `logger` naming the fix. What `onEvent` throws goes to `next`.
 *
 * @throws {WebhookVerificationError} `missing_secret` at once when `secret` is missing.
 */
export function expressWebhook(
  options: ExpressWebhookOptions,
): (request: ExpressWebhookRequest, response: ServerResponse, next: ExpressWebhookNext) => void {
  checkWebhookSecretOption(options.secret, ADAPTER);
  const logger = options.logger ?? console;
  const limit = options.maxBodyBytes ?? DEFAULT_WEBHOOK_MAX_BODY_BYTES;

  async function handle(request: ExpressWebhookRequest, response: ServerResponse): Promise<void> {
    if (request.method !== 'POST') {
      response.setHeader('allow', 'POST');
      send(response, 405);
      return;
    }
    const body = await rawBodyOf(request, limit);
    if ('tooLarge' in body) {
      send(response, 413, { error: 'body_too_large' });
      return;
    }
    if ('misconfigured' in body) {
      logger.error(body.misconfigured);
      send(response, 500, { error: 'webhook_body_already_parsed', message: body.misconfigured });
      return;
    }
    const received = await receiveDelivery(options, request, body.raw, request.headers, ADAPTER, 'node');
    if ('rejected' in received) {
      send(response, received.rejected.status, received.rejected.body);
      return;
    }
    send(response, 204);
  }

  return (request, response, next) => {
    handle(request, response).catch(next);
  };
}
