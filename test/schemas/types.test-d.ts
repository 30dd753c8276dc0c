import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { VerificationClient } from '../../src/client/node-client.js';
import { isIncomeReport } from '../../src/index.js';
import { openEnum } from '../../src/schemas/common.js';
import type * as S from '../../src/schemas/index.js';
import type {
  Applicant,
  ApplicantGroup,
  ApplicantGroupCreateInCents,
  ApplicantGroupCreateInDollars,
  ApplicantGroupCreateParams,
  ApplicantGroupListParams,
  ApplicantGroupListResponse,
  ApplicantGroupReports,
  applicantGroupListParamsSchema,
  BankConnection,
  CriteriaRuleResult,
  FilterGroupStatus,
  FraudRiskSignal,
  IncomeReportData,
  IncomeReportDetail,
  IncomeStream,
  IncomeSummary,
  OpenEnum,
  OtherReportDetail,
  PayrollConnection,
  Paystub,
  Property,
  ReportDetail,
  ReportSummary,
  reportDetailSchema,
  Screening,
  ScreeningGroup,
  ScreeningGroupCreateParams,
  ScreeningGroupListParams,
  ScreeningGroupListResponse,
  screeningGroupListParamsSchema,
  Transaction,
  UploadedDocument,
  Verification,
  VerificationReport,
} from '../../src/schemas/index.js';

describe('openEnum', () => {
  it('keeps the known literals while accepting any string', () => {
    const schema = openEnum(['a', 'b']);
    type Value = z.infer<typeof schema>;
    expectTypeOf<Value>().toEqualTypeOf<OpenEnum<'a' | 'b'>>();
    expectTypeOf<'a'>().toExtend<Value>();
    expectTypeOf<'anything else'>().toExtend<Value>();
    expectTypeOf<Value>().toExtend<string>();
    expectTypeOf<number>().not.toExtend<Value>();
    // The literals survive: the type is not collapsed into plain `string`.
    expectTypeOf<Value>().not.toEqualTypeOf<string>();
  });
});

describe('applicant groups', () => {
  it('ApplicantGroup has the documented fields with their types', () => {
    expectTypeOf<ApplicantGroup['id']>().toEqualTypeOf<string>();
    expectTypeOf<ApplicantGroup['decision_maker_display_name']>().toEqualTypeOf<string>();
    expectTypeOf<ApplicantGroup['property']>().toEqualTypeOf<Property>();
    expectTypeOf<'in_progress'>().toExtend<ApplicantGroup['status']>();
    expectTypeOf<'pending'>().toExtend<ApplicantGroup['status']>();
    expectTypeOf<ApplicantGroup['status']>().toExtend<string>();
    expectTypeOf<ApplicantGroup['created_at_timestamp']>().toEqualTypeOf<number>();
    expectTypeOf<ApplicantGroup['monthly_rent_cents']>().toEqualTypeOf<number>();
    expectTypeOf<ApplicantGroup['unit_number']>().toEqualTypeOf<string>();
    expectTypeOf<ApplicantGroup['unit_id']>().toEqualTypeOf<string | null>();
    expectTypeOf<ApplicantGroup['is_free']>().toEqualTypeOf<boolean>();
    expectTypeOf<ApplicantGroup['is_decision_maker_paying']>().toEqualTypeOf<boolean>();
    expectTypeOf<ApplicantGroup['correlation_id']>().toEqualTypeOf<string | null>();
    expectTypeOf<'payroll_income_verification'>().toExtend<ApplicantGroup['verification_types'][number]>();
    expectTypeOf<ApplicantGroup['is_expired']>().toEqualTypeOf<boolean>();
    expectTypeOf<ApplicantGroup['applicants']>().toEqualTypeOf<Applicant[]>();
    // No index signature: a typo does not compile; unknown fields are read with extraFields().
    expectTypeOf<ApplicantGroup>().not.toHaveProperty('some_new_field');
    expectTypeOf<string>().not.toExtend<keyof ApplicantGroup>();
  });

  it('Property, Applicant and Verification have the documented fields', () => {
    expectTypeOf<Property>().toHaveProperty('zip_code').toEqualTypeOf<string>();
    expectTypeOf<Property['state']>().toEqualTypeOf<string>();
    expectTypeOf<Applicant['email']>().toEqualTypeOf<string>();
    expectTypeOf<Applicant['phone_number']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Applicant['created_at']>().toEqualTypeOf<string>();
    expectTypeOf<Applicant['verifications']>().toEqualTypeOf<Verification[]>();
    expectTypeOf<'asset_verification'>().toExtend<Verification['type']>();
    expectTypeOf<'in_progress'>().toExtend<Verification['status']>();
  });

  it('the list response holds groups and a count', () => {
    expectTypeOf<ApplicantGroupListResponse['applicant_groups']>().toEqualTypeOf<ApplicantGroup[]>();
    expectTypeOf<ApplicantGroupListResponse['total_count']>().toEqualTypeOf<number | null | undefined>();
  });
});

