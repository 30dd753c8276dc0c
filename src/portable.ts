/**
 * Everything both entries export: the names that need no Node module. src/index.ts adds the Node
 * client and the Node-only helpers; src/edge.ts adds the fetch client and their stand-ins.
 */
export { APIPromise, type ResponseInfo, type WithResponse } from './core/api-promise.js';
export { type BatchOptions, type BatchProgress, mapSettled, type Settled } from './core/batch.js';
export type { Clock } from './core/clock.js';
export type {
  Coordination,
  CoordinationFailurePolicy,
  CreateLease,
  CreateOutcome,
  CreateOutcomeRecord,
  HeldCreateLease,
  LeaseHolder,
} from './core/coordination.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  type APIErrorInit,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ClientClosedError,
  ConflictError,
  formatPath,
  GroupMayHaveBeenCreatedError,
  GroupNotFoundError,
  InternalServerError,
  NotFoundError,
  PaginationLimitError,
  PermissionDeniedError,
  RateLimitError,
  ReportExpiredError,
  RequestOutcomeUnknownError,
  RequestValidationError,
  type ResponseHeaders,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
  type ValidationIssue,
  VerificationError,
  WebhookVerificationError,
} from './core/errors.js';
export type { RequestOptions } from './core/http.js';
export { InProcessCoordination } from './core/in-process-coordination.js';
export { isLogLevel, type Logger, type LogLevel } from './core/log.js';
export type { ClientOptions } from './core/options.js';
export { ConfigurationError } from './core/options.js';
export { MAX_PAGES, Page, PagePromise, type ToArrayOptions } from './core/pagination.js';
export type {
  RawGetMethod,
  RawGetOptions,
  RawPostMethod,
  RawPostOptions,
  RawQueryValue,
  RawRequest,
  RawRequestMethod,
} from './core/raw-request.js';
export { maskText } from './core/redact.js';
export type { StoredToken, TokenStore } from './core/token-store.js';
export {
  type AlertTraceEvent,
  type AttemptTraceEvent,
  type LookupTraceEvent,
  type OperationTraceContext,
  type RetryTraceEvent,
  TRACE_CHANNEL_PREFIX,
  TRACE_STEP_CHANNELS,
} from './core/tracing.js';
export type { ValidationMode } from './core/validate.js';
export * from './helpers/index.js';
export {
  ApplicantGroups,
  type GroupLookupHint,
  isSettledGroup,
  MIN_POLL_INTERVAL_MS,
  type WaitOptions,
} from './resources/applicant-groups.js';
export { Auth } from './resources/auth.js';
export { CorrelationConflictError } from './resources/correlation-conflict.js';
export type { CreateOnceOptions, CreateOnceResult } from './resources/create-once.js';
export type { ApplicantGroupCreateOptions, RentBelowFloorPolicy } from './resources/create-options.js';
export { CLOCK_SKEW_ALLOWANCE_MS } from './resources/group-lookup.js';
export {
  DEFAULT_SYNC_MARGIN_MS,
  type GroupChange,
  type GroupSnapshot,
  type GroupStore,
  MemoryGroupStore,
  type SyncOptions,
} from './resources/group-sync.js';
export {
  type HouseholdBody,
  type HouseholdDifference,
  type HouseholdGroup,
  householdDifferences,
  isSameHousehold,
  matchesHousehold,
} from './resources/household-match.js';
export { currentHouseholdReport } from './resources/household-report.js';
export { operationChannelName, TRACED_OPERATIONS, type TracedOperation } from './resources/operations.js';
export {
  type RentUnitMismatch,
  RentUnitMismatchError,
  type RentUnitMismatchPolicy,
} from './resources/rent-echo.js';
export { Reports } from './resources/reports.js';
export { ScreeningGroups } from './resources/screening-groups.js';
export { Webhooks } from './resources/webhooks.js';
export * from './schemas/index.js';
export * from './schemas/webhooks.js';
export { VERSION } from './version.js';
export {
  DEFAULT_WEBHOOK_MAX_BODY_BYTES,
  handleWebhook,
  type WebRequestWebhookOptions,
  webhookHandler,
} from './webhooks/adapters/web.js';
export {
  DEFAULT_WEBHOOK_DEDUPE_WINDOW_MS,
  MemoryDeliveryStore,
  type MemoryDeliveryStoreOptions,
  type WebhookDedupeOptions,
  type WebhookDeliveryStore,
} from './webhooks/deliveries.js';
export type { WebhookHandlerOptions } from './webhooks/receive.js';
export {
  signWebhook,
  unwrapWebhook,
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookSignature,
} from './webhooks/verify.js';
export { unwrapWebhookAsync, verifyWebhookAsync } from './webhooks/verify-async.js';
