/** The controls of a mock API: what a test drives and inspects it through, whatever the adapter. */
import type { MockClock } from './clock.js';
import type { GroupViews, ReadonlyMockState, ReportControls } from './controls.js';
import type { MockFaults } from './faults.js';
import type { ApplicantControls } from './lifecycle.js';
import type { Outbox } from './outbox.js';
import type { RequestStats } from './stats.js';
import type { MockWebhookFaults } from './webhook-faults.js';
import type { Deliveries } from './webhooks.js';

/** Everything a test drives and inspects the mock through, the same through every adapter. */
export interface MockControls {
  /** Client id the auth endpoint accepts. */
  clientId: string;
  /** Secret key the auth endpoint accepts; also the webhook signing key. */
  secretKey: string;
  /** The mock clock: move time with `advance()` instead of sleeping. */
  clock: MockClock;
  /** Invitations "sent" by creates. */
  outbox: Outbox;
  /** Fault injection for the next requests. */
  faults: MockFaults;
  /** Life cycle of applicants and screenings: start, complete, reopen. */
  applicants: ApplicantControls;
  /** Reports held, and report expiry. */
  reports: ReportControls;
  /** Webhook deliveries; `await deliveries.settled()` before asserting on them. */
  deliveries: Deliveries;
  /** Webhook weather for the next events: delivered twice, out of order, or not at all. */
  webhookFaults: MockWebhookFaults;
  /** The groups held, in wire form. */
  groups: GroupViews;
  /** The raw records held (read-only). */
  state: ReadonlyMockState;
  /** Requests received, per route (control API requests are not counted). */
  stats: RequestStats;
}
