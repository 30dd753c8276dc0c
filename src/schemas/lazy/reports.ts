/**
 * Reports of an applicant group (docs/wire-contract.md §2.4, §2.5, §4.3, §4.4). A report detail's `data` depends on
 * `report_type`: income data is typed, any other type is kept as a record rather than rejected.
 */
import type * as z from 'zod';
import { zod } from '../../load/zod.js';
import { withWireRule } from '../wire-rule.js';
import { commonSchemas, isRecord, type OpenEnum, openEnum, responseObject } from './common.js';
import { type IncomeReportData, incomeReportSchemas } from './income-report.js';
import { onFirstUse } from './on-first-use.js';

/** The `report_type` values whose `data` the SDK types: any other is kept as a record. */
export const TYPED_REPORT_TYPES = ['income'] as const;

/**
 * The `report_type` values docs/wire-contract.md names (income, identity, asset). The OpenAPI
 * document gives each its own branch; identity and asset data are not shown, so their branches
 * require an object and the SDK keeps it as a record.
 */
export const KNOWN_REPORT_TYPES = [...TYPED_REPORT_TYPES, 'identity', 'asset'] as const;

/** Report names seen: `income` (the vendor's samples also write `Income`). */
export const REPORT_NAMES = ['income', 'Income'] as const;

/** One report in the reports list of a group. */
export interface ReportSummary {
  /** Report identifier (a uuid); `reports.retrieve(id)` reads the report. */
  id: string;
  /** Report name. Known values: `income` (also written `Income`); a newer value is passed through. */
  report_name: OpenEnum<(typeof REPORT_NAMES)[number]>;
  /** Whether the report data has expired (then `reports.retrieve` throws `ReportExpiredError`). */
  is_expired: boolean;
  /** When the report was created: an ISO 8601 date-time (`2024-06-05T16:00:00Z`). */
  created_at: string;
  /**
   * Applicant group identifier (a uuid). Present for household reports; an individual report may
   * leave it out or send `null`.
   */
  applicant_group_id?: string | null | undefined;
  /**
   * Applicant identifier (a uuid). Present for individual reports; a household report belongs to
   * no single applicant, so it is absent or `null`.
   */
  applicant_id?: string | null | undefined;
  /** URL path of the report's PDF, `/reports/<report_id>` (relative to the service's web host, not the API): download through `reports.downloadPdf`, which uses the detail's signed `pdf_url`. */
  path: string;
}

/** Body of `GET /api/v1/applicant_groups/{id}/reports`. */
export interface ApplicantGroupReports {
  /** Reports covering the whole household (no `applicant_id`). */
  household_reports: ReportSummary[];
  /** Reports of single applicants (each with an `applicant_id`). */
  individual_reports: ReportSummary[];
}

/** Fields of every report detail, whatever its `report_type`. */
export interface ReportDetailBase {
  /** Report identifier (a uuid). */
  report_id: string;
  /** Applicant group identifier (a uuid). */
  applicant_group_id: string;
  /** Applicant identifier (a uuid): present for individual reports; absent or `null` for household reports. */
  applicant_id?: string | null | undefined;
  /**
   * Secure link to the PDF rendering; it expires 2 hours after retrieval.
   * `reports.downloadPdf(report_id)` fetches it and refreshes a stale link once.
   */
  pdf_url: string;
}

/** A report detail whose `report_type` is `income`: `data` is typed. */
export interface IncomeReportDetail extends ReportDetailBase {
  /** Type of report data in this response: `income`. */
  report_type: 'income';
  /** The income report data. */
  data: IncomeReportData;
}

/** A report detail of any other `report_type`: `data` is kept as a record. */
export interface OtherReportDetail extends ReportDetailBase {
  /** Type of report data in this response (anything but `income`, e.g. `identity`). */
  report_type: string;
  /** Report data as sent; its shape is not documented for this report type. */
  data: Record<string, unknown>;
}

/** Body of `GET /api/v1/reports/{id}`; narrow with {@link isIncomeReport}. */
export type ReportDetail = IncomeReportDetail | OtherReportDetail;

