import { describe, expect, it } from 'vitest';
import { parseResponse } from '../../src/core/call/validate.js';
import { ResponseValidationError } from '../../src/core/errors.js';
import { extraFields } from '../../src/helpers/index.js';
import { isIncomeReport } from '../../src/index.js';
import {
  applicantGroupListResponseSchema,
  applicantGroupReportsSchema,
  applicantGroupSchema,
  incomeReportDataSchema,
  reportDetailSchema,
  screeningGroupListResponseSchema,
  screeningGroupSchema,
} from '../../src/schemas/index.js';
import { DELETE, FIXTURE_SCHEMAS, loadFixture, withValue } from '../fixtures/load.js';

/** Parses a body and returns the issue paths of the ResponseValidationError it must raise. */
function failingPaths(schema: Parameters<typeof parseResponse>[0], body: unknown): string[] {
  try {
    parseResponse(schema, body);
  } catch (error) {
    expect(error).toBeInstanceOf(ResponseValidationError);
    if (!(error instanceof ResponseValidationError)) return [];
    expect(error.body).toBe(body);
    return error.issues.map((issue) => issue.path);
  }
  throw new Error('expected the body to be rejected');
}

const cases = FIXTURE_SCHEMAS;

describe('every fixture', () => {
  it.each(cases)('%s parses and survives unchanged, unknown fields included', (name, schema) => {
    const body = loadFixture(name);
    expect(parseResponse(schema, body)).toEqual(body);
  });
});

describe('applicant group', () => {
  it('keeps the create response values', () => {
    const group = parseResponse(applicantGroupSchema, loadFixture('applicant-group'));
    expect(group.status).toBe('in_progress');
    expect(group.created_at_timestamp).toBe(1717603200.482913);
    expect(group.monthly_rent_cents).toBe(285000);
    expect(group.property.state).toBe('California');
    expect(group.applicants).toHaveLength(2);
    expect(group.applicants[0]?.verifications.map((v) => v.type)).toEqual([
      'payroll_income_verification',
      'identity_verification',
    ]);
    expect(group.applicants[1]?.phone_number).toBe('+442071838750');
  });

  it('accepts null unit_id and correlation_id, an unknown status and extra fields in a list', () => {
    const list = parseResponse(applicantGroupListResponseSchema, loadFixture('applicant-group-list'));
    const second = list.applicant_groups[1];
    expect(list.total_count).toBe(2);
    expect(second?.unit_id).toBeNull();
    expect(second?.correlation_id).toBeNull();
    expect(second?.status).toBe('pending');
    // Unknown fields are kept, out of the types, and read through extraFields().
    expect(second && extraFields(second).tenant_score_band).toBe('B');
  });

  it.each([
    [['applicant_groups', 1, 'unit_id'], 42, 'applicant_groups[1].unit_id'],
    [['applicant_groups', 0, 'status'], DELETE, 'applicant_groups[0].status'],
    [['applicant_groups', 0, 'status'], 3, 'applicant_groups[0].status'],
    [['applicant_groups', 0, 'monthly_rent_cents'], 2850.5, 'applicant_groups[0].monthly_rent_cents'],
    [['applicant_groups', 0, 'property'], DELETE, 'applicant_groups[0].property'],
    [['applicant_groups', 0, 'is_expired'], 'false', 'applicant_groups[0].is_expired'],
    [
      ['applicant_groups', 0, 'applicants', 0, 'verifications', 0, 'id'],
      null,
      'applicant_groups[0].applicants[0].verifications[0].id',
    ],
    [['applicant_groups', 0, 'verification_types', 1], 7, 'applicant_groups[0].verification_types[1]'],
    [['total_count'], '2', 'total_count'],
  ] as const)('rejects %j = %j at %s', (path, value, expected) => {
    const body = withValue(loadFixture('applicant-group-list'), path, value);
    expect(failingPaths(applicantGroupListResponseSchema, body)).toEqual([expected]);
  });

  it('rejects a non-object body at the root', () => {
    expect(failingPaths(applicantGroupSchema, 'nope')).toEqual(['']);
    expect(failingPaths(applicantGroupSchema, null)).toEqual(['']);
  });
});

