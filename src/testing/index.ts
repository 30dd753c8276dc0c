/**
 * `applicant-verification/testing`: a stateful fake of the whole Applicant Income and Asset
 * Verification API for tests, scripts and local development. `createMockServer` serves it over
 * real HTTP; `createMockApi` gives the same fake in process (`mock.fetch`, no sockets). msw
 * handlers live in `applicant-verification/testing/msw`; nothing here needs msw.
 * @packageDocumentation
 * @module applicant-verification/testing
 */

export { signWebhook, WEBHOOK_SIGNATURE_HEADER } from 'applicant-verification';
export type { AccountFilter, MockAccount } from './accounts/accounts.js';
export { CONTROL_PREFIX } from './controls/control-api.js';
export type { GroupViews, MockReport, ReadonlyMockState, ReportControls } from './controls/controls.js';
export type { MockClientOptions } from './controls/mock-clients.js';
export type {
  CommitDelayFault,
  DelayAfterFault,
  Fault,
  FaultMatch,
  LatencyFault,
  ListLagFault,
  MalformedJsonFault,
  MockFaults,
  PendingFault,
  ResetFault,
  StatusFault,
  TruncatedFault,
} from './faults/faults.js';
export type {
  MockApi,
  MockApiOptions,
  MockControls,
} from './server/api.js';
export {
  createMockApi,
  DEFAULT_BASE_URL,
  DEFAULT_CLIENT_ID,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SECRET_KEY,
} from './server/api.js';
export { MAX_BODY_BYTES } from './server/body.js';
export type { ErrorBody, FieldError } from './server/responses.js';
export type { MockServer, MockServerOptions } from './server/server.js';
export { createMockServer } from './server/server.js';
export type { MockClock } from './state/clock.js';
export { createTestClock, DEFAULT_START_TIME } from './state/clock.js';
export type { ApplicantControls, ApplicantState, CompleteOptions, FailureReason } from './state/lifecycle.js';
export type { Outbox, OutboxEntry } from './state/outbox.js';
export type { RequestCounts, RequestLogEntry, RequestStats, RequestStatsSummary } from './state/stats.js';
export type {
  ApplicantGroupRecord,
  ApplicantRecord,
  CompletionReason,
  Progress,
  ReportRecord,
  ScreeningGroupRecord,
  ScreeningRecord,
  VerificationRecord,
} from './state/store.js';
export { COMPLETION_REASONS, REQUEST_EXPIRY_MS } from './state/store.js';
export type {
  MockWebhookFaults,
  PendingWebhookFault,
  WebhookFault,
  WebhookFaultMatch,
} from './webhooks/webhook-faults.js';
export type {
  Deliveries,
  DeliveryRecord,
  HouseholdReportReadyEvent,
  MockWebhookEvent,
  WebhookRetryOptions,
} from './webhooks/webhooks.js';
export { SIGNATURE_HEADER, signWebhookBody } from './webhooks/webhooks.js';