/** Whether a report detail is an income report, narrowing its `data` to {@link IncomeReportData}. */
export function isIncomeReport(detail: ReportDetail): detail is IncomeReportDetail {
  return detail.report_type === 'income';
}

/**
 * The report schemas, built on first use and the same objects after: importing the client builds
 * none of them (docs/benchmarks.md, "Cold start, round 6"). `../reports.ts` exports each one.
 */
export const reportSchemas = /* @__PURE__ */ onFirstUse(() => {
  const z = zod();
  const { dateTimeSchema, idSchema } = commonSchemas();
  const { incomeReportDataSchema } = incomeReportSchemas();
  /** One report in the reports list of a group. */
  const reportSummarySchema = responseObject({
    id: idSchema,
    report_name: openEnum(REPORT_NAMES),
    is_expired: z.boolean(),
    created_at: dateTimeSchema,
    applicant_group_id: idSchema.nullish(),
    applicant_id: idSchema.nullish(),
    path: z.string(),
  });

  /** Body of `GET /api/v1/applicant_groups/{id}/reports`. */
  const applicantGroupReportsSchema = responseObject({
    household_reports: z.array(reportSummarySchema),
    individual_reports: z.array(reportSummarySchema),
  });

  /** Fields of every report detail. */
  const reportDetailShape = {
    report_id: idSchema,
    applicant_group_id: idSchema,
    applicant_id: idSchema.nullish(),
    pdf_url: withWireRule(z.string(), { format: 'uri' }),
  };

  /** A report detail whose `report_type` is `income`: `data` is typed. */
  const incomeReportDetailSchema = responseObject({
    ...reportDetailShape,
    report_type: z.literal('income'),
    data: incomeReportDataSchema,
  });

  /** A report detail of any other `report_type`: `data` is kept as a record. */
  const otherReportDetailSchema = responseObject({
    ...reportDetailShape,
    // In the document, never a known one: each known type has its own branch there.
    report_type: withWireRule(z.string(), { not: { enum: [...KNOWN_REPORT_TYPES] } }),
    data: z.record(z.string(), z.unknown()),
  });

  /** The schema a report detail is checked against, by its `report_type`. */
  function reportDetailSchemaFor(
    value: unknown,
  ): typeof incomeReportDetailSchema | typeof otherReportDetailSchema {
    return isRecord(value) && value.report_type === 'income'
      ? incomeReportDetailSchema
      : otherReportDetailSchema;
  }

  /**
   * Key under which a dispatching schema exposes its pick, `(value) => schema`: its output is the
   * picked schema's output. The response checker (src/core/call/compiled.ts) reads the same
   * `Symbol.for` key, so it can check such a schema without either layer importing the other.
   */
  const SCHEMA_PICK = Symbol.for('applicant-verification.schema-pick');

  const reportDetailTransform = z.unknown().transform((value, ctx): ReportDetail => {
    const result = reportDetailSchemaFor(value).safeParse(value);
    if (result.success) return result.data;
    // These issues come straight out of a zod parse; they differ from raw issues only in that
    // `input` is optional, so re-raising them keeps their codes, messages and paths intact.
    for (const issue of result.error.issues) ctx.issues.push(issue as z.core.$ZodRawIssue);
    return z.NEVER;
  });

  /**
   * Body of `GET /api/v1/reports/{id}` (docs/wire-contract.md §2.5, §4.4). Dispatches on `report_type` itself rather
   * than through a union, so a bad income report reports its real paths (`data.reports[0]...`)
   * instead of one opaque union failure, and an unknown type is kept instead of rejected.
   * Carries its pick under `SCHEMA_PICK` for the response checker.
   */
  const reportDetailSchema: z.ZodPipe<z.ZodUnknown, z.ZodTransform<ReportDetail, unknown>> = Object.assign(
    reportDetailTransform,
    {
      [SCHEMA_PICK]: reportDetailSchemaFor,
    },
  );
  return {
    reportSummarySchema,
    applicantGroupReportsSchema,
    incomeReportDetailSchema,
    otherReportDetailSchema,
    reportDetailSchema,
  };
});
