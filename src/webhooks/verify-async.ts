/**
 * Webhook verification on Web Crypto (`crypto.subtle`), which every runtime has: Node, Bun, Deno,
 * Cloudflare Workers, Vercel Edge. Asynchronous because `crypto.subtle` is; the checks, errors and
 * messages are those of the synchronous functions in verify.ts.
 */
import type { WebhookEvent } from '../schemas/lazy/webhooks.js';
import {
  badSignature,
  parseWebhookEvent,
  readSignatureHeader,
  requireRawBody,
  requireSecret,
  signatureCandidates,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookSignature,
} from './verify.js';

const encoder = new TextEncoder();

// Web Crypto takes bytes backed by a plain ArrayBuffer; a copy is cheap next to the HMAC.
function plainBytes(data: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data);
}

/**
 * Checks that `signature` is the HMAC-SHA256 of `rawBody` keyed with `secret`, like
 * `verifyWebhook`, on Web Crypto (whose `verify` compares in constant time). For runtimes
 * without `node:crypto` (Cloudflare Workers, Vercel Edge); it works on Node as well.
 *
 * @throws {WebhookVerificationError} `missing_secret` without a secret, `missing_signature`
 *   when the signature is missing or empty, `bad_signature` when it does not match.
 */
export async function verifyWebhookAsync(
  rawBody: WebhookBody,
  signature: WebhookSignature,
  secret: string | null | undefined,
): Promise<void> {
  const key = requireSecret(secret);
  const body = plainBytes(requireRawBody(rawBody));
  const candidates = signatureCandidates(signature);
  const hmacKey = await crypto.subtle.importKey(
    'raw',
    encoder.encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  let matched = false;
  for (const candidate of candidates) {
    if (await crypto.subtle.verify('HMAC', hmacKey, plainBytes(candidate), body)) matched = true;
  }
  if (!matched) throw badSignature();
}

/**
 * Verifies a delivery and returns its event, like `unwrapWebhook`, on Web Crypto: the
 * signature header against the raw body first, then the JSON, then its validation.
 *
 * @param rawBody The raw request body, exactly as received.
 * @param headers The request headers: Fetch `Headers` or a record (any-case names, string or string[] values).
 * @param secret The secret key the deliveries are signed with.
 * @throws {WebhookVerificationError} `missing_secret`, `missing_signature`, `bad_signature`,
 *   `invalid_json` (not JSON), or `invalid_payload` (not an object with a string `code`, or a
 *   known event missing a field; the message names the field).
 */
export async function unwrapWebhookAsync(
  rawBody: WebhookBody,
  headers: WebhookHeaders | null | undefined,
  secret: string | null | undefined,
): Promise<WebhookEvent> {
  await verifyWebhookAsync(rawBody, readSignatureHeader(headers), secret);
  return parseWebhookEvent(rawBody);
}
