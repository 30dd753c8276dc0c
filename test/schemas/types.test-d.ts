import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type {
  Applicant,
  ApplicantGroup,
  ApplicantGroupCreateParams,
  ApplicantGroupListParams,
  ApplicantGroupListResponse,
  ApplicantGroupReports,
  BankConnection,
  CriteriaRuleResult,
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
  Screening,
  ScreeningGroup,
  ScreeningGroupCreateParams,
  ScreeningGroupListParams,
  ScreeningGroupListResponse,
  Transaction,
  UploadedDocument,
  Verification,
  VerificationReport,
} from '../../src/schemas/index.js';
import {
  type applicantGroupListParamsSchema,
  isIncomeReport,
  openEnum,
  type reportDetailSchema,
  type screeningGroupListParamsSchema,
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
  it('ApplicantGroup has the spec fields with their types', () => {
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
    // Loose objects: unknown fields are reachable as `unknown`.
    expectTypeOf<ApplicantGroup['some_new_field']>().toEqualTypeOf<unknown>();
  });

  it('Property, Applicant and Verification have the spec fields', () => {
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
    expectTypeOf<ApplicantGroupListResponse['total_count']>().toEqualTypeOf<number>();
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
    expectTypeOf<ReportDetail['applicant_id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ReportDetail['pdf_url']>().toEqualTypeOf<string>();

    const detail = {} as ReportDetail;
    if (isIncomeReport(detail)) {
      expectTypeOf(detail.data).toEqualTypeOf<IncomeReportData>();
      expectTypeOf(detail.data.reports).toEqualTypeOf<VerificationReport[] | undefined>();
    } else {
      expectTypeOf(detail).toEqualTypeOf<OtherReportDetail>();
      expectTypeOf(detail.data).toEqualTypeOf<Record<string, unknown>>();
    }
  });

  it('income report data is optional but typed', () => {
    expectTypeOf<IncomeReportData['recurring']>().toEqualTypeOf<IncomeSummary | undefined>();
    expectTypeOf<IncomeReportData['criteria_rule_results']>().toEqualTypeOf<
      CriteriaRuleResult[] | undefined
    >();
    expectTypeOf<IncomeReportData['uploaded_documents']>().toEqualTypeOf<UploadedDocument[] | undefined>();
    expectTypeOf<IncomeReportData['property_monthly_rent_cents']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<IncomeSummary['three_month_avg_monthly']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<IncomeSummary['twelve_month_avg_monthly']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<IncomeSummary['total']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<IncomeSummary['income_streams']>().toEqualTypeOf<IncomeStream[] | undefined>();
    expectTypeOf<IncomeStream['transactions']>().toEqualTypeOf<Transaction[] | undefined>();
    expectTypeOf<IncomeStream['paystubs']>().toEqualTypeOf<Paystub[] | undefined>();
    expectTypeOf<IncomeStream['pay_gap_after_transaction_indexes']>().toEqualTypeOf<number[] | undefined>();
    expectTypeOf<Transaction['date']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Paystub['net_pay']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<VerificationReport['bank_connections']>().toEqualTypeOf<BankConnection[] | undefined>();
    expectTypeOf<VerificationReport['payroll_connections']>().toEqualTypeOf<
      PayrollConnection[] | undefined
    >();
    expectTypeOf<'finished'>().toExtend<NonNullable<VerificationReport['reason_completed']>>();
    expectTypeOf<PayrollConnection['end_date']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<PayrollConnection['is_name_mismatched']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<'Biweekly'>().toExtend<NonNullable<PayrollConnection['pay_frequency']>>();
    expectTypeOf<NonNullable<BankConnection['accounts']>>().toEqualTypeOf<Record<string, unknown>[]>();
    expectTypeOf<UploadedDocument['fraud_risk_signals']>().toEqualTypeOf<FraudRiskSignal[] | undefined>();
    expectTypeOf<'low'>().toExtend<NonNullable<UploadedDocument['fraud_risk']>>();
    expectTypeOf<CriteriaRuleResult['multiplier_threshold']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<'passed'>().toExtend<NonNullable<CriteriaRuleResult['result']>>();
  });
});

describe('screening groups', () => {
  it('ScreeningGroup and Screening have the spec fields', () => {
    expectTypeOf<ScreeningGroup['screenings']>().toEqualTypeOf<Screening[]>();
    expectTypeOf<'completed'>().toExtend<ScreeningGroup['status']>();
    expectTypeOf<ScreeningGroup['monthly_rent_cents']>().toEqualTypeOf<number>();
    expectTypeOf<ScreeningGroup['is_report_expired']>().toEqualTypeOf<boolean | null>();
    expectTypeOf<ScreeningGroup['income_multiplier_threshold']>().toEqualTypeOf<number>();
    expectTypeOf<'approve'>().toExtend<ScreeningGroup['approval_recommendation']>();
    expectTypeOf<ScreeningGroup['correlation_id']>().toEqualTypeOf<string | null>();
    expectTypeOf<ScreeningGroup['created_at_timestamp']>().toEqualTypeOf<number>();
    expectTypeOf<'not_started'>().toExtend<Screening['screening_status']>();
    expectTypeOf<'bank_cannot_connect'>().toExtend<Screening['reason_completed']>();
    expectTypeOf<Screening['reason_completed']>().toExtend<string>();
    expectTypeOf<ScreeningGroupListResponse['screening_groups']>().toEqualTypeOf<ScreeningGroup[]>();
    expectTypeOf<ScreeningGroupListResponse['total_count']>().toEqualTypeOf<number>();
  });
});

describe('request types', () => {
  it('ApplicantGroupCreateParams', () => {
    expectTypeOf<ApplicantGroupCreateParams['monthly_rent']>().toEqualTypeOf<number>();
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
    expectTypeOf<['in_progress', 'archived']>().toExtend<NonNullable<ApplicantGroupListParams['statuses']>>();
    expectTypeOf<z.output<typeof applicantGroupListParamsSchema>>().toEqualTypeOf<Record<string, string>>();
    expectTypeOf<ScreeningGroupListParams>().toEqualTypeOf<{ page?: number | undefined }>();
    expectTypeOf<z.output<typeof screeningGroupListParamsSchema>>().toEqualTypeOf<Record<string, string>>();
  });
});
