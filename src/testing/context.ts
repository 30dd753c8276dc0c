/**
 * The shared parts of one mock, handed to each concern (creation, queries, life cycle, routes)
 * so none of them reaches for globals.
 */
import type { MockClock } from './clock.js';
import type { WritableOutbox } from './outbox.js';
import type { Random } from './random.js';
import type { MockStore } from './store.js';
import type { MockWebhookEvent } from './webhooks.js';

/** Dependencies shared by the mock's modules. */
export interface MockContext {
  /** Origin the mock answers on, without a trailing slash. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly secretKey: string;
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
  /** Queues a webhook event for delivery to `url`. */
  readonly emit: (url: string | null, event: MockWebhookEvent) => void;
}