describe('reports list', () => {
  it('reads household reports without applicant_id and individual reports with one', () => {
    const reports = parseResponse(applicantGroupReportsSchema, loadFixture('reports-list'));
    expect(reports.household_reports[0]?.applicant_id).toBeUndefined();
    expect(reports.individual_reports[0]?.applicant_id).toBe('a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d');
    expect(reports.individual_reports[1]?.is_expired).toBe(true);
    expect(reports.household_reports[0]?.path).toBe('/reports/c0ffee00-1111-4222-8333-444455556666');
  });

  it.each([
    [['household_reports', 0, 'path'], DELETE, 'household_reports[0].path'],
    [['individual_reports', 1, 'is_expired'], 'yes', 'individual_reports[1].is_expired'],
    [['individual_reports'], DELETE, 'individual_reports'],
  ] as const)('rejects %j = %j at %s', (path, value, expected) => {
    const body = withValue(loadFixture('reports-list'), path, value);
    expect(failingPaths(applicantGroupReportsSchema, body)).toEqual([expected]);
  });
});

describe('income report detail', () => {
  it('types the income data and keeps every value', () => {
    const detail = parseResponse(reportDetailSchema, loadFixture('income-report'));
    expect(isIncomeReport(detail)).toBe(true);
    if (!isIncomeReport(detail)) return;
    expect(detail.applicant_id).toBeUndefined();
    expect(extraFields(detail).report_version).toBe('2024-05');
    const [bankReport, payrollReport] = detail.data.reports ?? [];
    expect(detail.data.reports).toHaveLength(2);
    expect(bankReport?.recurring?.nine_month_avg_monthly).toBeNull();
    expect(bankReport?.recurring?.three_month_avg_monthly).toBe(5200.17);
    const stream = bankReport?.recurring?.income_streams?.[0];
    expect(stream?.transactions?.[2]).toEqual({
      name: 'ACME CORP PAYROLL DIRECT DEP',
      amount: 2400.5,
      date: '01/19/2024',
    });
    expect(stream?.pay_gap_after_transaction_indexes).toEqual([1]);
    expect(bankReport?.bank_connections?.[0]?.accounts?.[0]?.mask).toBe('4821');
    expect(bankReport?.bank_connections?.[0]?.income?.non_recurring?.total).toBe(850);
    const payroll = payrollReport?.payroll_connections?.[0];
    expect(payroll?.end_date).toBeNull();
    expect(payroll?.pay_frequency).toBe('Biweekly');
    expect(payroll?.start_date).toBe('March 4, 2021');
    expect(payrollReport?.recurring?.income_streams?.[0]?.paystubs?.[0]?.pay_date).toBe('May 31, 2024');
    expect(payrollReport?.uploaded_documents?.[0]?.fraud_risk_signals).toHaveLength(1);
    expect(detail.data.uploaded_documents?.[0]?.fraud_risk).toBe('high');
    expect(detail.data.criteria_rule_results?.map((rule) => rule.result)).toEqual(['passed', 'needs_review']);
    expect(detail.data.property_monthly_rent_cents).toBe(285000);
    expect(extraFields(detail.data).household_risk_notes).toEqual([
      'second applicant income verified by payroll',
    ]);
  });

  it('accepts a minimal income report: every data field is optional', () => {
    const detail = parseResponse(reportDetailSchema, withValue(loadFixture('income-report'), ['data'], {}));
    expect(isIncomeReport(detail) && detail.data).toEqual({});
  });

  it.each([
    [
      ['data', 'reports', 1, 'payroll_connections', 0, 'end_date'],
      20240531,
      'data.reports[1].payroll_connections[0].end_date',
    ],
    [
      ['data', 'reports', 0, 'recurring', 'income_streams', 0, 'pay_gap_after_transaction_indexes', 0],
      1.5,
      'data.reports[0].recurring.income_streams[0].pay_gap_after_transaction_indexes[0]',
    ],
    [
      ['data', 'reports', 0, 'recurring', 'income_streams', 0, 'transactions', 1, 'amount'],
      '2400',
      'data.reports[0].recurring.income_streams[0].transactions[1].amount',
    ],
    [
      ['data', 'reports', 1, 'uploaded_documents', 0, 'fraud_risk_score'],
      'low',
      'data.reports[1].uploaded_documents[0].fraud_risk_score',
    ],
    [
      ['data', 'criteria_rule_results', 0, 'multiplier_threshold'],
      '2.5',
      'data.criteria_rule_results[0].multiplier_threshold',
    ],
    [
      ['data', 'reports', 0, 'bank_connections', 0, 'accounts', 0],
      'checking',
      'data.reports[0].bank_connections[0].accounts[0]',
    ],
    [['data'], 'no data', 'data'],
    [['pdf_url'], DELETE, 'pdf_url'],
    [['report_id'], 17, 'report_id'],
  ] as const)('rejects %j = %j at %s', (path, value, expected) => {
    const body = withValue(loadFixture('income-report'), path, value);
    expect(failingPaths(reportDetailSchema, body)).toEqual([expected]);
  });

  it('validates data on its own with incomeReportDataSchema', () => {
    const body = loadFixture('income-report');
    const detail = parseResponse(reportDetailSchema, body);
    expect(parseResponse(incomeReportDataSchema, detail.data)).toEqual(detail.data);
    const badData = withValue(detail.data, ['reports', 0, 'identity', 'email'], 5);
    expect(failingPaths(incomeReportDataSchema, badData)).toEqual(['reports[0].identity.email']);
  });
});

