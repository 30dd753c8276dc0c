/**
 * What the mock server holds: applicant groups, screening groups and reports, as plain records
 * with camelCase fields. Wire objects are built from them on every read (serialize.ts), so
 * computed fields (status, is_expired) always reflect the current mock clock.
 */

import type { IncomeReportData } from 'applicant-verification';
import { COMPLETION_REASONS } from 'applicant-verification/schemas';
import { AccountGroups } from './group-index.js';

/** Outcomes of a completed screening or verification (docs/wire-contract.md §2.7), shared with the SDK's schemas. */
export { COMPLETION_REASONS };

/** Progress of an applicant, a verification or a screening (docs/wire-contract.md §3.1). */
export type Progress = 'not_started' | 'in_progress' | 'completed';

/** Why an applicant completed (the mock's `complete()` takes one of these). */
export type CompletionReason = (typeof COMPLETION_REASONS)[number];

/** One verification requested of an applicant-group applicant. */
export interface VerificationRecord {
  /** Verification identifier (uuid). */
  id: string;
  /** Kind of verification, e.g. `payroll_income_verification`. */
  type: string;
  /** Progress of the verification. */
  status: Progress;
  /** Income sources allowed on create; `null` when none were given. */
  allowedIncomeSources: string[] | null;
}

/** An applicant of an applicant group. */
export interface ApplicantRecord {
  /** Applicant identifier (uuid). */
  id: string;
  /** First name. */
  firstName: string;
  /** Last name. */
  lastName: string;
  /** Email address the invitation went to. */
  email: string;
  /** Phone number the text invitation went to; `null` when none was given. */
  phoneNumber: string | null;
  /** Epoch ms on the mock clock. */
  createdAt: number;
  /** Epoch ms on the mock clock; moves with every life-cycle step. */
  updatedAt: number;
  /** Progress of the applicant. */
  status: Progress;
  /** Why the applicant completed, or `not_completed`. */
  reasonCompleted: CompletionReason | 'not_completed';
  /** Verifications requested of the applicant. */
  verifications: VerificationRecord[];
}

/** An applicant group (current family). */
export interface ApplicantGroupRecord {
  /** Which interface family the group belongs to. */
  family: 'applicant_group';
  /** Client id of the account that created the group: only that account sees it. */
  account: string;
  /** Group identifier (uuid). */
  id: string;
  /** Display name of the decision maker. */
  decisionMakerDisplayName: string;
  /** The property, with its generated id. */
  property: {
    /** Property identifier (uuid). */
    id: string;
    /** Property name. */
    name: string;
    /** Street address. */
    streetAddress: string;
    /** City of the property, free text. */
    city: string;
    /** State, as sent. */
    state: string;
    /** ZIP code. */
    zipCode: string;
  };
  /** Unit number, empty when none was given. */
  unitNumber: string;
  /** Unit identifier (uuid), `null` when the group has none. */
  unitId: string | null;
  /** Monthly rent in cents. */
  monthlyRentCents: number;
  /** Whether this is a free verification. */
  isFree: boolean;
  /** Whether the decision maker pays. */
  isDecisionMakerPaying: boolean;
  /** The caller's correlation id, `null` when none was given. */
  correlationId: string | null;
  /** Where the group's events are delivered; `null` for none. */
  webhookUrl: string | null;
  /** Whether invitations were disabled on create (nothing in the outbox). */
  isInvitationDisabled: boolean;
  /** `config.block_business_accounts` as sent, `null` when absent. */
  blockBusinessAccounts: boolean | null;
  /** Epoch ms with a sub-millisecond fraction (the wire carries float seconds). */
  createdAt: number;
  /** When the group's 14 days began: creation, or the latest re-open. */
  expiryStart: number;
  /** When every member last became completed (mock clock); `null` while any is not. */
  completedAt: number | null;
  /** The applicants of the group. */
  applicants: ApplicantRecord[];
}

/** One applicant's screening in a screening group. */
export interface ScreeningRecord {
  /** Screening identifier (uuid). */
  id: string;
  /** First name of the applicant. */
  firstName: string;
  /** Last name of the applicant. */
  lastName: string;
  /** Email address the invitation went to. */
  email: string;
  /** Phone number the text invitation went to; `null` when none was given. */
  phoneNumber: string | null;
  /** Progress of the screening. */
  status: Progress;
  /** Why the screening completed, or `not_completed`. */
  reasonCompleted: CompletionReason | 'not_completed';
  /**
   * Net monthly income the completed screening found, in cents: drawn when it finishes, `0`
   * for `no_income`, `null` while not completed or when the outcome shows no income data.
   */
  monthlyIncomeCents: number | null;
}

