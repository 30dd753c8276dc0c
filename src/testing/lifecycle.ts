/**
 * The applicant life cycle (spec part 3), driven by tests in place of real applicants:
 * not_started -> in_progress (start) -> completed (complete, with a reason) -> in_progress
 * (reopen). Works on applicant-group applicants and on screenings alike, by id. Each step
 * updates verification statuses, creates reports and emits the webhook events of issue 6.
 */
import type { MockContext } from './context.js';
import { createHouseholdReport, createIndividualReport } from './reports.js';
import {
  type ApplicantGroupRecord,
  type ApplicantRecord,
  COMPLETION_REASONS,
  type CompletionReason,
  groupStatus,
  type Progress,
  type ScreeningGroupRecord,
  type ScreeningRecord,
} from './store.js';

/** Options of {@link ApplicantControls.complete}. */
export interface CompleteOptions {
  /** Bank named in `BANK_NOT_SUPPORTED` / `BANK_CANNOT_CONNECT` events (default: a seeded pick). */
  bankName?: string;
}

/** Where an applicant stands. */
export interface ApplicantState {
  /** not_started, in_progress or completed. */
  status: Progress;
  /** Why it completed, or `not_completed`. */
  reasonCompleted: CompletionReason | 'not_completed';
  /** Whether it belongs to an applicant group or a screening group. */
  family: 'applicant_group' | 'screening_group';
  /** Id of its applicant group or screening group. */
  groupId: string;
}

/** Moves applicants (applicant-group applicants or screenings) through the life cycle. */
export interface ApplicantControls {
  /** not_started -> in_progress: the applicant followed the invitation and created a password. */
  start(id: string): void;
  /**
   * -> completed with `reason` (default `finished`). A not-started applicant is started first (with
   * its events), as if they went through the whole flow. Completing an applicant-group applicant
   * creates its individual report, and the household report once every applicant is completed.
   */
  complete(id: string, reason?: CompletionReason, options?: CompleteOptions): void;
  /** completed -> in_progress: the applicant re-opened their verification or screening. */
  reopen(id: string): void;
  /** Current state of an applicant or screening. */
  get(id: string): ApplicantState;
}

const BANKS = [
  'First Prairie Credit Union',
  'Harbor Savings Bank',
  'Mesa Community Bank',
  'Northfield Trust',
];

class LifecycleError extends Error {
  override name = 'LifecycleError';
}