describe('other report types', () => {
  it('keeps data of a non-income report as a record', () => {
    const detail = parseResponse(reportDetailSchema, loadFixture('identity-report'));
    expect(isIncomeReport(detail)).toBe(false);
    expect(detail.report_type).toBe('identity');
    expect(detail.data.reports).toBe('not an income shape');
    expect(extraFields(detail.data).verified).toBe(true);
  });

  it('still requires data to be an object', () => {
    const body = withValue(loadFixture('identity-report'), ['data'], ['a']);
    expect(failingPaths(reportDetailSchema, body)).toEqual(['data']);
  });

  it('rejects a detail whose report_type is missing', () => {
    const body = withValue(loadFixture('identity-report'), ['report_type'], DELETE);
    expect(failingPaths(reportDetailSchema, body)).toEqual(['report_type']);
  });
});

describe('screening groups', () => {
  it('keeps the create response, deprecated fields included', () => {
    const group = parseResponse(screeningGroupSchema, loadFixture('screening-group'));
    expect((group.screenings ?? []).map((s) => s.reason_completed)).toEqual([
      'not_completed',
      'not_completed',
    ]);
    expect(group.approval_recommendation).toBe('unavailable');
    expect(group.income_multiplier_threshold).toBe(2.5);
    expect(group.correlation_id).toBe('crm-88412');
  });

  it('accepts is_report_expired null and a fractional millisecond timestamp in a list', () => {
    const list = parseResponse(screeningGroupListResponseSchema, loadFixture('screening-group-list'));
    expect(list.total_count).toBe(27);
    expect(list.screening_groups[0]?.created_at_timestamp).toBe(1717603200482.913);
    expect(list.screening_groups[1]?.is_report_expired).toBeNull();
    expect(extraFields(list.screening_groups[1] ?? {}).criteria_rule_set_id).toBe('crs_default_2024');
    expect(list.screening_groups[0]?.screenings?.[1]?.reason_completed).toBe('share_bank');
  });

  it.each([
    [
      ['screening_groups', 0, 'screenings', 1, 'screening_status'],
      DELETE,
      'screening_groups[0].screenings[1].screening_status',
    ],
    [
      ['screening_groups', 1, 'created_at_timestamp'],
      '1718000000123',
      'screening_groups[1].created_at_timestamp',
    ],
    [['screening_groups', 0, 'is_expired'], 'no', 'screening_groups[0].is_expired'],
    [
      ['screening_groups', 0, 'approval_recommendation'],
      false,
      'screening_groups[0].approval_recommendation',
    ],
    [
      ['screening_groups', 1, 'income_multiplier_threshold'],
      '3',
      'screening_groups[1].income_multiplier_threshold',
    ],
  ] as const)('rejects %j = %j at %s', (path, value, expected) => {
    const body = withValue(loadFixture('screening-group-list'), path, value);
    expect(failingPaths(screeningGroupListResponseSchema, body)).toEqual([expected]);
  });
});
