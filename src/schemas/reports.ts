/**
 * Reports of an applicant group (docs/wire-contract.md §2.4, §2.5, §4.3, §4.4). A report detail's `data` depends on
 * `report_type`: income data is typed, any other type is kept as a record rather than rejected.
 *
 * Importing this module builds the schemas (for `applicant-verification/schemas` and the testing
 * kit); the client builds them on first use through `./lazy/reports.ts`, where they are defined.
 */

import { reportSchemas } from './lazy/reports.js';
import { withZod } from './with-zod.js';

export * from './lazy/reports.js';

const schemas = withZod(reportSchemas);

/** One report in the reports list of a group. */
export const reportSummarySchema = schemas.reportSummarySchema;
/** Body of `GET /api/v1/applicant_groups/{id}/reports`. */
export const applicantGroupReportsSchema = schemas.applicantGroupReportsSchema;
/** A report detail whose `report_type` is `income`: `data` is typed. */
export const incomeReportDetailSchema = schemas.incomeReportDetailSchema;
/** A report detail of any other `report_type`: `data` is kept as a record. */
export const otherReportDetailSchema = schemas.otherReportDetailSchema;
/**
 * Body of `GET /api/v1/reports/{id}` (docs/wire-contract.md §2.5, §4.4). Dispatches on `report_type` itself rather
 * than through a union, so a bad income report reports its real paths (`data.reports[0]...`)
 * instead of one opaque union failure, and an unknown type is kept instead of rejected.
 * Carries its pick under `SCHEMA_PICK` for the response checker.
 */
export const reportDetailSchema = schemas.reportDetailSchema;
