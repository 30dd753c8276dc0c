/**
 * What every framework adapter does with one delivery: find the secret(s) for it (one, several
 * during a rotation, or the account's, by a function of the request), check the signature on the
 * raw bytes, then parse and validate, hand the event to `onEvent` once, and say how to answer.
 * The adapters only translate their framework's request and response to and from this.
 */
import { WebhookVerificationError } from '../core/errors.js';
import type { WebhookEvent } from '../schemas/lazy/webhooks.js';
import { handleOnce, type WebhookDedupeOptions } from './deliveries.js';
import { resolveWebhookSecrets, type WebhookDelivery, type WebhookSecretOption } from './secrets.js';
import {
  parseWebhookEvent,
  readSignatureHeader,
  verifyWebhook,
  type WebhookBody,
  type WebhookHeaders,
} from './verify.js';
import { verifyWebhookAsync } from './verify-async.js';

/** Options every webhook adapter takes. */
export interface WebhookHandlerOptions<Context = undefined> extends WebhookDedupeOptions {
  /**
   * The secret key the deliveries are signed with (the API client's secret key); several during a
   * rotation (a delivery signed with any of them verifies); or, for a receiver serving many
   * accounts, a function of the request returning the account's secret(s), or `{ account, secret }`
   * to name the account (`undefined`: no such account, answered 404). It may be async.
   */
  secret: WebhookSecretOption<Context>;
  /**
   * Called once per verified delivery, after the signature check and the event's validation, with
   * the request and which account and secret verified it. Answer time counts: the sender waits for
   * it, and a throw makes the adapter's framework answer 500 so the delivery is retried. Deliveries
   * can repeat, so handle them idempotently; with `deliveries`, a repeat of the same signed body
   * (for the same account) within `dedupeWindowMs` is answered 204 without calling it.
   */
  onEvent: (event: WebhookEvent, context: Context, delivery: WebhookDelivery) => unknown;
}

/** A delivery the adapter must refuse without calling `onEvent`. */
export interface RejectedDelivery {
  /** 400: not genuine or not an event (resending it would not help); 404: no such account. */
  status: 400 | 404;
  /** The JSON body to answer with: only the failed check's name, nothing of the body or the key. */
  body: { error: WebhookVerificationError['reason'] | 'unknown_account' };
}

/** A delivery handled (or dropped as a repeat), or how to refuse it. */
export type ReceivedDelivery = { handled: true } | { rejected: RejectedDelivery };

function rejection(error: unknown): { rejected: RejectedDelivery } {
  if (!(error instanceof WebhookVerificationError) || error.reason === 'missing_secret') throw error;
  return { rejected: { status: 400, body: { error: error.reason } } };
}

/**
 * Verifies `rawBody` against the signature header with each secret in turn (a rotation's old and
 * new keys), then validates the event. A forged, tampered, unsigned or malformed delivery becomes
 * a rejection; anything else is thrown. `crypto`: `node` (node:crypto, synchronous) for the Node
 * adapters, `web` (Web Crypto) for the web-standard one.
 */
async function checkDelivery(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secrets: readonly string[],
  crypto: 'node' | 'web',
): Promise<{ event: WebhookEvent; secretIndex: number } | { rejected: RejectedDelivery }> {
  const signature = readSignatureHeader(headers);
  for (let index = 0; index < secrets.length; index++) {
    try {
      if (crypto === 'node') verifyWebhook(rawBody, signature, secrets[index]);
      else await verifyWebhookAsync(rawBody, signature, secrets[index]);
      return { event: parseWebhookEvent(rawBody), secretIndex: index };
    } catch (error) {
      const another = index + 1 < secrets.length;
      if (another && error instanceof WebhookVerificationError && error.reason === 'bad_signature') continue;
      return rejection(error);
    }
  }
  throw new WebhookVerificationError('missing_secret', 'No secret to verify the webhook with.');
}

/**
 * One delivery, start to end: its secrets for `request`, the signature and event checks, then
 * `onEvent` once (repeats dropped through the delivery store, per account).
 * @throws {WebhookVerificationError} `missing_secret` when the secret option (or what its function
 *   returned) is unusable: a configuration error, answered 500.
 * @throws whatever `onEvent` or the secret function throws, so the framework answers 500.
 */
export async function receiveDelivery<Request>(
  options: WebhookHandlerOptions<Request>,
  request: Request,
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  adapter: string,
  crypto: 'node' | 'web',
): Promise<ReceivedDelivery> {
  const resolved = await resolveWebhookSecrets(options.secret, request, adapter);
  if (resolved === undefined) return { rejected: { status: 404, body: { error: 'unknown_account' } } };
  const checked = await checkDelivery(rawBody, headers, resolved.secrets, crypto);
  if ('rejected' in checked) return checked;
  const delivery: WebhookDelivery = { account: resolved.account, secretIndex: checked.secretIndex };
  await handleOnce(options, rawBody, resolved.account, () =>
    options.onEvent(checked.event, request, delivery),
  );
  return { handled: true };
}
