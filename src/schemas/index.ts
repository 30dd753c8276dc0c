/**
 * `applicant-verification/schemas`: the zod schemas of every request, response and webhook event, the
 * lists of values the API documents, and the documented types, for users who validate what they
 * store themselves (a group read back from a database, an event taken off a queue). The schemas are
 * built from the definitions the client validates with: a response schema keeps unknown fields and
 * accepts unknown enum strings; a request schema rejects unknown keys (docs/types.md). Importing
 * this entry loads zod and the schemas (the package's build gives it copies of its own), not the
 * client.
 * @packageDocumentation
 * @module applicant-verification/schemas
 */
export {
  applicantCreateParamsSchema,
  applicantGroupCreateParamsSchema,
  applicantGroupListParamsSchema,
  applicantGroupListResponseSchema,
  applicantGroupSchema,
  applicantSchema,
  propertyCreateParamsSchema,
  propertySchema,
  verificationRequestSchema,
  verificationSchema,
  verificationStatusSchema,
} from './applicant-groups.js';
export {
  COMPLETION_REASONS,
  FILTER_GROUP_STATUSES,
  filterGroupStatusSchema,
  GROUP_STATUSES,
  groupStatusSchema,
  INCOME_SOURCES,
  incomeSourceSchema,
  isKnownGroupStatus,
  REASONS_COMPLETED,
  REQUEST_INCOME_SOURCES,
  REQUEST_VERIFICATION_TYPES,
  reasonCompletedSchema,
  VERIFICATION_TYPES,
  verificationTypeSchema,
} from './common.js';
export {
  bankConnectionSchema,
  bankIncomeSchema,
  CRITERIA_RESULTS,
  connectionIncomeSchema,
  criteriaRuleResultSchema,
  FRAUD_RISKS,
  fraudRiskSignalSchema,
  incomeReportDataSchema,
  incomeStreamSchema,
  incomeSummarySchema,
  PAY_FREQUENCIES,
  PAY_RATES,
  payrollConnectionSchema,
  paystubSchema,
  transactionSchema,
  uploadedDocumentSchema,
  verificationReportSchema,
} from './income-report.js';
export {
  isRentUnit,
  MONTHLY_RENT_FLOOR_CENTS,
  MONTHLY_RENT_MAX_DOLLARS,
  RENT_UNITS,
} from './rent.js';
export {
  applicantGroupReportsSchema,
  incomeReportDetailSchema,
  otherReportDetailSchema,
  REPORT_NAMES,
  reportDetailSchema,
  reportSummarySchema,
} from './reports.js';
export {
  APPROVAL_RECOMMENDATIONS,
  SCREENING_STATUSES,
  screeningApplicantCreateParamsSchema,
  screeningGroupCreateParamsSchema,
  screeningGroupListParamsSchema,
  screeningGroupListResponseSchema,
  screeningGroupSchema,
  screeningPropertyCreateParamsSchema,
  screeningSchema,
} from './screening-groups.js';
export {
  combinedScreeningReportDataSchema,
  individualScreeningReportDataSchema,
  SCREENING_ACCOUNT_TYPES,
  screeningBankAccountSchema,
  screeningBankConnectionSchema,
  screeningConnectionIncomeSchema,
  screeningGroupReportUrlSchema,
  screeningIncomeStreamSchema,
  screeningReportDataSchema,
  screeningTransactionSchema,
} from './screening-reports.js';
export type * from './types.js';
export {
  bankCannotConnectEventSchema,
  bankNotSupportedEventSchema,
  beginScreeningEventSchema,
  isKnownWebhookEventCode,
  knownWebhookEventSchema,
  noBankEventSchema,
  noIncomeEventSchema,
  reOpenScreeningEventSchema,
  reportExpiredEventSchema,
  reportReadyEventSchema,
  reportSoonToExpireEventSchema,
  screeningCompletedEventSchema,
  screeningGroupCompletedEventSchema,
  shareBankEventSchema,
  verificationCompletedEventSchema,
  verificationStartedEventSchema,
  WEBHOOK_EVENT_CODES,
  WEBHOOK_REPORT_TYPES,
  webhookEventSchema,
  webhookReportTypeSchema,
} from './webhooks.js';