/** A screening group (earlier family). */
export interface ScreeningGroupRecord {
  /** Which interface family the group belongs to. */
  family: 'screening_group';
  /** Client id of the account that created the group: only that account sees it. */
  account: string;
  /** Screening group identifier (uuid). */
  id: string;
  /** Property name. */
  propertyName: string;
  /** Street address. */
  streetAddress: string;
  /** City of the property, free text. */
  city: string;
  /** State, spelled out. */
  state: string;
  /** ZIP code. */
  zipCode: string;
  /** Unit, `null` when none was given. */
  unit: string | null;
  /** Monthly rent in cents. */
  monthlyRentCents: number;
  /** Whether the decision maker pays. */
  isDecisionMakerPaying: boolean;
  /** Display name of the decision maker. */
  decisionMakerDisplayName: string;
  /** Deprecated income multiplier threshold, as sent or defaulted. */
  incomeMultiplierThreshold: number;
  /** Income criteria rule set, `null` when none was given. */
  criteriaRuleSetId: string | null;
  /** The caller's correlation id, `null` when none was given. */
  correlationId: string | null;
  /** Where the group's events are delivered; `null` for none. */
  webhookUrl: string | null;
  /** Whether invitations were disabled on create. */
  isInvitationDisabled: boolean;
  /** Epoch ms with a sub-millisecond fraction (the wire carries it as is). */
  createdAt: number;
  /** When the group's 14 days began: creation, or the latest re-open. */
  expiryStart: number;
  /** When every screening last became completed (mock clock); `null` while any is not. */
  completedAt: number | null;
  /** Whether a report exists: set when the first screening completes. */
  hasReport: boolean;
  /** Set by `reports.expire(screeningGroupId)`. */
  reportExpired: boolean;
  /** One screening per applicant. */
  screenings: ScreeningRecord[];
}

/** A report of an applicant group: one per completion of an applicant, one per fully completed household. */
export interface ReportRecord {
  /** Report identifier (uuid). */
  id: string;
  /** `individual` (one applicant) or `household` (the whole group). */
  kind: 'individual' | 'household';
  /**
   * `income` (every completion; household too), or `identity` / `asset`: an individual report
   * made when an applicant with that verification completes.
   */
  reportType: 'income' | 'identity' | 'asset';
  /** The applicant group the report belongs to. */
  applicantGroupId: string;
  /** Client id of the account owning the report's group: only that account sees it. */
  account: string;
  /** The applicant of an individual report; `null` for household reports. */
  applicantId: string | null;
  /** Epoch ms on the mock clock. */
  createdAt: number;
  /** Set by `reports.expire(reportId)`: reading the report then answers 410. */
  expired: boolean;
  /** The income report data (docs/wire-contract.md §2.5), generated when the report was created; empty for identity and asset reports. */
  data: IncomeReportData;
  /** The data of an identity or asset report (undocumented shapes, kept as records); `null` for income reports. */
  otherData: Record<string, unknown> | null;
  /** Lines of text for the PDF rendering. */
  pdfLines: string[];
  /** Title of the PDF rendering. */
  pdfTitle: string;
}

/** Requests expire when not fully completed within 14 days (docs/wire-contract.md §1, §8). */
export const REQUEST_EXPIRY_MS = 14 * 24 * 60 * 60 * 1000;

/** Status of a group from the progress of its members (docs/wire-contract.md §3.2): all not started, all completed, or in between. */
export function groupStatus(members: readonly { status: Progress }[]): Progress {
  if (members.every((member) => member.status === 'not_started')) return 'not_started';
  if (members.every((member) => member.status === 'completed')) return 'completed';
  return 'in_progress';
}

/** The facts expiry is computed from. */
export interface ExpiryWindow {
  /** Start of the 14 days: creation, or the latest re-open. */
  expiryStart: number;
  /** When the group became fully completed; `null` while it is not. */
  completedAt: number | null;
}

/**
 * Whether a group has expired: "a request not fully completed within 14 days expires; is_expired
 * then reports true" (docs/wire-contract.md). Expiry is final: completing the group after the
 * deadline leaves it expired; only a re-open starts a new window. Computed on every read from
 * the mock clock, so `clock.advance()` alone makes a group expire.
 */
export function isGroupExpired(window: ExpiryWindow, now: number): boolean {
  // Whole milliseconds: the sub-millisecond fraction of creation times is cosmetic.
  const deadline = Math.floor(window.expiryStart) + REQUEST_EXPIRY_MS;
  if (now < deadline) return false;
  return window.completedAt === null || window.completedAt >= deadline;
}

/** Where an applicant-group applicant or a screening lives. */
export type MemberLocation =
  | { family: 'applicant_group'; group: ApplicantGroupRecord; applicant: ApplicantRecord }
  | { family: 'screening_group'; group: ScreeningGroupRecord; screening: ScreeningRecord };

/** An account's applicant groups, indexed for list queries. */
export type IndexedApplicantGroups = AccountGroups<ApplicantGroupRecord, Progress>;

// The index of an account with no applicant groups: never added to.
const EMPTY_ACCOUNT: IndexedApplicantGroups = new AccountGroups();

