/** The controls of a mock API: what a test drives and inspects it through, whatever the adapter. */
import type { MockAccount } from '../accounts/accounts.js';
import type { MockFaults } from '../faults/faults.js';
import type { MockClock } from '../state/clock.js';
import type { ApplicantControls } from '../state/lifecycle.js';
import type { Outbox } from '../state/outbox.js';
import type { RequestStats } from '../state/stats.js';
import type { MockWebhookFaults } from '../webhooks/webhook-faults.js';
import type { Deliveries } from '../webhooks/webhooks.js';
import type { GroupViews, ReadonlyMockState, ReportControls } from './controls.js';

/** Everything a test drives and inspects the mock through, the same through every adapter. */
export interface MockControls {
  /** Client id of the mock's first (with `clientId` / `secretKey` options: only) account. */
  clientId: string;
  /**
   * Secret key of the first account; also the key its webhook deliveries are signed with, as the
   * service signs them (unless a test set its `webhookSecret`).
   */
  secretKey: string;
  /** Every account the mock serves, the first first (copies). */
  accounts: MockAccount[];
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
