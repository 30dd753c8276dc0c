/**
 * `applicant-verification/testing`: a stateful fake of the whole Applicant Income and Asset
 * Verification API for tests, scripts and local development. `createMockServer` serves it over
 * real HTTP; `createMockApi` gives the same fake in process (`mock.fetch`, no sockets). msw
 * handlers live in `applicant-verification/testing/msw`; nothing here needs msw.
 * @packageDocumentation
 * @module applicant-verification/testing
 */

export { signWebhook, WEBHOOK_SIGNATURE_HEADER } from 'applicant-verification';
export type { AccountFilter, MockAccount } from './accounts.js';
export type {
  MockApi,
  MockApiOptions,
  MockControls,
} from './api.js';
export {
  createMockApi,
  DEFAULT_BASE_URL,
  DEFAULT_CLIENT_ID,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SECRET_KEY,
} from './api.js';
export { MAX_BODY_BYTES } from './body.js';
export type { MockClock } from './clock.js';
export { createTestClock, DEFAULT_START_TIME } from './clock.js';
export { CONTROL_PREFIX } from './control-api.js';
export type { GroupViews, MockReport, ReadonlyMockState, ReportControls } from './controls.js';
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
} from './faults.js';
export type { ApplicantControls, ApplicantState, CompleteOptions } from './lifecycle.js';
export type { MockClientOptions } from './mock-clients.js';
export type { Outbox, OutboxEntry } from './outbox.js';
export type { ErrorBody, FieldError } from './responses.js';
export type { MockServer, MockServerOptions } from './server.js';
export { createMockServer } from './server.js';
export type { RequestCounts, RequestLogEntry, RequestStats, RequestStatsSummary } from './stats.js';
export type {
  ApplicantGroupRecord,
  ApplicantRecord,
  CompletionReason,
  Progress,
  ReportRecord,
  ScreeningGroupRecord,
  ScreeningRecord,
  VerificationRecord,
} from './store.js';
export { COMPLETION_REASONS, REQUEST_EXPIRY_MS } from './store.js';
export type {
  MockWebhookFaults,
  PendingWebhookFault,
  WebhookFault,
  WebhookFaultMatch,
} from './webhook-faults.js';
export type {
  Deliveries,
  DeliveryRecord,
  HouseholdReportReadyEvent,
  MockWebhookEvent,
  WebhookRetryOptions,
} from './webhooks.js';
export { SIGNATURE_HEADER, signWebhookBody } from './webhooks.js';
