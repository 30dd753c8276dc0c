/**
 * Webhook signing and verification, usable without a client. The vendor signs each delivery with
 * `Verification-Signature`: the hex HMAC-SHA256 of the raw request body keyed with the caller's
 * secret key. Verification must run on the raw bytes: re-serialised JSON rarely matches them.
 *
 * These functions are synchronous, so they use `node:crypto`, reached through the runtime rather
 * than imported (the edge entry loads this file too); verify-async.ts does the same on Web Crypto.
 */
import { formatPath, VerificationError, WebhookVerificationError } from '../core/errors.js';
import { isKnownWebhookEventCode, type WebhookEvent } from '../schemas/lazy/webhooks.js';
import { checkWebhookEvent } from './event-check.js';

/** The header that carries the signature of a delivery. */
export const WEBHOOK_SIGNATURE_HEADER = 'Verification-Signature';

/**
 * The raw request body, exactly as received: a string, a `Buffer` or a `Uint8Array`. Prefer the
 * bytes (`express.raw({ type: 'application/json' })`, `await request.arrayBuffer()`): a string is
 * hashed as UTF-8, which matches only if nothing re-encoded it on the way.
 */
export type WebhookBody = string | Uint8Array;

/**
 * The signature header value: a string, or the array Node gives for a repeated header.
 * `undefined`, `null` or empty means the header was missing.
 */
export type WebhookSignature = string | readonly string[] | null | undefined;

/**
 * Request headers: a plain record (any-case names; string or string[] values, as Node's
 * `IncomingHttpHeaders`), or anything with a Fetch-style `get(name)`, such as `Headers`.
 */
export type WebhookHeaders =
  | {
      /** Reads one header, any case, as Fetch's `Headers.get` does. */
      get(name: string): string | null;
    }
  | Readonly<Record<string, string | readonly string[] | null | undefined>>;

const SIGNATURE_HEADER_LOWER = WEBHOOK_SIGNATURE_HEADER.toLowerCase();
// SHA-256 is 32 bytes, so a well-formed hex signature is exactly 64 characters.
const HEX_SHA256 = /^[0-9a-f]{64}$/;
const SHA256_PREFIX = /^sha256=/i;

interface NodeCrypto {
  createHmac(
    algorithm: 'sha256',
    key: string,
  ): {
    update(data: string | Uint8Array): { digest(): Uint8Array; digest(encoding: 'hex'): string };
  };
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

let nodeCrypto: NodeCrypto | undefined;

function requireNodeCrypto(): NodeCrypto {
  // Stryker disable next-line ConditionalExpression: equivalent, the cache only saves looking node:crypto up again
  if (nodeCrypto) return nodeCrypto;
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const found = process?.getBuiltinModule?.('node:crypto') as Partial<NodeCrypto> | undefined;
  if (typeof found?.createHmac !== 'function' || typeof found.timingSafeEqual !== 'function') {
    throw new VerificationError(
      'The synchronous webhook functions need node:crypto, which this runtime lacks: use verifyWebhookAsync / unwrapWebhookAsync (Web Crypto) instead.',
    );
  }
  nodeCrypto = found as NodeCrypto;
  return nodeCrypto;
}

/** @internal The secret, or a `missing_secret` error. */
export function requireSecret(secret: string | null | undefined): string {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new WebhookVerificationError(
      'missing_secret',
      'No secret key to verify the webhook with: pass the secret key to the client (secretKey) or to this call.',
    );
  }
  return secret;
}

// A JSON framework middleware that already parsed the body hands over an object; say so plainly,
// since hashing a re-serialised object would fail as a confusing signature mismatch.
/** @internal The raw body, or an `invalid_payload` error saying a parsed body cannot be verified. */
export function requireRawBody(rawBody: unknown): WebhookBody {
  if (typeof rawBody === 'string' || rawBody instanceof Uint8Array) return rawBody;
  const kind = rawBody === null ? 'null' : Array.isArray(rawBody) ? 'array' : typeof rawBody;
  throw new WebhookVerificationError(
    'invalid_payload',
    `The webhook body must be the raw request body (string, Buffer or Uint8Array), received ${kind}: verify the raw bytes before any JSON parsing (e.g. express.raw({ type: 'application/json' })).`,
  );
}

function hmac(rawBody: WebhookBody, secret: string) {
  // A string body is hashed as UTF-8, the encoding of a JSON request body.
  return requireNodeCrypto().createHmac('sha256', secret).update(rawBody);
}

/**
 * Signs a body as the vendor does: the lowercase hex HMAC-SHA256 of `rawBody` keyed with
 * `secret`. Useful for tests and for a mock server's deliveries.
 *
 * @throws {WebhookVerificationError} `missing_secret` when `secret` is missing or empty.
 */
export function signWebhook(rawBody: WebhookBody, secret: string | null | undefined): string {
  return hmac(requireRawBody(rawBody), requireSecret(secret)).digest('hex');
}

// Node joins a repeated header with ", " and Fetch's `Headers.get` does the same, so each part
// is a candidate; hex never contains a comma. Length and alphabet are public facts, so dropping a
// malformed candidate first leaks nothing.
/**
 * @internal The candidate signatures as bytes (well-formed hex only), or a `missing_signature`
 * error when the header is missing or empty.
 */
