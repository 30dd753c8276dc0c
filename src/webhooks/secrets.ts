/**
 * Which secret a webhook delivery is checked with. One receiver may serve many accounts (a
 * platform's landlords, each signing with its own secret key) and secrets are rotated: the
 * receivers' `secret` is a string, several strings during a rotation (any of them verifies), or a
 * function of the request naming the account and its secret(s) (docs/platforms.md).
 */
import { WebhookVerificationError } from '../core/errors.js';

/** One secret key, or several while one is being rotated: a delivery signed with any of them verifies. */
export type WebhookSecrets = string | readonly string[];

/**
 * What a secret function resolves for one request: the secret(s) to check with, or
 * `{ account, secret }` to name the account they belong to (handed to `onEvent`, and the key of
 * the delivery store's records). `undefined`: no such account; the delivery is answered 404 and
 * `onEvent` is not called.
 */
export type WebhookSecretFor = WebhookSecrets | WebhookAccountSecret | undefined;

/** An account and the secret(s) its deliveries are signed with. */
export interface WebhookAccountSecret {
  /**
   * The account's client id: what "account" means everywhere in the SDK (a client's `clientId`,
   * the `account` a `GroupStore` gets, the delivery store's `account`), so `onEvent` can hand it
   * straight to the account's client and its sync. Never a secret: it may be logged.
   */
  account: string;
  /** Its secret key, or several during a rotation. */
  secret: WebhookSecrets;
}

/**
 * The receivers' `secret` option: the secret key (the client's `secretKey`), several during a
 * rotation, or a function of the request returning either, or `{ account, secret }` (it may be
 * async: a database lookup of the landlord named in the path).
 *
 * ```ts
 * secret: async (request) => {
 *   const landlord = await landlords.byId(new URL(request.url).pathname.split('/').pop());
 *   return landlord && { account: landlord.clientId, secret: [landlord.secretKey, landlord.previousSecretKey] };
 * },
 * ```
 */
export type WebhookSecretOption<Request> =
  | WebhookSecrets
  | ((request: Request) => WebhookSecretFor | Promise<WebhookSecretFor>)
  | undefined;

/** Which account and which of its secrets verified a delivery: `onEvent`'s third argument. */
export interface WebhookDelivery {
  /** The account (client id) the secret function named; `undefined` with a fixed secret or a bare secret list. */
  account: string | undefined;
  /** Which of the secrets verified it (0 for a single secret): during a rotation, whether senders moved on. */
  secretIndex: number;
}

/** The secrets to check a delivery with, and the account they belong to. */
export interface ResolvedWebhookSecrets {
  account: string | undefined;
  secrets: readonly string[];
}

function missing(adapter: string, detail: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'missing_secret',
    `${adapter}: ${detail}. Pass { secret: process.env.VERIFICATION_SECRET_KEY } (the client's secret key), several during a rotation, or a function of the request returning them.`,
  );
}

function secretList(value: unknown, adapter: string, where: string): readonly string[] {
  const list: readonly unknown[] = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every((secret) => typeof secret === 'string' && secret.length > 0)) {
    throw missing(adapter, `${where} is not a secret key (a non-empty string) or a non-empty list of them`);
  }
  return list as readonly string[];
}

/**
 * Fails before anything is read when the receiver has no usable secret option: that is the
 * server's misconfiguration (answer 500, log it), not a bad delivery.
 */
export function checkWebhookSecretOption(secret: unknown, adapter: string): void {
  if (typeof secret === 'function') return;
  if (secret === undefined || secret === null || secret === '')
    throw missing(adapter, 'no secret to verify webhooks with');
  secretList(secret, adapter, 'the secret option');
}

/**
 * The secrets for `request`; `undefined` when the secret function names no account. A function
 * that returns something unusable (an empty string, an empty list) is a misconfiguration: thrown.
 */
export async function resolveWebhookSecrets<Request>(
  option: WebhookSecretOption<Request>,
  request: Request,
  adapter: string,
): Promise<ResolvedWebhookSecrets | undefined> {
  if (typeof option !== 'function')
    return { account: undefined, secrets: secretList(option, adapter, 'the secret option') };
  const found = await option(request);
  if (found === undefined || found === null) return undefined;
  if (typeof found === 'object' && !Array.isArray(found)) {
    const { account, secret } = found as WebhookAccountSecret;
    if (typeof account !== 'string' || account === '') {
      throw missing(adapter, 'the secret function returned an account that is not a non-empty string');
    }
    return { account, secrets: secretList(secret, adapter, `the secret of account ${account}`) };
  }
  return { account: undefined, secrets: secretList(found, adapter, 'what the secret function returned') };
}
