/**
 * Webhook weather: the next N matching events are delivered twice, out of order, or not at all,
 * so a receiver can be tested against what a real sender does (the vendor states nothing about
 * ordering or repeats). Separate from request faults (faults.ts): those shape answers to the
 * client, these shape the mock's own deliveries.
 */
import * as z from 'zod';
import { createFaultQueue } from '../faults/fault-queue.js';

/** What happens to one event's delivery. */
export type WebhookFault =
  | {
      /** Never delivered (recorded with `dropped: true`). */
      drop: true;
    }
  | {
      /** Delivered twice, byte for byte the same signed body. */
      duplicate: true;
    }
  | {
      /** Held back and delivered after the next event to the same receiver (or at `settled()`). */
      reorder: true;
    };

/** Which events a webhook fault applies to; omitted fields match any. */
export interface WebhookFaultMatch {
  /** Event code, e.g. `VERIFICATION_COMPLETED`. */
  code?: string;
  /** Receiver URL (`webhook_url` of the group). */
  url?: string;
}

/** A webhook fault still waiting for events. */
export interface PendingWebhookFault {
  /** What happens to the affected deliveries. */
  fault: WebhookFault;
  /** Which events it applies to; `undefined` for any. */
  match: WebhookFaultMatch | undefined;
  /** Events it will still affect. */
  remaining: number;
}

/** Public controls of webhook faults. */
export interface MockWebhookFaults {
  /** The next `count` events matching `match` suffer `fault`. Earlier registrations are served first. */
  next(count: number, fault: WebhookFault, match?: WebhookFaultMatch): void;
  /** Drops every pending webhook fault. */
  clear(): void;
  /** Webhook faults still pending (copies). */
  pending(): PendingWebhookFault[];
}

/** Webhook-fault controls plus the hook the deliverer uses. */
export interface WebhookFaultInjector extends MockWebhookFaults {
  /** Takes the fault for one event, if any is pending and matches. */
  take(url: string, code: string): WebhookFault | undefined;
}

/** The webhook fault kinds as JSON (the control API's `POST /__mock/webhook-faults`). */
export const webhookFaultSchema: z.ZodType<WebhookFault> = z.union([
  z.strictObject({ drop: z.literal(true) }),
  z.strictObject({ duplicate: z.literal(true) }),
  z.strictObject({ reorder: z.literal(true) }),
]);

/** A webhook fault match as JSON. */
export const webhookFaultMatchSchema = z
  .strictObject({ code: z.string().min(1).optional(), url: z.string().min(1).optional() })
  .optional();

/** Creates an empty webhook-fault queue. */
export function createWebhookFaults(): WebhookFaultInjector {
  const queue = createFaultQueue<WebhookFault, WebhookFaultMatch>('webhookFaults');
  return {
    next: queue.next,
    clear: queue.clear,
    pending: queue.pending,
    take: (url, code) =>
      queue.take(({ match }) => (!match?.code || match.code === code) && (!match?.url || match.url === url)),
  };
}
