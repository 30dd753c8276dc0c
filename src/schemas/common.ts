/**
 * Building blocks shared by every schema family. Responses are read liberally (the service adds
 * fields and enum values without notice), requests strictly (a bad body would send real emails).
 *
 * Importing this module builds the schemas (for `applicant-verification/schemas` and the testing
 * kit); the client builds them on first use through `./lazy/common.ts`, where they are defined.
 */
import { commonRequestSchemas, commonSchemas } from './lazy/common.js';

export * from './lazy/common.js';

const schemas = commonSchemas();
const requestSchemas = commonRequestSchemas();

/** Identifiers are uuids on the wire today, but responses accept any string so a format change cannot break reads. */
export const idSchema = schemas.idSchema;
/** ISO 8601 date-time string as sent by the service; kept as text (the SDK does not reformat wire values). */
export const dateTimeSchema = schemas.dateTimeSchema;
/** An integer amount of cents. */
export const centsSchema = schemas.centsSchema;
/** Unix timestamp of creation: seconds (fractional) or, on screening groups, milliseconds. See `toDate()`. */
export const timestampSchema = schemas.timestampSchema;
/** Status of an applicant group or screening group: not_started, in_progress, completed, or a newer value. */
export const groupStatusSchema = schemas.groupStatusSchema;
/** A status of the list filter: any string is sent; these are the known ones. */
export const filterGroupStatusSchema = schemas.filterGroupStatusSchema;
/** Kind of verification: payroll_income_verification, identity_verification, asset_verification, ... */
export const verificationTypeSchema = schemas.verificationTypeSchema;
/** An income source: bank, payroll, documents, or a newer value. */
export const incomeSourceSchema = schemas.incomeSourceSchema;
/** Why a screening or verification is complete; `not_completed` while it is not. */
export const reasonCompletedSchema = schemas.reasonCompletedSchema;
/** A required text field: blank or whitespace-only strings are rejected. */
export const requiredTextSchema = requestSchemas.requiredTextSchema;
/** An email address (syntax only: the service checks that it exists and answers 400 if not). */
export const emailSchema = requestSchemas.emailSchema;
/** A phone number in international E.164 form: `+`, the country code and number, 7 to 15 digits in all. */
export const phoneNumberSchema = requestSchemas.phoneNumberSchema;
/** An absolute http(s) URL, such as a webhook endpoint. */
export const httpUrlSchema = requestSchemas.httpUrlSchema;
/** A monthly rent: a positive whole number of dollars (not cents), at most {@link MONTHLY_RENT_MAX_DOLLARS}. */
export const monthlyRentSchema = requestSchemas.monthlyRentSchema;
/**
 * A US state spelled out in full, as the screening-group endpoint requires ("no initials"). A
 * two-letter value is rejected; when it is a USPS code the message names the state to use.
 */
export const spelledOutStateSchema = requestSchemas.spelledOutStateSchema;
/**
 * A US state, district or territory as a full name or a two-letter USPS code, case-insensitive
 * (`California`, `california`, `CA`, `ca`), sent as given. Anything else (`XX`, `Calif.`) is
 * refused with the closest spelling suggested.
 */
export const usStateSchema = requestSchemas.usStateSchema;