describe('reports', () => {
  it('ReportSummary and ApplicantGroupReports', () => {
    expectTypeOf<ReportSummary['is_expired']>().toEqualTypeOf<boolean>();
    expectTypeOf<ReportSummary['path']>().toEqualTypeOf<string>();
    expectTypeOf<ReportSummary['applicant_id']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<ApplicantGroupReports['household_reports']>().toEqualTypeOf<ReportSummary[]>();
    expectTypeOf<ApplicantGroupReports['individual_reports']>().toEqualTypeOf<ReportSummary[]>();
  });

  it('ReportDetail is a union that isIncomeReport narrows', () => {
    expectTypeOf<ReportDetail>().toEqualTypeOf<IncomeReportDetail | OtherReportDetail>();
    expectTypeOf<z.output<typeof reportDetailSchema>>().toEqualTypeOf<ReportDetail>();
    expectTypeOf<IncomeReportDetail['report_type']>().toEqualTypeOf<'income'>();
    expectTypeOf<IncomeReportDetail['data']>().toEqualTypeOf<IncomeReportData>();
    expectTypeOf<OtherReportDetail['data']>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<ReportDetail['applicant_id']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<ReportDetail['pdf_url']>().toEqualTypeOf<string>();

    const detail = {} as ReportDetail;
    if (isIncomeReport(detail)) {
      expectTypeOf(detail.data).toEqualTypeOf<IncomeReportData>();
      expectTypeOf(detail.data.reports).toEqualTypeOf<VerificationReport[] | null | undefined>();
    } else {
      expectTypeOf(detail).toEqualTypeOf<OtherReportDetail>();
      expectTypeOf(detail.data).toEqualTypeOf<Record<string, unknown>>();
    }
  });

  it('income report data is optional but typed', () => {
    expectTypeOf<IncomeReportData['recurring']>().toEqualTypeOf<IncomeSummary | null | undefined>();
    expectTypeOf<IncomeReportData['criteria_rule_results']>().toEqualTypeOf<
      CriteriaRuleResult[] | null | undefined
    >();
    expectTypeOf<IncomeReportData['uploaded_documents']>().toEqualTypeOf<
      UploadedDocument[] | null | undefined
    >();
    expectTypeOf<IncomeReportData['property_monthly_rent_cents']>().toEqualTypeOf<
      number | null | undefined
    >();
    expectTypeOf<IncomeSummary['three_month_avg_monthly']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<IncomeSummary['twelve_month_avg_monthly']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<IncomeSummary['total']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<IncomeSummary['income_streams']>().toEqualTypeOf<IncomeStream[] | null | undefined>();
    expectTypeOf<IncomeStream['transactions']>().toEqualTypeOf<Transaction[] | null | undefined>();
    expectTypeOf<IncomeStream['paystubs']>().toEqualTypeOf<Paystub[] | null | undefined>();
    expectTypeOf<IncomeStream['pay_gap_after_transaction_indexes']>().toEqualTypeOf<
      number[] | null | undefined
    >();
    expectTypeOf<Transaction['date']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Paystub['net_pay']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<VerificationReport['bank_connections']>().toEqualTypeOf<
      BankConnection[] | null | undefined
    >();
    expectTypeOf<VerificationReport['payroll_connections']>().toEqualTypeOf<
      PayrollConnection[] | null | undefined
    >();
    expectTypeOf<'finished'>().toExtend<NonNullable<VerificationReport['reason_completed']>>();
    expectTypeOf<PayrollConnection['end_date']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<PayrollConnection['is_name_mismatched']>().toEqualTypeOf<boolean | null | undefined>();
    expectTypeOf<'Biweekly'>().toExtend<NonNullable<PayrollConnection['pay_frequency']>>();
    expectTypeOf<NonNullable<BankConnection['accounts']>>().toEqualTypeOf<Record<string, unknown>[]>();
    expectTypeOf<UploadedDocument['fraud_risk_signals']>().toEqualTypeOf<
      FraudRiskSignal[] | null | undefined
    >();
    expectTypeOf<'low'>().toExtend<NonNullable<UploadedDocument['fraud_risk']>>();
    expectTypeOf<CriteriaRuleResult['multiplier_threshold']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<'passed'>().toExtend<NonNullable<CriteriaRuleResult['result']>>();
  });
});