/** Creates the life-cycle controls of one mock. */
export function createApplicantControls(context: MockContext): ApplicantControls {
  const find = (id: string) => {
    const member = context.store.member(id);
    if (!member) throw new LifecycleError(`No applicant or screening with id ${id}`);
    return member;
  };

  // --- applicant groups ------------------------------------------------------------------------

  function setApplicant(applicant: ApplicantRecord, status: Progress): void {
    applicant.status = status;
    applicant.updatedAt = context.clock.now();
    for (const verification of applicant.verifications) verification.status = status;
  }

  function startApplicant(group: ApplicantGroupRecord, applicant: ApplicantRecord): void {
    if (applicant.status !== 'not_started') {
      throw new LifecycleError(
        `Applicant ${applicant.id} is ${applicant.status}; only a not_started one can start`,
      );
    }
    setApplicant(applicant, 'in_progress');
    for (const verification of applicant.verifications) {
      context.emit(group.webhookUrl, { code: 'VERIFICATION_STARTED', verification_id: verification.id });
    }
  }

  function completeApplicant(
    group: ApplicantGroupRecord,
    applicant: ApplicantRecord,
    reason: CompletionReason,
  ) {
    if (applicant.status === 'completed')
      throw new LifecycleError(`Applicant ${applicant.id} is already completed`);
    if (applicant.status === 'not_started') startApplicant(group, applicant);
    setApplicant(applicant, 'completed');
    applicant.reasonCompleted = reason;
    for (const verification of applicant.verifications) {
      context.emit(group.webhookUrl, {
        code: 'VERIFICATION_COMPLETED',
        verification_id: verification.id,
        reason_completed: reason,
      });
    }
    const ready = [createIndividualReport(context, group, applicant)];
    if (groupStatus(group.applicants) === 'completed') ready.push(createHouseholdReport(context, group));
    for (const report of ready) {
      // REPORT_READY requires an applicant_id; a household report names the applicant whose
      // completion produced it.
      context.emit(group.webhookUrl, {
        code: 'REPORT_READY',
        applicant_group_id: group.id,
        applicant_id: report.applicantId ?? applicant.id,
        report_id: report.id,
        report_type: 'income',
      });
    }
  }

  function reopenApplicant(applicant: ApplicantRecord): void {
    if (applicant.status !== 'completed') {
      throw new LifecycleError(
        `Applicant ${applicant.id} is ${applicant.status}; only a completed one can re-open`,
      );
    }
    setApplicant(applicant, 'in_progress');
    applicant.reasonCompleted = 'not_completed';
  }

  // --- screening groups ------------------------------------------------------------------------

  const ids = (group: ScreeningGroupRecord, screening: ScreeningRecord) => ({
    screening_group_id: group.id,
    screening_id: screening.id,
  });

  function startScreening(group: ScreeningGroupRecord, screening: ScreeningRecord): void {
    if (screening.status !== 'not_started') {
      throw new LifecycleError(
        `Screening ${screening.id} is ${screening.status}; only a not_started one can start`,
      );
    }
    screening.status = 'in_progress';
    context.emit(group.webhookUrl, { code: 'BEGIN_SCREENING', ...ids(group, screening) });
  }

  function completeScreening(
    group: ScreeningGroupRecord,
    screening: ScreeningRecord,
    reason: CompletionReason,
    options: CompleteOptions,
  ): void {
    if (screening.status === 'completed')
      throw new LifecycleError(`Screening ${screening.id} is already completed`);
    if (screening.status === 'not_started') startScreening(group, screening);
    screening.status = 'completed';
    screening.reasonCompleted = reason;
    group.hasReport = true;
    const url = group.webhookUrl;
    context.emit(url, { code: 'SCREENING_COMPLETED', ...ids(group, screening) });
    // Reason-specific events follow the completion, as support-submitted outcomes do.
    const bank = () => options.bankName ?? context.reportRandom.pick(BANKS);
    if (reason === 'no_bank') context.emit(url, { code: 'NO_BANK', ...ids(group, screening) });
    if (reason === 'share_bank') context.emit(url, { code: 'SHARE_BANK', ...ids(group, screening) });
    if (reason === 'no_income') context.emit(url, { code: 'NO_INCOME', ...ids(group, screening) });
    if (reason === 'missing_bank') {
      context.emit(url, { code: 'BANK_NOT_SUPPORTED', ...ids(group, screening), value: bank() });
    }
    if (reason === 'bank_cannot_connect') {
      context.emit(url, { code: 'BANK_CANNOT_CONNECT', ...ids(group, screening), value: bank() });
    }
    if (groupStatus(group.screenings) === 'completed') {
      context.emit(url, { code: 'SCREENING_GROUP_COMPLETED', screening_group_id: group.id });
    }
  }

  function reopenScreening(group: ScreeningGroupRecord, screening: ScreeningRecord): void {
    if (screening.status !== 'completed') {
      throw new LifecycleError(
        `Screening ${screening.id} is ${screening.status}; only a completed one can re-open`,
      );
    }
    screening.status = 'in_progress';
    screening.reasonCompleted = 'not_completed';
    context.emit(group.webhookUrl, { code: 'RE_OPEN_SCREENING', ...ids(group, screening) });
  }

  return {
    start(id) {
      const member = find(id);
      if (member.family === 'applicant_group') startApplicant(member.group, member.applicant);
      else startScreening(member.group, member.screening);
    },
    complete(id, reason = 'finished', options = {}) {
      if (!(COMPLETION_REASONS as readonly string[]).includes(reason)) {
        throw new LifecycleError(
          `Unknown completion reason "${reason}"; use one of ${COMPLETION_REASONS.join(', ')}`,
        );
      }
      const member = find(id);
      if (member.family === 'applicant_group') completeApplicant(member.group, member.applicant, reason);
      else completeScreening(member.group, member.screening, reason, options);
    },
    reopen(id) {
      const member = find(id);
      if (member.family === 'applicant_group') reopenApplicant(member.applicant);
      else reopenScreening(member.group, member.screening);
    },
    get(id) {
      const member = find(id);
      const { status, reasonCompleted } =
        member.family === 'applicant_group' ? member.applicant : member.screening;
      return { status, reasonCompleted, family: member.family, groupId: member.group.id };
    },
  };
}
