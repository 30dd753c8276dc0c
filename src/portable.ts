/**
 * Everything both entries export: the names that need no Node module. src/index.ts adds the Node
 * client and the Node-only helpers; src/edge.ts adds the fetch client and their stand-ins.
 *
 * The main entry is what a user calls: the client and its options, the errors, the documented
 * types of requests, responses and events, and the helpers the README and docs/ show. The zod
 * schemas are on `applicant-verification/schemas` (src/schemas/index.ts); builders and internals
 * stay in their modules. test/docs/exports.test.ts lists every name: a new export is added there
 * on purpose, with its documentation.
 */

export {
  type AccountCredentials,
  AccountRegistry,
  type AccountRegistryOptions,
  type AccountRoot,
  type AccountSettled,
} from './client/account-registry.js';
export type { DerivedClientOptions, PlatformRootOptions } from './client/client-family.js';
export { APIPromise, type ResponseInfo, type WithResponse } from './core/call/api-promise.js';
export type { RequestOptions } from './core/call/http.js';
export type {
  RawGetMethod,
  RawGetOptions,
  RawPostMethod,
  RawPostOptions,
  RawQueryValue,
  RawRequest,
  RawRequestMethod,
} from './core/call/raw-request.js';
export type { ValidationMode } from './core/call/validate.js';
export type { Clock } from './core/clock.js';
export type {
  Coordination,
  CoordinationFailurePolicy,
  CreateLease,
  CreateOutcome,
  CreateOutcomeRecord,
  HeldCreateLease,
  LeaseHolder,
} from './core/coordination/coordination.js';
export { InProcessCoordination } from './core/coordination/in-process-coordination.js';
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
  CoordinationStateError,
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
export type { Logger, LogLevel } from './core/observability/log.js';
export {
  type AlertTraceEvent,
  type AttemptTraceEvent,
  type LookupTraceEvent,
  type OperationTraceContext,
  type RetryTraceEvent,
  TRACE_STEP_CHANNELS,
} from './core/observability/tracing.js';
export type { ClientOptions } from './core/options.js';
export { ConfigurationError } from './core/options.js';
export type { BatchOptions, BatchProgress, Settled } from './core/results/batch.js';
export { type ListOptions, Page, PagePromise, type ToArrayOptions } from './core/results/pagination.js';
export type { StoredToken, TokenStore } from './core/token/token-store.js';
export { CorrelationConflictError } from './creates/correlation-conflict.js';
export type { CreateOnceOptions, CreateOnceResult } from './creates/create-once.js';
export type { ApplicantGroupCreateOptions, RentBelowFloorPolicy } from './creates/create-options.js';
export type { PossibleDuplicate } from './creates/duplicates.js';
export { GroupMayHaveBeenCreatedError, GroupNotFoundError } from './creates/errors.js';
export type { DuplicateGroup, DuplicateHousehold, FindDuplicatesParams } from './creates/find-duplicates.js';
export {
  type HouseholdBody,
  type HouseholdDifference,
  type HouseholdGroup,
  householdDifferences,
  isSameHousehold,
} from './creates/household-match.js';
export { CreateLeaseLostError, type LeaseLostReason } from './creates/lease-lost.js';
export {
  type AffordabilityOptions,
  type AffordabilityReason,
  type AffordabilityResult,
  type AffordabilitySource,
  type ApplicantAffordability,
  type AveragingWindow,
  affordability,
} from './helpers/affordability.js';
export { toDate, toIsoDate } from './helpers/dates.js';
export { extraFields } from './helpers/extra-fields.js';
export { centsToDollars, dollarsToCents } from './helpers/money.js';
export type { TimeSource } from './helpers/now.js';
export type {
  ApplicantGroups,
  CreateManyOptions,
  GroupLookupHint,
  WaitOptions,
} from './resources/applicant-groups.js';
export type { Auth } from './resources/auth.js';
export {
  type GroupChange,
  type GroupSnapshot,
  type GroupStore,
  MemoryGroupStore,
  type SyncOptions,
} from './resources/group-sync.js';
export { currentHouseholdReport } from './resources/household-report.js';
export { operationChannelName, TRACED_OPERATIONS, type TracedOperation } from './resources/operations.js';
export {
  type RentUnitMismatch,
  RentUnitMismatchError,
  type RentUnitMismatchPolicy,
} from './resources/rent-echo.js';
export type { Reports } from './resources/reports.js';
export type { ScreeningGroups } from './resources/screening-groups.js';
export type { Webhooks } from './resources/webhooks.js';
export { isIncomeReport } from './schemas/lazy/reports.js';
export { isCombinedScreeningReport } from './schemas/lazy/screening-reports.js';
export { isKnownWebhookEvent } from './schemas/lazy/webhooks.js';
export * from './schemas/types.js';
export { VERSION } from './version.js';
export { handleWebhook, type WebRequestWebhookOptions, webhookHandler } from './webhooks/adapters/web.js';
export {
  MemoryDeliveryStore,
  type MemoryDeliveryStoreOptions,
  type WebhookDedupeOptions,
  type WebhookDeliveryStore,
} from './webhooks/deliveries.js';
export type { WebhookHandlerOptions } from './webhooks/receive.js';
export type {
  WebhookAccountSecret,
  WebhookDelivery,
  WebhookSecretFor,
  WebhookSecretOption,
  WebhookSecrets,
} from './webhooks/secrets.js';
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
