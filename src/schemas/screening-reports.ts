/**
 * The screening-group report (docs/wire-contract.md §4.8, §4.9): a link to its PDF, and its data.
 * The data of one applicant (individual) and of several (combined, which carries one individual
 * report per screening) differ. Every field is optional: the service's pages show only the start
 * of the shape. Unknown fields are kept.
 *
 * Importing this module builds the schemas (for `applicant-verification/schemas` and the testing
 * kit); the client builds them on first use through `./lazy/screening-reports.ts`, where they are defined.
 */

import { screeningReportSchemas } from './lazy/screening-reports.js';
import { withZod } from './with-zod.js';

export * from './lazy/screening-reports.js';

const schemas = withZod(screeningReportSchemas);

/** Answer of `GET /api/v1/screening_groups/{id}/report`. */
export const screeningGroupReportUrlSchema = schemas.screeningGroupReportUrlSchema;
/** One transaction of an income stream. */
export const screeningTransactionSchema = schemas.screeningTransactionSchema;
/** One income stream of a bank connection. */
export const screeningIncomeStreamSchema = schemas.screeningIncomeStreamSchema;
/** One bank account of a connection. */
export const screeningBankAccountSchema = schemas.screeningBankAccountSchema;
/** The income found on a bank connection. */
export const screeningConnectionIncomeSchema = schemas.screeningConnectionIncomeSchema;
/** One bank connection of a screening. */
export const screeningBankConnectionSchema = schemas.screeningBankConnectionSchema;
/** Report data of one applicant's screening. */
export const individualScreeningReportDataSchema = schemas.individualScreeningReportDataSchema;
/** Report data of several applicants: household figures and one report per screening. */
export const combinedScreeningReportDataSchema = schemas.combinedScreeningReportDataSchema;
/** Report data of a screening group: combined when it carries `screenings`, else individual. */
export const screeningReportDataSchema = schemas.screeningReportDataSchema;
