/**
 * The `data` object of an income report. Report data varies and its units are not documented, so
 * every field here is optional, accepts `null`, and unknown fields are kept; a field that is
 * present must still have the documented type. Amounts are in DOLLARS as the service reports
 * them (`1850.25`), unlike the `*_cents` fields of groups.
 *
 * Importing this module builds the schemas (for `applicant-verification/schemas` and the testing
 * kit); the client builds them on first use through `./lazy/income-report.ts`, where they are defined.
 */

import { incomeReportSchemas } from './lazy/income-report.js';
import { withZod } from './with-zod.js';

export * from './lazy/income-report.js';

const schemas = withZod(incomeReportSchemas);

/** One transaction of an income stream. */
export const transactionSchema = schemas.transactionSchema;
/** One paystub of an income stream. */
export const paystubSchema = schemas.paystubSchema;
/** One stream of income (an employer, a benefit, ...). */
export const incomeStreamSchema = schemas.incomeStreamSchema;
/** Recurring or non-recurring income: totals, monthly averages over several periods, and streams. */
export const incomeSummarySchema = schemas.incomeSummarySchema;
/** Income found in a bank or payroll connection. */
export const connectionIncomeSchema = schemas.connectionIncomeSchema;
/** Income found in a bank's transactions. */
export const bankIncomeSchema = schemas.bankIncomeSchema;
/** A connected bank and the income found in it. */
export const bankConnectionSchema = schemas.bankConnectionSchema;
/** A connected payroll account and the income found in it. */
export const payrollConnectionSchema = schemas.payrollConnectionSchema;
/** One signal behind a document's fraud risk. */
export const fraudRiskSignalSchema = schemas.fraudRiskSignalSchema;
/** A document the applicant uploaded, with its fraud assessment. */
export const uploadedDocumentSchema = schemas.uploadedDocumentSchema;
/** The outcome of one income criteria rule. */
export const criteriaRuleResultSchema = schemas.criteriaRuleResultSchema;
/** One verification's part of an income report (items of `data.reports`). */
export const verificationReportSchema = schemas.verificationReportSchema;
/** The `data` of a report whose `report_type` is `income`. */
export const incomeReportDataSchema = schemas.incomeReportDataSchema;
