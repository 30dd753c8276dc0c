/**
 * The shared parts of one mock, handed to each concern (creation, queries, life cycle, routes)
 * so none of them reaches for globals.
 */
import type { AccountBook } from '../accounts/accounts.js';
import type { MockWebhookEvent } from '../webhooks/webhooks.js';
import type { MockClock } from './clock.js';
import type { WritableOutbox } from './outbox.js';
import type { Random } from './random.js';
import type { MockStore } from './store.js';

/** What an event is delivered for: the group's receiver and the account that owns it. */
export interface WebhookOwner {
  /** Where the group's events go; `null` for nowhere. */
  readonly webhookUrl: string | null;
  /** Client id of the account the group belongs to. */
  readonly account: string;
}

/** Dependencies shared by the mock's modules. */
export interface MockContext {
  /** Origin the mock answers on, without a trailing slash. */
  readonly baseUrl: string;
  /** The accounts the mock serves; each record belongs to one of them. */
  readonly accounts: AccountBook;
  /** Applicant groups per list page. */
  readonly pageSize: number;
  /** How applicant-group creates read `monthly_rent`. */
  readonly rentUnit: 'dollars' | 'cents';
  readonly clock: MockClock;
  /** Ids of groups, applicants, verifications, screenings and reports. */
  readonly ids: Random;
  /** Figures of generated report data; separate so report contents do not shift ids. */
  readonly reportRandom: Random;
  readonly store: MockStore;
  readonly outbox: WritableOutbox;
  /** Queues a webhook event for delivery to the group's `webhookUrl`, signed with its account's key. */
  readonly emit: (group: WebhookOwner, event: MockWebhookEvent) => void;
}
