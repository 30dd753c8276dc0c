/**
 * Reports of an applicant group (spec 2.4, 2.5, 4.3, 4.4). A report detail's `data` depends on
 * `report_type`: income data is typed, any other type is kept as a record rather than rejected.
 */
import { z } from 'zod';
import { fastCheck, setFastCheck } from '../core/compiled.js';
import { dateTimeSchema, idSchema, isRecord } from './common.js';
import { incomeReportDataSchema } from './income-report.js';

/** Report names seen (spec 2.8). */
export const REPORT_NAMES = ['income'] as const;

/** One report in the reports list of a group (spec 2.4). */
export const reportSummarySchema = z.looseObject({
  /** Report identifier (uuid). */
  id: idSchema,
  /** Report name; value seen: income. */
  report_name: z.string(),
  /** Whether the report data has expired. */
  is_expired: z.boolean(),
  /** ISO 8601 date-time of creation. */
  created_at: dateTimeSchema,
  /** Applicant group identifier (uuid). */
  applicant_group_id: idSchema,
  /** Applicant identifier (uuid); household reports belong to no single applicant, so it may be absent or `null`. */
  applicant_id: idSchema.nullable().optional(),
  /** Relative path of the report, `/reports/<report_id>`. */
  path: z.string(),
});
/** One report in the reports list of a group. */
export type ReportSummary = z.infer<typeof reportSummarySchema>;

/** Body of `GET /api/v1/applicant_groups/{id}/reports` (spec 4.3). */
export const applicantGroupReportsSchema = z.looseObject({
  /** Reports covering the whole household. */
  household_reports: z.array(reportSummarySchema),
  /** Reports of single applicants. */
  individual_reports: z.array(reportSummarySchema),
});
/** Body of `GET /api/v1/applicant_groups/{id}/reports`. */
export type ApplicantGroupReports = z.infer<typeof applicantGroupReportsSchema>;

/** Fields of every report detail (spec 2.5). */
const reportDetailShape = {
  /** Report identifier (uuid). */
  report_id: idSchema,
  /** Applicant group identifier (uuid). */
  applicant_group_id: idSchema,
  /** Applicant identifier (uuid); present only for individual reports, absent for household reports. */
  applicant_id: idSchema.optional(),
  /** Secure link to the PDF; expires 2 hours after the report was retrieved. */
  pdf_url: z.string(),
};

/** A report detail whose `report_type` is `income`: `data` is typed. */
export const incomeReportDetailSchema = z.looseObject({
  ...reportDetailShape,
  /** Type of report data in this response. */
  report_type: z.literal('income'),
  /** The income report data. */
  data: incomeReportDataSchema,
});
/** A report detail whose `report_type` is `income`. */
export type IncomeReportDetail = z.infer<typeof incomeReportDetailSchema>;

/** A report detail of any other `report_type`: `data` is kept as a record. */
export const otherReportDetailSchema = z.looseObject({
  ...reportDetailShape,
  /** Type of report data in this response (anything but `income`). */
  report_type: z.string(),
  /** Report data; its shape is not documented for this report type. */
  data: z.record(z.string(), z.unknown()),
});
/** A report detail of any other `report_type`. */
export type OtherReportDetail = z.infer<typeof otherReportDetailSchema>;

/** Body of `GET /api/v1/reports/{id}`; narrow with {@link isIncomeReport}. */
export type ReportDetail = IncomeReportDetail | OtherReportDetail;

/**
 * Body of `GET /api/v1/reports/{id}` (spec 2.5, 4.4). Dispatches on `report_type` itself rather
 * than through a union, so a bad income report reports its real paths (`data.reports[0]...`)
 * instead of one opaque union failure, and an unknown type is kept instead of rejected.
 */
export const reportDetailSchema = z.unknown().transform((value, ctx): ReportDetail => {
  const schema =
    isRecord(value) && value.report_type === 'income' ? incomeReportDetailSchema : otherReportDetailSchema;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // These issues come straight out of a zod parse; they differ from raw issues only in that
  // `input` is optional, so re-raising them keeps their codes, messages and paths intact.
  for (const issue of result.error.issues) ctx.issues.push(issue as z.core.$ZodRawIssue);
  return z.NEVER;
});

// The dispatch above is opaque to the response fast path (core/compiled.ts), so declare it: a
// detail that passes its type's compiled check is what the transform returns, unchanged.
setFastCheck(reportDetailSchema, (value) => {
  const schema =
    isRecord(value) && value.report_type === 'income' ? incomeReportDetailSchema : otherReportDetailSchema;
  return fastCheck(schema)?.(value) === true;
});

/** Whether a report detail is an income report, narrowing its `data` to {@link IncomeReportData}. */
export function isIncomeReport(detail: ReportDetail): detail is IncomeReportDetail {
  return detail.report_type === 'income';
}
