/**
 * `client.webhooks`: the standalone webhook functions with the client's secret key as default.
 * The key lives in a `#private` field so `util.inspect`, `console.log` and `JSON.stringify` of
 * the client never show it.
 */
import type { WebhookEvent } from '../schemas/lazy/webhooks.js';
import {
  signWebhook,
  unwrapWebhook,
  verifyWebhook,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookSignature,
} from '../webhooks/verify.js';
import { unwrapWebhookAsync, verifyWebhookAsync } from '../webhooks/verify-async.js';

/** Verifies, unwraps and signs webhook deliveries with the client's secret key unless another is given. */
export class Webhooks {
  readonly #secretKey: string | undefined;

  /** @param secretKey The default secret key: the client's own. */
  constructor(secretKey?: string | undefined) {
    this.#secretKey = secretKey;
  }

  /**
   * Checks the `Verification-Signature` value against the raw body; see {@link verifyWebhook}.
   *
   * @throws {WebhookVerificationError} when the secret or signature is missing or the signature does not match.
   */
  verify(rawBody: WebhookBody, signature: WebhookSignature, secret?: string | undefined): void {
    verifyWebhook(rawBody, signature, secret ?? this.#secretKey);
  }

  /**
   * Verifies a delivery from its raw body and headers, then parses and validates its event; see {@link unwrapWebhook}.
   *
   * @throws {WebhookVerificationError} on a missing or bad signature, a non-JSON body or an invalid known event.
   */
  unwrap(rawBody: WebhookBody, headers: WebhookHeaders, secret?: string | undefined): WebhookEvent {
    return unwrapWebhook(rawBody, headers, secret ?? this.#secretKey);
  }

  /**
   * {@link Webhooks.verify} on Web Crypto, for runtimes without `node:crypto` (Workers, Vercel Edge); see {@link verifyWebhookAsync}.
   *
   * @throws {WebhookVerificationError} when the secret or signature is missing or the signature does not match.
   */
  verifyAsync(rawBody: WebhookBody, signature: WebhookSignature, secret?: string | undefined): Promise<void> {
    return verifyWebhookAsync(rawBody, signature, secret ?? this.#secretKey);
  }

  /**
   * {@link Webhooks.unwrap} on Web Crypto, for runtimes without `node:crypto`; see {@link unwrapWebhookAsync}.
   *
   * @throws {WebhookVerificationError} on a missing or bad signature, a non-JSON body or an invalid known event.
   */
  unwrapAsync(
    rawBody: WebhookBody,
    headers: WebhookHeaders,
    secret?: string | undefined,
  ): Promise<WebhookEvent> {
    return unwrapWebhookAsync(rawBody, headers, secret ?? this.#secretKey);
  }

  /**
   * The lowercase hex HMAC-SHA256 signature of `rawBody`, as the vendor sends it; see {@link signWebhook}.
   *
   * @throws {WebhookVerificationError} `missing_secret` without a secret.
   */
  sign(rawBody: WebhookBody, secret?: string | undefined): string {
    return signWebhook(rawBody, secret ?? this.#secretKey);
  }
}