export function signatureCandidates(signature: WebhookSignature): Uint8Array[] {
  const values: readonly string[] =
    signature === null || signature === undefined
      ? []
      : typeof signature === 'string'
        ? [signature]
        : signature;
  const parts: string[] = [];
  for (const value of values) {
    if (typeof value !== 'string') continue;
    for (const part of value.split(',')) {
      const trimmed = part.trim();
      if (trimmed.length > 0) parts.push(trimmed);
    }
  }
  if (parts.length === 0) {
    throw new WebhookVerificationError(
      'missing_signature',
      `The webhook has no ${WEBHOOK_SIGNATURE_HEADER} header: it cannot be trusted.`,
    );
  }
  // Stryker disable next-line ArrayDeclaration: equivalent, verifyWebhook compares only candidates of the digest's length
  const candidates: Uint8Array[] = [];
  for (const part of parts) {
    const hex = part.replace(SHA256_PREFIX, '').toLowerCase();
    if (!HEX_SHA256.test(hex)) continue;
    const bytes = new Uint8Array(hex.length / 2);
    // Stryker disable next-line EqualityOperator: equivalent, a typed array ignores the write one past its end
    for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    candidates.push(bytes);
  }
  return candidates;
}

/** @internal The error for a signature that does not match. */
export function badSignature(): WebhookVerificationError {
  // Neither the expected signature nor the secret is ever put in a message.
  return new WebhookVerificationError(
    'bad_signature',
    `The ${WEBHOOK_SIGNATURE_HEADER} header does not match the body: check the secret key, and verify the raw body as received (not re-serialised JSON).`,
  );
}

/**
 * Checks that `signature` is the HMAC-SHA256 of `rawBody` keyed with `secret`, in constant time.
 * The signature is hex in either case, may be surrounded by whitespace and may carry a
 * `sha256=` prefix. Call it on the raw body, before parsing it.
 *
 * @throws {WebhookVerificationError} `missing_secret` without a secret, `missing_signature`
 *   when the signature is missing or empty, `bad_signature` when it does not match.
 */
export function verifyWebhook(
  rawBody: WebhookBody,
  signature: WebhookSignature,
  secret: string | null | undefined,
): void {
  const key = requireSecret(secret);
  const body = requireRawBody(rawBody);
  const candidates = signatureCandidates(signature);
  const crypto = requireNodeCrypto();
  const expected = hmac(body, key).digest();
  let matched = false;
  // Every candidate is compared, in constant time on arrays of equal length.
  for (const candidate of candidates) {
    // Stryker disable next-line ConditionalExpression: equivalent, every candidate is 32 bytes (HEX_SHA256); the check guards timingSafeEqual
    if (candidate.length === expected.length && crypto.timingSafeEqual(candidate, expected)) matched = true;
  }
  if (!matched) throw badSignature();
}

function hasGet(headers: WebhookHeaders): headers is { get(name: string): string | null } {
  return typeof headers.get === 'function';
}

/** @internal Reads `Verification-Signature` from Fetch `Headers` or a plain record with names in any case. */
export function readSignatureHeader(headers: WebhookHeaders | null | undefined): WebhookSignature {
  if (headers === null || headers === undefined) return undefined;
  if (hasGet(headers)) return headers.get(SIGNATURE_HEADER_LOWER);
  const values: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== SIGNATURE_HEADER_LOWER || value === null || value === undefined) continue;
    if (typeof value === 'string') values.push(value);
    else values.push(...value);
  }
  return values;
}

function decodeJson(rawBody: WebhookBody): unknown {
  try {
    const text =
      typeof rawBody === 'string' ? rawBody : new TextDecoder('utf-8', { fatal: true }).decode(rawBody);
    return JSON.parse(text);
  } catch {
    // The parser's message quotes the body, which may hold applicants' details: keep it out.
    throw new WebhookVerificationError('invalid_json', 'The webhook body is not valid JSON.');
  }
}

/**
 * Verifies a delivery and returns its event: checks the `Verification-Signature` header against
 * the raw body first, then parses the JSON, then validates it. An unknown `code` gives an
 * {@link UnknownWebhookEvent}, not an error.
 *
 * @param rawBody The raw request body, exactly as received.
 * @param headers The request headers: Fetch `Headers` or a record (any-case names, string or string[] values).
 * @param secret The secret key the deliveries are signed with.
 * @throws {WebhookVerificationError} `missing_secret`, `missing_signature`, `bad_signature`,
 *   `invalid_json` (not JSON), or `invalid_payload` (not an object with a string `code`, or a
 *   known event missing a field; the message names the field).
 */
export function unwrapWebhook(
  rawBody: WebhookBody,
  headers: WebhookHeaders | null | undefined,
  secret: string | null | undefined,
): WebhookEvent {
  verifyWebhook(rawBody, readSignatureHeader(headers), secret);
  return parseWebhookEvent(rawBody);
}

/** @internal A verified body's event: parsed and validated, or an `invalid_json` / `invalid_payload` error. */
export function parseWebhookEvent(rawBody: WebhookBody): WebhookEvent {
  const json = decodeJson(rawBody);
  // Checked as webhookEventSchema checks it, without loading zod (event-check.ts).
  const result = checkWebhookEvent(json);
  if ('event' in result) return result.event;
  // Only a known code is echoed: anything else in the body stays out of messages and logs.
  const code =
    typeof json === 'object' &&
    json !== null &&
    'code' in json &&
    // Stryker disable next-line ConditionalExpression: equivalent, isKnownWebhookEventCode is false for a code that is not a string
    typeof json.code === 'string' &&
    isKnownWebhookEventCode(json.code)
      ? `${json.code} `
      : '';
  const problems = result.issues
    .slice(0, 5)
    .map((issue) => `${formatPath(issue.path) || '(root)'}: ${issue.message}`)
    .join('; ');
  throw new WebhookVerificationError('invalid_payload', `Invalid ${code}webhook payload: ${problems}`);
}
