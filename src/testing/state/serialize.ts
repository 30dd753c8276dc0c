/**
 * Records to wire objects (docs/wire-contract.md §2). Built on every read, so computed fields (status,
 * is_expired) follow the mock clock and the life cycle without being stored twice.
 */
import type { ApplicantGroup, ReportDetail, ReportSummary, ScreeningGroup } from 'applicant-verification';
import {
  type ApplicantGroupRecord,
  groupStatus,
  isGroupExpired,
  type ReportRecord,
  type ScreeningGroupRecord,
} from './store.js';

/** Verification kind used when the create body asks for none. */
export const DEFAULT_VERIFICATION_TYPE = 'payroll_income_verification';

const iso = (ms: number): string => new Date(Math.floor(ms)).toISOString();

/** An applicant group as list and create return it (docs/wire-contract.md §2.1-§2.3). */
export function serializeApplicantGroup(group: ApplicantGroupRecord, now: number): ApplicantGroup {
  const status = groupStatus(group.applicants);
  const types = [...new Set(group.applicants.flatMap((a) => a.verifications.map((v) => v.type)))];
  return {
    id: group.id,
    decision_maker_display_name: group.decisionMakerDisplayName,
    property: {
      id: group.property.id,
      name: group.property.name,
      street_address: group.property.streetAddress,
      city: group.property.city,
      state: group.property.state,
      zip_code: group.property.zipCode,
    },
    status,
    created_at_timestamp: group.createdAt / 1000,
    monthly_rent_cents: group.monthlyRentCents,
    unit_number: group.unitNumber,
    unit_id: group.unitId,
    is_free: group.isFree,
    is_decision_maker_paying: group.isDecisionMakerPaying,
    correlation_id: group.correlationId,
    verification_types: types.length > 0 ? types : [DEFAULT_VERIFICATION_TYPE],
    is_expired: isGroupExpired(group, now),
    applicants: group.applicants.map((applicant) => ({
      id: applicant.id,
      first_name: applicant.firstName,
      last_name: applicant.lastName,
      email: applicant.email,
      // Absent, not null, when none was given: the wire has phone_number as a plain string.
      ...(applicant.phoneNumber === null ? {} : { phone_number: applicant.phoneNumber }),
      created_at: iso(applicant.createdAt),
      updated_at: iso(applicant.updatedAt),
      verifications: applicant.verifications.map((v) => ({ id: v.id, type: v.type, status: v.status })),
    })),
  };
}

/**
 * The deprecated recommendation, once every screening is done: "monthly_rent ... used for the
 * net income to rent multiplier" against `income_multiplier_threshold` (default 2.5). Approve
 * when the household's monthly income reaches threshold x rent; decline otherwise, and when no
 * screening found income data.
 */
function recommend(group: ScreeningGroupRecord): 'approve' | 'decline' {
  const known = group.screenings.flatMap((s) =>
    s.monthlyIncomeCents === null ? [] : [s.monthlyIncomeCents],
  );
  if (known.length === 0) return 'decline';
  const income = known.reduce((sum, cents) => sum + cents, 0);
  // Thousandths of the threshold in integers, so a multiple of exactly 2.5 is not lost to floats.
  return income * 1000 >= Math.round(group.incomeMultiplierThreshold * 1000) * group.monthlyRentCents
    ? 'approve'
    : 'decline';
}

/**
 * A screening group (docs/wire-contract.md §2.6, §2.7), as the create answer or a list answer shows it. The create
 * answer carries the unit appended to the street address, the list keeps it only in
 * `unit_number`, as the vendor's samples do (docs/wire-contract.md §2.6).
 */
export function serializeScreeningGroup(
  group: ScreeningGroupRecord,
  now: number,
  options: { answer: 'create' | 'list' },
): ScreeningGroup {
  const status = groupStatus(group.screenings);
  const unit = group.unit ?? '';
  const recommendation = status !== 'completed' ? 'unavailable' : recommend(group);
  return {
    id: group.id,
    screenings: group.screenings.map((s) => ({
      id: s.id,
      applicant_first_name: s.firstName,
      applicant_last_name: s.lastName,
      applicant_email: s.email,
      screening_status: s.status,
      reason_completed: s.reasonCompleted,
    })),
    status,
    property_name: group.propertyName,
    property_street_address:
      options.answer === 'create' && unit ? `${group.streetAddress}, ${unit}` : group.streetAddress,
    unit_number: unit,
    monthly_rent_cents: group.monthlyRentCents,
    approval_recommendation: recommendation,
    is_decision_maker_paying: group.isDecisionMakerPaying,
    is_expired: isGroupExpired(group, now),
    // "False when no report exists. A list response sample also carries null": the create
    // answer says false, list answers say null until a report exists.
    is_report_expired: group.hasReport ? group.reportExpired : options.answer === 'create' ? false : null,
    decision_maker_display_name: group.decisionMakerDisplayName,
    income_multiplier_threshold: group.incomeMultiplierThreshold,
    correlation_id: group.correlationId,
    created_at_timestamp: group.createdAt,
  };
}

/** A report summary, an item of the reports list (docs/wire-contract.md §2.4); household reports carry no applicant_id. */
export function serializeReportSummary(report: ReportRecord): ReportSummary {
  const summary: ReportSummary = {
    id: report.id,
    report_name:
      report.reportType === 'income' ? 'Income' : report.reportType === 'identity' ? 'Identity' : 'Asset',
    is_expired: report.expired,
    created_at: iso(report.createdAt),
    applicant_group_id: report.applicantGroupId,
    path: `/reports/${report.id}`,
  };
  if (report.applicantId) summary.applicant_id = report.applicantId;
  return summary;
}

/** A report detail (docs/wire-contract.md §2.5) with a freshly minted PDF link. */
export function serializeReportDetail(report: ReportRecord, pdfUrl: string): ReportDetail {
  const base = {
    report_id: report.id,
    applicant_group_id: report.applicantGroupId,
    pdf_url: pdfUrl,
    ...(report.applicantId ? { applicant_id: report.applicantId } : {}),
  };
  return report.otherData === null
    ? { ...base, report_type: 'income', data: report.data }
    : { ...base, report_type: report.reportType, data: report.otherData };
}