/** The records of one mock, in creation order, with lookups by id and the indexes list queries use. */
export class MockStore {
  /** Applicant groups, oldest first. */
  readonly applicantGroups: ApplicantGroupRecord[] = [];
  /** Screening groups, oldest first. */
  readonly screeningGroups: ScreeningGroupRecord[] = [];
  /** Reports, oldest first. */
  readonly reports: ReportRecord[] = [];
  /** Creation time of the group created last (either family); `-Infinity` before the first. */
  lastCreatedAt = Number.NEGATIVE_INFINITY;
  readonly #applicantGroupsById = new Map<string, ApplicantGroupRecord>();
  readonly #screeningGroupsById = new Map<string, ScreeningGroupRecord>();
  readonly #reportsById = new Map<string, ReportRecord>();
  readonly #members = new Map<string, MemberLocation>();
  // Per account: its applicant groups indexed for list queries, its screening groups in order.
  readonly #applicantGroupsOf = new Map<string, IndexedApplicantGroups>();
  readonly #screeningGroupsOf = new Map<string, ScreeningGroupRecord[]>();
  readonly #reportsOf = new Map<string, ReportRecord[]>();
  // Instants before which a group stays out of list answers, each on the clock its list-lag fault
  // chose: real time by default (an index that lags behind writes is a wall-clock matter), or the
  // mock clock, so a test ends the lag with `clock.advance()` however slow the machine is.
  readonly #listedFrom = new Map<string, { from: number; now: () => number }>();

  /** Keeps a group out of list answers for `ms` from now on the clock `now` (the list-lag fault). */
  hideFromLists(groupId: string, ms: number, now: () => number): void {
    this.#listedFrom.set(groupId, { from: now() + ms, now });
  }

  /**
   * Whether some group may be out of list answers now (a list lag that has not ended): list
   * queries then check every group with {@link isListed} instead of answering from the indexes.
   */
  hasListLag(): boolean {
    for (const [groupId, lag] of this.#listedFrom) {
      if (lag.now() < lag.from) return true;
      this.#listedFrom.delete(groupId);
    }
    return false;
  }

  /** Whether list queries show this group now (false while a list lag lasts). */
  isListed(groupId: string): boolean {
    const lag = this.#listedFrom.get(groupId);
    if (lag === undefined) return true;
    if (lag.now() < lag.from) return false;
    this.#listedFrom.delete(groupId);
    return true;
  }

  /** Forgets every record (the mock's `reset()`). */
  clear(): void {
    this.applicantGroups.length = 0;
    this.screeningGroups.length = 0;
    this.reports.length = 0;
    this.#applicantGroupsById.clear();
    this.#screeningGroupsById.clear();
    this.#reportsById.clear();
    this.#members.clear();
    this.#listedFrom.clear();
    this.#applicantGroupsOf.clear();
    this.#screeningGroupsOf.clear();
    this.#reportsOf.clear();
    this.lastCreatedAt = Number.NEGATIVE_INFINITY;
  }

  /** Stores a new applicant group and indexes its applicants. */
  addApplicantGroup(group: ApplicantGroupRecord): void {
    this.applicantGroups.push(group);
    this.lastCreatedAt = group.createdAt;
    this.#applicantGroupsById.set(group.id, group);
    let ofAccount = this.#applicantGroupsOf.get(group.account);
    if (ofAccount === undefined) {
      ofAccount = new AccountGroups();
      this.#applicantGroupsOf.set(group.account, ofAccount);
    }
    ofAccount.add(group, groupStatus(group.applicants));
    for (const applicant of group.applicants) {
      this.#members.set(applicant.id, { family: 'applicant_group', group, applicant });
    }
  }

  /** Stores a new screening group and indexes its screenings. */
  addScreeningGroup(group: ScreeningGroupRecord): void {
    this.screeningGroups.push(group);
    this.lastCreatedAt = group.createdAt;
    this.#screeningGroupsById.set(group.id, group);
    const ofAccount = this.#screeningGroupsOf.get(group.account);
    if (ofAccount === undefined) this.#screeningGroupsOf.set(group.account, [group]);
    else ofAccount.push(group);
    for (const screening of group.screenings) {
      this.#members.set(screening.id, { family: 'screening_group', group, screening });
    }
  }

  /** Stores a new report. */
  addReport(report: ReportRecord): void {
    this.reports.push(report);
    this.#reportsById.set(report.id, report);
    const ofGroup = this.#reportsOf.get(report.applicantGroupId);
    if (ofGroup === undefined) this.#reportsOf.set(report.applicantGroupId, [report]);
    else ofGroup.push(report);
  }

  /** The applicant groups of `account`, indexed for list queries (empty when it has none). */
  applicantGroupsOf(account: string): IndexedApplicantGroups {
    return this.#applicantGroupsOf.get(account) ?? EMPTY_ACCOUNT;
  }

  /** The screening groups of `account`, oldest first. */
  screeningGroupsOf(account: string): readonly ScreeningGroupRecord[] {
    return this.#screeningGroupsOf.get(account) ?? [];
  }

  /** Keeps the status index of an applicant group current after one of its applicants moved. */
  applicantGroupStatusChanged(group: ApplicantGroupRecord): void {
    this.#applicantGroupsOf.get(group.account)?.statusChanged(group, groupStatus(group.applicants));
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
    return [...(this.#reportsOf.get(applicantGroupId) ?? [])];
  }
}
