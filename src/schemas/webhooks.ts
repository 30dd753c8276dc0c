/**
 * Webhook events. The vendor's documentation names `webhook_url` but shows no events; the shapes below
 * come from the vendor's documentation (docs/wire-contract.md §6). Every event is a JSON object
 * with a `code`. Events are read liberally: unknown fields are kept (`z.looseObject`) and an
 * unknown `code` is an {@link UnknownWebhookEvent}, not an error, because the vendor adds events
 * without notice and a receiver must not start rejecting deliveries when it does.
 *
 * Importing this module builds the schemas (for `applicant-verification/schemas` and the testing
 * kit); the client builds them on first use through `./lazy/webhooks.ts`, where they are defined.
 */

import { webhookSchemas } from './lazy/webhooks.js';
import { withZod } from './with-zod.js';

export * from './lazy/webhooks.js';

const schemas = withZod(webhookSchemas);

/** Kind of report in a `REPORT_READY` event: income, asset, identity, or a newer value. */
export const webhookReportTypeSchema = schemas.webhookReportTypeSchema;
/** `VERIFICATION_STARTED`: an applicant started a verification. */
export const verificationStartedEventSchema = schemas.verificationStartedEventSchema;
/** `VERIFICATION_COMPLETED`: a verification completed. */
export const verificationCompletedEventSchema = schemas.verificationCompletedEventSchema;
/** `REPORT_READY`: a report can be read; `applicant_id` is absent for household reports. */
export const reportReadyEventSchema = schemas.reportReadyEventSchema;
/** `BEGIN_SCREENING`: an applicant began a screening. */
export const beginScreeningEventSchema = schemas.beginScreeningEventSchema;
/** `SCREENING_COMPLETED`: one applicant's screening completed. */
export const screeningCompletedEventSchema = schemas.screeningCompletedEventSchema;
/** `SCREENING_GROUP_COMPLETED`: every screening of the group completed. */
export const screeningGroupCompletedEventSchema = schemas.screeningGroupCompletedEventSchema;
/** `BANK_NOT_SUPPORTED`: the applicant's bank (`value`) is not supported. */
export const bankNotSupportedEventSchema = schemas.bankNotSupportedEventSchema;
/** `BANK_CANNOT_CONNECT`: the applicant's bank (`value`) could not be connected. */
export const bankCannotConnectEventSchema = schemas.bankCannotConnectEventSchema;
/** `NO_BANK`: the applicant said they have no bank account. */
export const noBankEventSchema = schemas.noBankEventSchema;
/** `SHARE_BANK`: the applicant shares a bank account (with another applicant). */
export const shareBankEventSchema = schemas.shareBankEventSchema;
/** `NO_INCOME`: the applicant said they have no income. */
export const noIncomeEventSchema = schemas.noIncomeEventSchema;
/** `RE_OPEN_SCREENING`: a completed screening was re-opened by the applicant. */
export const reOpenScreeningEventSchema = schemas.reOpenScreeningEventSchema;
/** `REPORT_SOON_TO_EXPIRE`: the group's report data will expire soon. */
export const reportSoonToExpireEventSchema = schemas.reportSoonToExpireEventSchema;
/** `REPORT_EXPIRED`: the group's report data expired and can no longer be read. */
export const reportExpiredEventSchema = schemas.reportExpiredEventSchema;
/** A known event with a valid shape: a union discriminated on `code`. */
export const knownWebhookEventSchema = schemas.knownWebhookEventSchema;
/**
 * Any JSON object with a string `code`. A known code is validated against its event schema
 * (issues name the field, e.g. `report_id`); an unknown code passes through as an
 * {@link UnknownWebhookEvent}.
 */
export const webhookEventSchema = schemas.webhookEventSchema;
