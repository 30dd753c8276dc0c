/**
 * Webhook delivery: each event is a JSON POST to the group's `webhook_url`, signed with the
 * header `Verification-Signature` (lowercase hex HMAC-SHA256 of the exact raw body, keyed with
 * the webhook secret of the account owning the group: its `webhookSecret`, else its secret key). Deliveries to one URL go out one at a time, in event order, retried
 * with doubling backoff (real timers, small delays) when the receiver fails.
 *
 * Sent with undici's `request` on a private Agent by default: real network traffic even when msw
 * intercepts `fetch` in the same process, so a test's receiver sees what a server would. Given a
 * `fetch` (the mock's `webhookFetch` option; the msw entry's default is `globalThis.fetch`, read
 * at each attempt), every attempt goes through it instead, so msw's handlers can be the receiver.
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type KnownWebhookEvent,
  type ReportReadyEvent,
  signWebhook,
  WEBHOOK_SIGNATURE_HEADER,
} from 'applicant-verification';
import { Agent, request } from 'undici';
import type { WebhookFault, WebhookFaultInjector } from './webhook-faults.js';

/** `REPORT_READY` of a household report: about no single applicant, so without `applicant_id`. */
export type HouseholdReportReadyEvent = Omit<ReportReadyEvent, 'applicant_id'>;

/** An event the mock sends: the SDK's known event shapes, and household `REPORT_READY`. */
export type MockWebhookEvent = KnownWebhookEvent | HouseholdReportReadyEvent;

/**
 * Name of the signature header.
 * @deprecated Use `WEBHOOK_SIGNATURE_HEADER` (the same value, also exported by the main entry).
 */
export const SIGNATURE_HEADER = WEBHOOK_SIGNATURE_HEADER;

/** Retry policy of deliveries. */
export interface WebhookRetryOptions {
  /** Attempts in all, including the first (default 3). */
  attempts: number;
  /** Delay before the second attempt; doubles after each failure (default 50 ms). */
  baseDelayMs: number;
}

/** One event delivery, with its outcome so far. */
export interface DeliveryRecord {
  /** Number of the delivery in this mock, from 1 in recording order (`redeliver(id)` takes it). */
  id: number;
  /** The receiver (`webhook_url` of the group). */
  url: string;
  /** Client id of the account owning the group: the body is signed with its webhook secret. */
  account: string;
  /** The event as sent. */
  event: MockWebhookEvent;
  /** The exact raw body sent. */
  body: string;
  /** The `Verification-Signature` header value. */
  signature: string;
  /** Attempts made so far. */
  attempts: number;
  /** Status of the last answer; `null` before any answer or after a connection error. */
  status: number | null;
  /** Whether an attempt got a 2xx answer. */
  delivered: boolean;
  /** Message of the last connection error, if any. */
  error?: string;
  /** Set when a `{ drop: true }` webhook fault kept the event from being sent at all. */
  dropped?: boolean;
  /** The webhook fault this delivery suffered (dropped, sent twice, held back), if any. */
  fault?: WebhookFault;
  /** Set on a delivery made by `redeliver(id)`: the id of the delivery it repeats. */
  redeliveryOf?: number;
}

/** Read access to webhook deliveries. */
export interface Deliveries {
  /** Every delivery so far, in event order (snapshots). */
  all(): DeliveryRecord[];
  /**
   * Resolves once no delivery is in flight or waiting for a retry. Events a `{ reorder: true }`
   * webhook fault still holds back are sent first.
   */
  settled(): Promise<void>;
  /** Forgets the records (deliveries in flight still complete); ids start again from 1. */
  clear(): void;
  /**
   * Sends delivery `id`'s event again, the same signed body to the same receiver, as a new
   * delivery (with `redeliveryOf: id`) after any still queued for that receiver; returns its
   * record as recorded (before it is sent). A dropped delivery is sent this way too. Throws "No
   * delivery" for an unknown id.
   */
  redeliver(id: number): DeliveryRecord;
}

/** Deliveries plus the hooks the mock itself uses. */
export interface WebhookDeliverer extends Deliveries {
  /** Queues `event` of the account `account` for delivery to `url`. */
  enqueue(url: string, event: MockWebhookEvent, account: string): void;
  /** Stops retries and releases sockets; later events are recorded but not sent. */
  close(): Promise<void>;
}

/** Default retry policy: 3 attempts, 50 ms doubling. */
export const DEFAULT_WEBHOOK_RETRY: WebhookRetryOptions = { attempts: 3, baseDelayMs: 50 };

/**
 * Signs a raw body as the mock does: lowercase hex HMAC-SHA256 keyed with `secretKey`.
 * @deprecated Use `signWebhook` (the same function, also exported by the main entry).
 */
export const signWebhookBody: (body: string, secretKey: string) => string = signWebhook;

/**
 * Creates the deliverer of one mock; `secretOf` names the signing key of an account's deliveries.
 * `through`, when given, makes every attempt (a POST with the signed body) instead of undici.
 */