describe('screening groups', () => {
  it('ScreeningGroup and Screening have the documented fields', () => {
    expectTypeOf<ScreeningGroup['screenings']>().toEqualTypeOf<Screening[] | null | undefined>();
    // Only the id is sure: the service's own example omits several fields.
    expectTypeOf<{ id: 'x' }>().toExtend<ScreeningGroup>();
    expectTypeOf<'completed'>().toExtend<ScreeningGroup['status']>();
    expectTypeOf<ScreeningGroup['monthly_rent_cents']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<ScreeningGroup['is_report_expired']>().toEqualTypeOf<boolean | null | undefined>();
    expectTypeOf<ScreeningGroup['income_multiplier_threshold']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<'approve'>().toExtend<NonNullable<ScreeningGroup['approval_recommendation']>>();
    expectTypeOf<ScreeningGroup['correlation_id']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<ScreeningGroup['created_at_timestamp']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<'not_started'>().toExtend<Screening['screening_status']>();
    expectTypeOf<'bank_cannot_connect'>().toExtend<Screening['reason_completed']>();
    expectTypeOf<Screening['reason_completed']>().toExtend<string>();
    expectTypeOf<ScreeningGroupListResponse['screening_groups']>().toEqualTypeOf<ScreeningGroup[]>();
    expectTypeOf<ScreeningGroupListResponse['total_count']>().toEqualTypeOf<number | null | undefined>();
  });
});

