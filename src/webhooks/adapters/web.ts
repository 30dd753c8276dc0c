/**
 * The web-standard webhook adapter: a `Request` in, a `Response` out. It fits every handler
 * written against the Fetch API: Next.js App Router route handlers, Hono, Bun.serve, Deno.serve,
 * Cloudflare Workers, Vercel Edge. It reads the body as bytes itself, so the signature is checked
 * on exactly what was sent, with Web Crypto (no `node:crypto`).
 */
import { concatBytes } from '../../core/transport/bytes.js';
import { receiveDelivery, type WebhookHandlerOptions } from '../receive.js';
import { checkWebhookSecretOption } from '../secrets.js';

/** Options of {@link handleWebhook}. */
export interface WebRequestWebhookOptions extends WebhookHandlerOptions<Request> {
  /** Bodies larger than this many bytes are refused with 413 before verification. Default 1 MiB. */
  maxBodyBytes?: number;
}

/** Default cap on a delivery's body: events are small JSON objects. */
export const DEFAULT_WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

const JSON_HEADERS = { 'content-type': 'application/json' };

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
}

/** The body's bytes, or `undefined` once more than `limit` bytes arrived (the rest is not read). */
async function readBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (Number(request.headers.get('content-length')) > limit) return undefined;
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    parts.push(value);
  }
  return concatBytes(parts, total);
}

/**
 * Handles one webhook delivery given as a web `Request`: reads the raw body, verifies the
 * `Verification-Signature` header against it (with any of the secrets `secret` gives for the
 * request), validates the event, calls `onEvent(event, request, { account, secretIndex })` and
 * answers 204. A forged, tampered, unsigned or malformed delivery gets 400 with
 * `{ "error": reason }` and `onEvent` is not called; a secret function that names no account gets
 * 404 `{ "error": "unknown_account" }`; a body over `maxBodyBytes` gets 413 and a method other
 * than POST 405.
 *
 * ```ts
 * // app/webhooks/route.ts (Next.js App Router); Hono: app.post('/webhooks', (c) => handleWebhook(c.req.raw, options))
 * export const POST = (request: Request) =>
 *   handleWebhook(request, { secret: process.env.VERIFICATION_SECRET_KEY, onEvent: handleEvent });
 * ```
 *
 * @throws {WebhookVerificationError} `missing_secret` when `secret` is missing: a configuration
 *   error, which the framework answers with 500 and logs.
 * @throws whatever `onEvent` throws, so the framework answers 500 and the sender retries.
 */
export async function handleWebhook(request: Request, options: WebRequestWebhookOptions): Promise<Response> {
  checkWebhookSecretOption(options.secret, 'handleWebhook');
  if (request.method !== 'POST') {
    return new Response(null, { status: 405, headers: { allow: 'POST' } });
  }
  const rawBody = await readBody(request, options.maxBodyBytes ?? DEFAULT_WEBHOOK_MAX_BODY_BYTES);
  if (rawBody === undefined) return json(413, { error: 'body_too_large' });
  const received = await receiveDelivery(options, request, rawBody, request.headers, 'handleWebhook', 'web');
  if ('rejected' in received) return json(received.rejected.status, received.rejected.body);
  return new Response(null, { status: 204 });
}

/**
 * Binds the options once, for frameworks that take a handler function (`export const POST =
 * webhookHandler({ ... })` in a Next.js route file, `Deno.serve(webhookHandler({ ... }))`).
 */
export function webhookHandler(options: WebRequestWebhookOptions): (request: Request) => Promise<Response> {
  checkWebhookSecretOption(options.secret, 'webhookHandler');
  return (request) => handleWebhook(request, options);
}