export function createWebhookDeliverer(
  secretOf: (account: string) => string,
  retry: WebhookRetryOptions,
  faults?: WebhookFaultInjector,
  through?: typeof fetch,
): WebhookDeliverer {
  const records: DeliveryRecord[] = [];
  // Events a reorder fault holds back, per receiver: sent after the receiver's next event.
  const held = new Map<string, { event: MockWebhookEvent; account: string; fault: WebhookFault }[]>();
  const chains = new Map<string, Promise<void>>();
  const stop = new AbortController();
  // Every delivery in flight listens to this one signal (a platform's receivers, one chain each):
  // past ten, Node would warn of a listener leak that is none.
  setMaxListeners(0, stop.signal);
  let agent: Agent | undefined;
  let inFlight = 0;
  let lastId = 0;
  // Bun's `undici` module has a stub Agent (no dispatch, no close): its `request` goes without one.
  const ownAgent = typeof Agent.prototype.dispatch === 'function';

  const headersOf = (record: DeliveryRecord): Record<string, string> => ({
    'content-type': 'application/json',
    'user-agent': 'applicant-verification-mock',
    [WEBHOOK_SIGNATURE_HEADER]: record.signature,
  });

  // One attempt through the given fetch: redirects are answers, as undici's `request` treats them.
  async function attemptByFetch(record: DeliveryRecord, fetchImpl: typeof fetch): Promise<boolean> {
    try {
      const response = await fetchImpl(record.url, {
        method: 'POST',
        body: record.body,
        headers: headersOf(record),
        redirect: 'manual',
        signal: stop.signal,
      });
      await response.arrayBuffer();
      record.status = response.status;
      delete record.error;
      return response.status >= 200 && response.status < 300;
    } catch (error) {
      record.status = null;
      record.error = error instanceof Error ? error.message : String(error);
      return false;
    }
  }

  async function attempt(record: DeliveryRecord): Promise<boolean> {
    if (through) return attemptByFetch(record, through);
    if (ownAgent) agent ??= new Agent({ keepAliveTimeout: 1_000, headersTimeout: 5_000, bodyTimeout: 5_000 });
    try {
      const response = await request(record.url, {
        method: 'POST',
        body: record.body,
        headers: headersOf(record),
        ...(agent ? { dispatcher: agent } : {}),
        signal: stop.signal,
      });
      // Bun's body has no dump(); a receiver's answer is small either way.
      await (ownAgent ? response.body.dump() : response.body.text());
      record.status = response.statusCode;
      delete record.error;
      return response.statusCode >= 200 && response.statusCode < 300;
    } catch (error) {
      record.status = null;
      record.error = error instanceof Error ? error.message : String(error);
      return false;
    }
  }

  async function deliver(record: DeliveryRecord): Promise<void> {
    for (let n = 1; n <= retry.attempts && !stop.signal.aborted; n++) {
      record.attempts = n;
      if (await attempt(record)) {
        record.delivered = true;
        return;
      }
      if (n < retry.attempts) {
        // An abort (close()) ends the wait early; the loop condition then stops retrying.
        await sleep(retry.baseDelayMs * 2 ** (n - 1), undefined, { signal: stop.signal }).catch(
          () => undefined,
        );
      }
    }
  }

  function recordOf(url: string, event: MockWebhookEvent, account: string): DeliveryRecord {
    const body = JSON.stringify(event);
    lastId += 1;
    return {
      id: lastId,
      url,
      account,
      event,
      body,
      signature: signWebhook(body, secretOf(account)),
      attempts: 0,
      status: null,
      delivered: false,
    };
  }

  function send(
    url: string,
    event: MockWebhookEvent,
    account: string,
    extra?: Partial<DeliveryRecord>,
  ): DeliveryRecord {
    const record = Object.assign(recordOf(url, event, account), extra);
    records.push(record);
    inFlight += 1;
    // Chained per receiver so events arrive in the order they happened.
    const previous = chains.get(url) ?? Promise.resolve();
    const next = previous
      .then(() => deliver(record))
      .finally(() => {
        inFlight -= 1;
        if (chains.get(url) === next) chains.delete(url);
      });
    chains.set(url, next);
    return record;
  }

  function release(url: string): void {
    const late = held.get(url);
    held.delete(url);
    for (const { event, account, fault } of late ?? []) send(url, event, account, { fault });
  }

  return {
    all: () => records.map((record) => ({ ...record })),
    async settled() {
      for (const url of [...held.keys()]) release(url);
      while (inFlight > 0) await Promise.allSettled([...chains.values()]);
    },
    clear() {
      records.length = 0;
      lastId = 0;
      held.clear();
    },
    redeliver(id) {
      const original = records.find((record) => record.id === id);
      if (!original) throw new Error(`No delivery with id ${id}`);
      return { ...send(original.url, original.event, original.account, { redeliveryOf: id }) };
    },
    enqueue(url, event, account) {
      const fault = faults?.take(url, event.code);
      if (fault && 'reorder' in fault) {
        held.set(url, [...(held.get(url) ?? []), { event, account, fault }]);
        return;
      }
      if (fault && 'drop' in fault) {
        const record = recordOf(url, event, account);
        record.dropped = true;
        record.fault = fault;
        records.push(record);
      } else if (fault) {
        send(url, event, account, { fault });
        send(url, event, account, { fault });
      } else {
        send(url, event, account);
      }
      release(url);
    },
    async close() {
      stop.abort();
      await Promise.allSettled([...chains.values()]);
      await agent?.close();
      agent = undefined;
    },
  };
}