describe('request types', () => {
  it('ApplicantGroupCreateParams', () => {
    expectTypeOf<ApplicantGroupCreateInDollars['monthly_rent']>().toEqualTypeOf<number>();
    expectTypeOf<ApplicantGroupCreateInCents['monthly_rent_cents']>().toEqualTypeOf<number>();
    expectTypeOf<ApplicantGroupCreateParams['webhook_url']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ApplicantGroupCreateParams['applicants'][number]['phone_number']>().toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf<{
      applicants: [{ first_name: 'A'; last_name: 'B'; email: 'a@b.co' }];
      property: { name: 'P'; street_address: 'S'; city: 'C'; state: 'CA'; zip_code: '1' };
      decision_maker_display_name: 'D';
      monthly_rent: 1;
    }>().toExtend<ApplicantGroupCreateParams>();
    expectTypeOf<{ applicants: [] }>().not.toExtend<ApplicantGroupCreateParams>();
  });

  it('ApplicantGroupCreateParams: the rent in dollars or in cents, exactly one', () => {
    const fields = {
      applicants: [{ first_name: 'A', last_name: 'B', email: 'a@b.co' }],
      property: { name: 'P', street_address: 'S', city: 'C', state: 'CA', zip_code: '1' },
      decision_maker_display_name: 'D',
    };
    expectTypeOf({ ...fields, monthly_rent_cents: 185_000 }).toExtend<ApplicantGroupCreateParams>();
    expectTypeOf({ ...fields, monthly_rent: 1850 }).toExtend<ApplicantGroupCreateParams>();
    expectTypeOf({
      ...fields,
      monthly_rent: 1850,
      monthly_rent_cents: 185_000,
    }).not.toExtend<ApplicantGroupCreateParams>();
    expectTypeOf(fields).not.toExtend<ApplicantGroupCreateParams>();
  });

  it('ScreeningGroupCreateParams', () => {
    expectTypeOf<ScreeningGroupCreateParams['is_decision_maker_paying']>().toEqualTypeOf<boolean>();
    expectTypeOf<ScreeningGroupCreateParams['income_multiplier_threshold']>().toEqualTypeOf<
      number | undefined
    >();
    expectTypeOf<ScreeningGroupCreateParams['criteria_rule_set_id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<
      ScreeningGroupCreateParams['applicants'][number]['applicant_email']
    >().toEqualTypeOf<string>();
  });

  it('list params: caller-friendly input, query-record output', () => {
    expectTypeOf<ApplicantGroupListParams['created_after']>().toEqualTypeOf<number | Date | undefined>();
    expectTypeOf<ApplicantGroupListParams['page']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ApplicantGroupListParams['search']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ApplicantGroupListParams['correlation_id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<['in_progress', 'completed']>().toExtend<
      NonNullable<ApplicantGroupListParams['statuses']>
    >();
    // A filter takes any string (the service shows `pending`, outside the spec's values).
    expectTypeOf<['pending', 'archived']>().toExtend<NonNullable<ApplicantGroupListParams['statuses']>>();
    expectTypeOf<FilterGroupStatus>().toEqualTypeOf<
      OpenEnum<'not_started' | 'in_progress' | 'completed' | 'pending'>
    >();
    expectTypeOf<z.output<typeof applicantGroupListParamsSchema>>().toEqualTypeOf<Record<string, string>>();
    expectTypeOf<ScreeningGroupListParams>().toEqualTypeOf<{ page?: number | undefined }>();
    expectTypeOf<z.output<typeof screeningGroupListParamsSchema>>().toEqualTypeOf<Record<string, string>>();
  });
});

// ---------------------------------------------------------------------------------------------
// The documented interfaces are exactly what the schemas parse and produce: each is equal (both
// directions) to z.input and z.output of its schema, so the two cannot drift apart.
// ---------------------------------------------------------------------------------------------

describe('each public interface is exactly z.input and z.output of its schema', () => {
  it('applicant groups', () => {
    expectTypeOf<z.output<typeof S.propertySchema>>().toEqualTypeOf<Property>();
    expectTypeOf<z.input<typeof S.propertySchema>>().toEqualTypeOf<Property>();
    expectTypeOf<z.output<typeof S.verificationSchema>>().toEqualTypeOf<Verification>();
    expectTypeOf<z.input<typeof S.verificationSchema>>().toEqualTypeOf<Verification>();
    expectTypeOf<z.output<typeof S.applicantSchema>>().toEqualTypeOf<Applicant>();
    expectTypeOf<z.input<typeof S.applicantSchema>>().toEqualTypeOf<Applicant>();
    expectTypeOf<z.output<typeof S.applicantGroupSchema>>().toEqualTypeOf<ApplicantGroup>();
    expectTypeOf<z.input<typeof S.applicantGroupSchema>>().toEqualTypeOf<ApplicantGroup>();
    expectTypeOf<
      z.output<typeof S.applicantGroupListResponseSchema>
    >().toEqualTypeOf<ApplicantGroupListResponse>();
    expectTypeOf<
      z.input<typeof S.applicantGroupListResponseSchema>
    >().toEqualTypeOf<ApplicantGroupListResponse>();
  });

  it('applicant-group requests', () => {
    expectTypeOf<z.input<typeof S.verificationRequestSchema>>().toEqualTypeOf<S.VerificationRequest>();
    expectTypeOf<z.output<typeof S.verificationRequestSchema>>().toEqualTypeOf<S.VerificationRequest>();
    expectTypeOf<z.input<typeof S.applicantCreateParamsSchema>>().toEqualTypeOf<S.ApplicantCreateParams>();
    expectTypeOf<z.output<typeof S.applicantCreateParamsSchema>>().toEqualTypeOf<S.ApplicantCreateParams>();
    expectTypeOf<z.input<typeof S.propertyCreateParamsSchema>>().toEqualTypeOf<S.PropertyCreateParams>();
    expectTypeOf<z.output<typeof S.propertyCreateParamsSchema>>().toEqualTypeOf<S.PropertyCreateParams>();
    expectTypeOf<
      z.input<typeof S.applicantGroupCreateParamsSchema>
    >().toEqualTypeOf<ApplicantGroupCreateParams>();
    expectTypeOf<
      z.output<typeof S.applicantGroupCreateParamsSchema>
    >().toEqualTypeOf<ApplicantGroupCreateParams>();
    expectTypeOf<
      z.input<typeof S.applicantGroupListParamsSchema>
    >().toEqualTypeOf<ApplicantGroupListParams>();
    expectTypeOf<z.output<typeof S.applicantGroupListParamsSchema>>().toEqualTypeOf<Record<string, string>>();
  });

  it('reports', () => {
    expectTypeOf<z.output<typeof S.reportSummarySchema>>().toEqualTypeOf<ReportSummary>();
    expectTypeOf<z.input<typeof S.reportSummarySchema>>().toEqualTypeOf<ReportSummary>();
    expectTypeOf<z.output<typeof S.applicantGroupReportsSchema>>().toEqualTypeOf<ApplicantGroupReports>();
    expectTypeOf<z.input<typeof S.applicantGroupReportsSchema>>().toEqualTypeOf<ApplicantGroupReports>();
    expectTypeOf<z.output<typeof S.incomeReportDetailSchema>>().toEqualTypeOf<IncomeReportDetail>();
    expectTypeOf<z.input<typeof S.incomeReportDetailSchema>>().toEqualTypeOf<IncomeReportDetail>();
    expectTypeOf<z.output<typeof S.otherReportDetailSchema>>().toEqualTypeOf<OtherReportDetail>();
    expectTypeOf<z.input<typeof S.otherReportDetailSchema>>().toEqualTypeOf<OtherReportDetail>();
    expectTypeOf<z.output<typeof reportDetailSchema>>().toEqualTypeOf<ReportDetail>();
  });

  it('the income report tree', () => {
    expectTypeOf<z.output<typeof S.transactionSchema>>().toEqualTypeOf<Transaction>();
    expectTypeOf<z.input<typeof S.transactionSchema>>().toEqualTypeOf<Transaction>();
    expectTypeOf<z.output<typeof S.paystubSchema>>().toEqualTypeOf<Paystub>();
    expectTypeOf<z.input<typeof S.paystubSchema>>().toEqualTypeOf<Paystub>();
    expectTypeOf<z.output<typeof S.incomeStreamSchema>>().toEqualTypeOf<IncomeStream>();
    expectTypeOf<z.input<typeof S.incomeStreamSchema>>().toEqualTypeOf<IncomeStream>();
    expectTypeOf<z.output<typeof S.incomeSummarySchema>>().toEqualTypeOf<IncomeSummary>();
    expectTypeOf<z.input<typeof S.incomeSummarySchema>>().toEqualTypeOf<IncomeSummary>();
    expectTypeOf<z.output<typeof S.connectionIncomeSchema>>().toEqualTypeOf<S.ConnectionIncome>();
    expectTypeOf<z.input<typeof S.connectionIncomeSchema>>().toEqualTypeOf<S.ConnectionIncome>();
    expectTypeOf<z.output<typeof S.bankIncomeSchema>>().toEqualTypeOf<S.BankIncome>();
    expectTypeOf<z.input<typeof S.bankIncomeSchema>>().toEqualTypeOf<S.BankIncome>();
    expectTypeOf<z.output<typeof S.bankConnectionSchema>>().toEqualTypeOf<BankConnection>();
    expectTypeOf<z.input<typeof S.bankConnectionSchema>>().toEqualTypeOf<BankConnection>();
    expectTypeOf<z.output<typeof S.payrollConnectionSchema>>().toEqualTypeOf<PayrollConnection>();
    expectTypeOf<z.input<typeof S.payrollConnectionSchema>>().toEqualTypeOf<PayrollConnection>();
    expectTypeOf<z.output<typeof S.fraudRiskSignalSchema>>().toEqualTypeOf<FraudRiskSignal>();
    expectTypeOf<z.input<typeof S.fraudRiskSignalSchema>>().toEqualTypeOf<FraudRiskSignal>();
    expectTypeOf<z.output<typeof S.uploadedDocumentSchema>>().toEqualTypeOf<UploadedDocument>();
    expectTypeOf<z.input<typeof S.uploadedDocumentSchema>>().toEqualTypeOf<UploadedDocument>();
    expectTypeOf<z.output<typeof S.criteriaRuleResultSchema>>().toEqualTypeOf<CriteriaRuleResult>();
    expectTypeOf<z.input<typeof S.criteriaRuleResultSchema>>().toEqualTypeOf<CriteriaRuleResult>();
    expectTypeOf<z.output<typeof S.verificationReportSchema>>().toEqualTypeOf<VerificationReport>();
    expectTypeOf<z.input<typeof S.verificationReportSchema>>().toEqualTypeOf<VerificationReport>();
    expectTypeOf<z.output<typeof S.incomeReportDataSchema>>().toEqualTypeOf<IncomeReportData>();
    expectTypeOf<z.input<typeof S.incomeReportDataSchema>>().toEqualTypeOf<IncomeReportData>();
  });

  it('screening groups', () => {
    expectTypeOf<z.output<typeof S.screeningSchema>>().toEqualTypeOf<Screening>();
    expectTypeOf<z.input<typeof S.screeningSchema>>().toEqualTypeOf<Screening>();
    expectTypeOf<z.output<typeof S.screeningGroupSchema>>().toEqualTypeOf<ScreeningGroup>();
    expectTypeOf<z.input<typeof S.screeningGroupSchema>>().toEqualTypeOf<ScreeningGroup>();
    expectTypeOf<
      z.output<typeof S.screeningGroupListResponseSchema>
    >().toEqualTypeOf<ScreeningGroupListResponse>();
    expectTypeOf<
      z.input<typeof S.screeningGroupListResponseSchema>
    >().toEqualTypeOf<ScreeningGroupListResponse>();
    expectTypeOf<
      z.input<typeof S.screeningApplicantCreateParamsSchema>
    >().toEqualTypeOf<S.ScreeningApplicantCreateParams>();
    expectTypeOf<
      z.output<typeof S.screeningApplicantCreateParamsSchema>
    >().toEqualTypeOf<S.ScreeningApplicantCreateParams>();
    expectTypeOf<
      z.input<typeof S.screeningPropertyCreateParamsSchema>
    >().toEqualTypeOf<S.ScreeningPropertyCreateParams>();
    expectTypeOf<
      z.output<typeof S.screeningPropertyCreateParamsSchema>
    >().toEqualTypeOf<S.ScreeningPropertyCreateParams>();
    expectTypeOf<
      z.input<typeof S.screeningGroupCreateParamsSchema>
    >().toEqualTypeOf<ScreeningGroupCreateParams>();
    expectTypeOf<
      z.output<typeof S.screeningGroupCreateParamsSchema>
    >().toEqualTypeOf<ScreeningGroupCreateParams>();
    expectTypeOf<z.input<typeof screeningGroupListParamsSchema>>().toEqualTypeOf<ScreeningGroupListParams>();
  });
});

// ---------------------------------------------------------------------------------------------
// Typos do not compile (they did when the public types had index signatures).
// ---------------------------------------------------------------------------------------------

declare const client: VerificationClient;
declare const group: ApplicantGroup;

describe('typos are compile errors', () => {
  it('a camelCase request key', () => {
    client.applicantGroups.create({
      applicants: [{ first_name: 'A', last_name: 'B', email: 'a@b.co' }],
      property: { name: 'P', street_address: 'S', city: 'C', state: 'CA', zip_code: '1' },
      decision_maker_display_name: 'D',
      monthly_rent: 1850,
      // @ts-expect-error the field is correlation_id
      correlationId: 'lease-1',
    });
  });

  it('phone for phone_number', () => {
    client.applicantGroups.create({
      // @ts-expect-error the field is phone_number
      applicants: [{ first_name: 'A', last_name: 'B', email: 'a@b.co', phone: '+14155550123' }],
      property: { name: 'P', street_address: 'S', city: 'C', state: 'CA', zip_code: '1' },
      decision_maker_display_name: 'D',
      monthly_rent: 1850,
    });
  });

  it('a status the spec does not document is still a string the filter takes', () => {
    client.applicantGroups.list({ statuses: ['pending'] });
    client.applicantGroups.list({ statuses: ['completed', 'in_progress'] });
  });

  it('a request enum value the vendor documentation never shows', () => {
    const verification: S.VerificationRequest = {
      // @ts-expect-error income_verification is a response value only
      type: 'income_verification',
      // @ts-expect-error documents is a response value only
      allowed_income_sources: ['documents'],
    };
    expectTypeOf(verification).toEqualTypeOf<S.VerificationRequest>();
  });

  it('a misspelt response field', () => {
    // @ts-expect-error the field is status
    expectTypeOf(group.staus).toBeUnknown();
    expectTypeOf(group.status).toExtend<string>();
  });
});

describe('the screening-group report types are exactly their schemas', () => {
  it('report URL and report data', () => {
    expectTypeOf<
      z.output<typeof S.screeningGroupReportUrlSchema>
    >().toEqualTypeOf<S.ScreeningGroupReportUrl>();
    expectTypeOf<
      z.input<typeof S.screeningGroupReportUrlSchema>
    >().toEqualTypeOf<S.ScreeningGroupReportUrl>();
    expectTypeOf<
      z.output<typeof S.individualScreeningReportDataSchema>
    >().toEqualTypeOf<S.IndividualScreeningReportData>();
    expectTypeOf<
      z.input<typeof S.individualScreeningReportDataSchema>
    >().toEqualTypeOf<S.IndividualScreeningReportData>();
    expectTypeOf<
      z.output<typeof S.combinedScreeningReportDataSchema>
    >().toEqualTypeOf<S.CombinedScreeningReportData>();
    expectTypeOf<
      z.input<typeof S.combinedScreeningReportDataSchema>
    >().toEqualTypeOf<S.CombinedScreeningReportData>();
    expectTypeOf<z.output<typeof S.screeningReportDataSchema>>().toEqualTypeOf<S.ScreeningReportData>();
    expectTypeOf<
      z.output<typeof S.screeningBankConnectionSchema>
    >().toEqualTypeOf<S.ScreeningBankConnection>();
    expectTypeOf<
      ReturnType<VerificationClient['screeningGroups']['reportData']>
    >().resolves.toEqualTypeOf<S.ScreeningReportData>();
  });
});
