/**
 * Building blocks shared by every schema family. Responses are read liberally (the service adds
 * fields and enum values without notice), requests strictly (a bad body would send real emails).
 *
 * Importing this module builds the schemas (for `applicant-verification/schemas` and the testing
 * kit); the client builds them on first use through `./lazy/common.ts`, where they are defined.
 */

import { commonSchemas } from './lazy/common.js';
import { withZod } from './with-zod.js';

export * from './lazy/common.js';

const schemas = withZod(commonSchemas);

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
