/**
 * What the mock server holds: applicant groups, screening groups and reports, as plain records
 * with camelCase fields. Wire objects are built from them on every read (serialize.ts), so
 * computed fields (status, is_expired) always reflect the current mock clock.
 */
import { COMPLETION_REASONS } from '../schemas/common.js';
import type { IncomeReportData } from '../schemas/index.js';

/** Outcomes of a completed screening or verification (spec 2.7), shared with the SDK's schemas. */
export { COMPLETION_REASONS };

/** Progress of an applicant, a verification or a screening (spec 3.1). */
export type Progress = 'not_started' | 'in_progress' | 'completed';

/** Why an applicant completed (the mock's `complete()` takes one of these). */
export type CompletionReason = (typeof COMPLETION_REASONS)[number];

/** One verification requested of an applicant-group applicant. */
export interface VerificationRecord {
  id: string;
  type: string;
  status: Progress;
  allowedIncomeSources: string[] | null;
}

/** An applicant of an applicant group. */
export interface ApplicantRecord {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string | null;
  /** Epoch ms on the mock clock. */
  createdAt: number;
  /** Epoch ms on the mock clock; moves with every life-cycle step. */
  updatedAt: number;
  status: Progress;
  reasonCompleted: CompletionReason | 'not_completed';
  verifications: VerificationRecord[];
}

/** An applicant group (current family). */
export interface ApplicantGroupRecord {
  family: 'applicant_group';
  id: string;
  decisionMakerDisplayName: string;
  property: { id: string; name: string; streetAddress: string; city: string; state: string; zipCode: string };
  unitNumber: string;
  unitId: string | null;
  monthlyRentCents: number;
  isFree: boolean;
  isDecisionMakerPaying: boolean;
  correlationId: string | null;
  webhookUrl: string | null;
  isInvitationDisabled: boolean;
  blockBusinessAccounts: boolean | null;
  /** Epoch ms with a sub-millisecond fraction (the wire carries float seconds). */
  createdAt: number;
  applicants: ApplicantRecord[];
}

/** One applicant's screening in a screening group. */
export interface ScreeningRecord {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string | null;
  status: Progress;
  reasonCompleted: CompletionReason | 'not_completed';
}

/** A screening group (earlier family). */
export interface ScreeningGroupRecord {
  family: 'screening_group';
  id: string;
  propertyName: string;
  streetAddress: string;
  city: string;
  state: string;
  zipCode: string;
  unit: string | null;
  monthlyRentCents: number;
  isDecisionMakerPaying: boolean;
  decisionMakerDisplayName: string;
  incomeMultiplierThreshold: number;
  criteriaRuleSetId: string | null;
  correlationId: string | null;
  webhookUrl: string | null;
  isInvitationDisabled: boolean;
  /** Epoch ms with a sub-millisecond fraction (the wire carries it as is). */
  createdAt: number;
  /** Whether a report exists: set when the first screening completes. */
  hasReport: boolean;
  /** Set by `reports.expire(screeningGroupId)`. */
  reportExpired: boolean;
  screenings: ScreeningRecord[];
}

/** A report of an applicant group: one per completion of an applicant, one per fully completed household. */
export interface ReportRecord {
  id: string;
  kind: 'individual' | 'household';
  applicantGroupId: string;
  /** The applicant of an individual report; `null` for household reports. */
  applicantId: string | null;
  /** Epoch ms on the mock clock. */
  createdAt: number;
  /** Set by `reports.expire(reportId)`: reading the report then answers 410. */
  expired: boolean;
  /** The income report data (spec 2.5), generated when the report was created. */
  data: IncomeReportData;
  /** Lines of text for the PDF rendering. */
  pdfLines: string[];
  pdfTitle: string;
}

/** Requests expire when not fully completed within 14 days (spec 1, 8). */
export const REQUEST_EXPIRY_MS = 14 * 24 * 60 * 60 * 1000;

/** Status of a group from the progress of its members (spec 3.2): all not started, all completed, or in between. */
export function groupStatus(members: readonly { status: Progress }[]): Progress {
  if (members.every((member) => member.status === 'not_started')) return 'not_started';
  if (members.every((member) => member.status === 'completed')) return 'completed';
  return 'in_progress';
}

/**
 * Whether a group has expired: not fully completed by 14 days after creation. Computed on every
 * read from the mock clock, so `clock.advance()` alone makes a group expire.
 */
export function isGroupExpired(createdAt: number, status: Progress, now: number): boolean {
  // Whole milliseconds: the sub-millisecond fraction of creation times is cosmetic.
  return status !== 'completed' && now >= Math.floor(createdAt) + REQUEST_EXPIRY_MS;
}

/** Where an applicant-group applicant or a screening lives. */
export type MemberLocation =
  | { family: 'applicant_group'; group: ApplicantGroupRecord; applicant: ApplicantRecord }
  | { family: 'screening_group'; group: ScreeningGroupRecord; screening: ScreeningRecord };

/** The records of one mock, in creation order, with lookups by id. */
export class MockStore {
  /** Applicant groups, oldest first. */
  readonly applicantGroups: ApplicantGroupRecord[] = [];
  /** Screening groups, oldest first. */
  readonly screeningGroups: ScreeningGroupRecord[] = [];
  /** Reports, oldest first. */
  readonly reports: ReportRecord[] = [];
  readonly #applicantGroupsById = new Map<string, ApplicantGroupRecord>();
  readonly #screeningGroupsById = new Map<string, ScreeningGroupRecord>();
  readonly #reportsById = new Map<string, ReportRecord>();
  readonly #members = new Map<string, MemberLocation>();

  /** Stores a new applicant group and indexes its applicants. */
  addApplicantGroup(group: ApplicantGroupRecord): void {
    this.applicantGroups.push(group);
    this.#applicantGroupsById.set(group.id, group);
    for (const applicant of group.applicants) {
      this.#members.set(applicant.id, { family: 'applicant_group', group, applicant });
    }
  }

  /** Stores a new screening group and indexes its screenings. */
  addScreeningGroup(group: ScreeningGroupRecord): void {
    this.screeningGroups.push(group);
    this.#screeningGroupsById.set(group.id, group);
    for (const screening of group.screenings) {
      this.#members.set(screening.id, { family: 'screening_group', group, screening });
    }
  }

  /** Stores a new report. */
  addReport(report: ReportRecord): void {
    this.reports.push(report);
    this.#reportsById.set(report.id, report);
  }

  /** The applicant group with this id. */
  applicantGroup(id: string): ApplicantGroupRecord | undefined {
    return this.#applicantGroupsById.get(id);
  }

  /** The screening group with this id. */
  screeningGroup(id: string): ScreeningGroupRecord | undefined {
    return this.#screeningGroupsById.get(id);
  }

  /** The report with this id. */
  report(id: string): ReportRecord | undefined {
    return this.#reportsById.get(id);
  }

  /** The applicant-group applicant or screening with this id, with its group. */
  member(id: string): MemberLocation | undefined {
    return this.#members.get(id);
  }

  /** Reports of one applicant group, oldest first. */
  reportsOf(applicantGroupId: string): ReportRecord[] {
    return this.reports.filter((report) => report.applicantGroupId === applicantGroupId);
  }
}
