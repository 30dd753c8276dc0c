/**
 * What every framework adapter does with one delivery: check the signature on the raw bytes,
 * then parse and validate, and say how to answer. The adapters only translate their framework's
 * request and response to and from this.
 */
import { WebhookVerificationError } from '../core/errors.js';
import type { WebhookEvent } from '../schemas/lazy/webhooks.js';
import type { WebhookDedupeOptions } from './deliveries.js';
import { unwrapWebhook, type WebhookBody, type WebhookHeaders } from './verify.js';
import { unwrapWebhookAsync } from './verify-async.js';

/** Options every webhook adapter takes. */
export interface WebhookHandlerOptions<Context = undefined> extends WebhookDedupeOptions {
  /** The secret key the deliveries are signed with (the API client's secret key). */
  secret: string | undefined;
  /**
   * Called once per verified delivery, after the signature check and the event's validation. Answer
   * time counts: the sender waits for it, and a throw makes the adapter's framework answer 500 so the
   * delivery is retried. Deliveries can repeat, so handle them idempotently; with `deliveries`,
   * a repeat of the same signed body within `dedupeWindowMs` is answered 204 without calling it.
   */
  onEvent: (event: WebhookEvent, context: Context) => unknown;
}

/** A delivery the adapter must refuse with 400 without calling `onEvent`. */
export interface RejectedDelivery {
  /** Always 400: the delivery is not genuine or not an event; resending it would not help. */
  status: 400;
  /** The JSON body to answer with: only the failed check's name, nothing of the body or the key. */
  body: { error: WebhookVerificationError['reason'] };
  /** The verification error, for the receiver's own log. */
  error: WebhookVerificationError;
}

/** The outcome of {@link checkDelivery}: the verified event, or how to refuse the delivery. */
export type CheckedDelivery = { event: WebhookEvent } | { rejected: RejectedDelivery };

/**
 * Fails before anything is read when the receiver has no secret: that is the server's
 * misconfiguration (answer 500, log it), not a bad delivery.
 */
export function requireWebhookSecret(secret: string | undefined, adapter: string): string {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new WebhookVerificationError(
      'missing_secret',
      `${adapter}: no secret to verify webhooks with. Pass { secret: process.env.VERIFICATION_SECRET_KEY } (the client's secret key).`,
    );
  }
  return secret;
}

function rejection(error: unknown): CheckedDelivery {
  if (!(error instanceof WebhookVerificationError) || error.reason === 'missing_secret') throw error;
  return { rejected: { status: 400, body: { error: error.reason }, error } };
}

/**
 * Verifies `rawBody` against the signature header and validates the event. A forged, tampered,
 * unsigned or malformed delivery becomes a {@link RejectedDelivery}; anything else is thrown.
 */
export function checkDelivery(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secret: string,
): CheckedDelivery {
  try {
    return { event: unwrapWebhook(rawBody, headers, secret) };
  } catch (error) {
    return rejection(error);
  }
}

/** {@link checkDelivery} on Web Crypto, for the web-standard adapter (every runtime has it). */
export async function checkDeliveryAsync(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secret: string,
): Promise<CheckedDelivery> {
  try {
    return { event: await unwrapWebhookAsync(rawBody, headers, secret) };
  } catch (error) {
    return rejection(error);
  }
}
