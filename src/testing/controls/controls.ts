/**
 * Test-side access to what the mock holds: the groups in wire form (as the API would return
 * them), the reports with their data, and report expiry.
 */
import type { ApplicantGroup, ScreeningGroup } from 'applicant-verification';
import { type AccountFilter, belongsTo } from '../accounts/accounts.js';
import type { MockContext } from '../state/context.js';
import { serializeApplicantGroup, serializeScreeningGroup } from '../state/serialize.js';
import {
  type ApplicantGroupRecord,
  REQUEST_EXPIRY_MS,
  type ReportRecord,
  type ScreeningGroupRecord,
} from '../state/store.js';

/**
 * The groups the mock holds, in wire form, oldest first. The lookups by id take an optional
 * `account`: given, another account's group is `undefined`, as an unknown id is.
 */
export interface GroupViews {
  /** Every applicant group (or one account's), as the list endpoint returns them (computed fields as of now). */
  applicant(filter?: AccountFilter): ApplicantGroup[];
  /** Every screening group (or one account's), as the list endpoint returns them. */
  screening(filter?: AccountFilter): ScreeningGroup[];
  /** One applicant group by id (of `filter.account` only, when given). */
  applicantGroup(id: string, filter?: AccountFilter): ApplicantGroup | undefined;
  /** One screening group by id (of `filter.account` only, when given). */
  screeningGroup(id: string, filter?: AccountFilter): ScreeningGroup | undefined;
  /**
   * Expires an applicant group or a screening group now, as if its 14 days had run out: its
   * 14-day window is moved back to end at the mock clock's now, so the group shows
   * `is_expired: true` (no clock moves, nothing else ages). Only a re-open starts a new window.
   * Throws "No applicant group or screening group" for an unknown id (or another account's, with
   * `filter.account`), and for a fully completed group, which does not expire.
   */
  expire(id: string, filter?: AccountFilter): void;
}

/** A report the mock holds: its record without what only the PDF rendering needs. */
export type MockReport = Omit<ReportRecord, 'pdfLines' | 'pdfTitle'>;

/**
 * Reports of applicant groups, and report expiry for both families. Every control takes an
 * optional `account` (a client id): given, it finds only that account's reports and groups.
 */
export interface ReportControls {
  /** Every report (or one account's), oldest first. */
  all(filter?: AccountFilter): MockReport[];
  /** Reports of one applicant group, oldest first. */
  forGroup(applicantGroupId: string, filter?: AccountFilter): MockReport[];
  /** One report by id. */
  get(reportId: string, filter?: AccountFilter): MockReport | undefined;
  /**
   * Expires report data. With `filter.account`, an id of another account's report or group
   * throws "No report or screening group", exactly as an unknown id does. With a report id: GET /reports/{id} answers 410 and the summary shows
   * `is_expired: true`. With a screening-group id (whose screenings produced a report): the group
   * shows `is_report_expired: true` and its webhook receives `REPORT_EXPIRED`.
   */
  expire(id: string, filter?: AccountFilter): void;
}

/** Read-only view of the raw records, for assertions the wire form cannot express. */
export interface ReadonlyMockState {
  /** Every applicant group, oldest first. */
  readonly applicantGroups: readonly Readonly<ApplicantGroupRecord>[];
  /** Every screening group, oldest first. */
  readonly screeningGroups: readonly Readonly<ScreeningGroupRecord>[];
  /** Every report, oldest first. */
  readonly reports: readonly Readonly<ReportRecord>[];
}

const view = (report: ReportRecord): MockReport => ({
  id: report.id,
  kind: report.kind,
  reportType: report.reportType,
  applicantGroupId: report.applicantGroupId,
  account: report.account,
  applicantId: report.applicantId,
  createdAt: report.createdAt,
  expired: report.expired,
  data: report.data,
  otherData: report.otherData,
});

/** The records of the account `filter` names, or all of them. */
const ofAccount = <T extends { account: string }>(records: readonly T[], filter: AccountFilter = {}): T[] =>
  records.filter((record) => belongsTo(record, filter));

/** `record` when it belongs to the account `filter` names (or it names none), else `undefined`. */
const owned = <T extends { account: string }>(
  record: T | undefined,
  filter?: AccountFilter,
): T | undefined => (record && belongsTo(record, filter) ? record : undefined);

/** Creates the group views of one mock. */
export function createGroupViews(context: MockContext): GroupViews {
  const { store, clock } = context;
  return {
    applicant: (filter) =>
      ofAccount(store.applicantGroups, filter).map((group) => serializeApplicantGroup(group, clock.now())),
    screening: (filter) =>
      ofAccount(store.screeningGroups, filter).map((group) =>
        serializeScreeningGroup(group, clock.now(), { answer: 'list' }),
      ),
    applicantGroup(id, filter) {
      const group = owned(store.applicantGroup(id), filter);
      return group && serializeApplicantGroup(group, clock.now());
    },
    screeningGroup(id, filter) {
      const group = owned(store.screeningGroup(id), filter);
      return group && serializeScreeningGroup(group, clock.now(), { answer: 'list' });
    },
    expire(id, filter) {
      const group = owned(store.applicantGroup(id), filter) ?? owned(store.screeningGroup(id), filter);
      if (!group) throw new Error(`No applicant group or screening group with id ${id}`);
      if (group.completedAt !== null)
        throw new Error(`Group ${id} is completed: a fully completed group does not expire`);
      group.expiryStart = Math.floor(clock.now()) - REQUEST_EXPIRY_MS;
    },
  };
}

/** Creates the report controls of one mock. */
export function createReportControls(context: MockContext): ReportControls {
  const { store } = context;
  return {
    all: (filter) => ofAccount(store.reports, filter).map(view),
    forGroup: (groupId, filter) => ofAccount(store.reportsOf(groupId), filter).map(view),
    get(reportId, filter) {
      const report = owned(store.report(reportId), filter);
      return report && view(report);
    },
    expire(id, filter) {
      const report = owned(store.report(id), filter);
      if (report) {
        report.expired = true;
        return;
      }
      const group = owned(store.screeningGroup(id), filter);
      if (!group) throw new Error(`No report or screening group with id ${id}`);
      if (!group.hasReport)
        throw new Error(`Screening group ${id} has no report yet: complete a screening first`);
      if (group.reportExpired) return;
      group.reportExpired = true;
      context.emit(group, { code: 'REPORT_EXPIRED', screening_group_id: group.id });
    },
  };
}
