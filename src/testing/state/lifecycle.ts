/**
 * The applicant life cycle (docs/wire-contract.md, states and transitions), driven by tests in
 * place of real applicants. One table holds every transition of both families: which states a
 * step leaves from, where it goes, and what it does on the way in an applicant group (verification
 * statuses, reports, events) and in a screening group (events). Works on applicant-group
 * applicants and on screenings alike, by id.
 */

import { type AccountFilter, belongsTo } from '../accounts/accounts.js';
import { createHouseholdReport, createIndividualReport, createOwnReports } from '../reports/reports.js';
import type { MockContext } from './context.js';
import {
  COMPLETION_REASONS,
  type CompletionReason,
  groupStatus,
  type MemberLocation,
  type Progress,
} from './store.js';

/** Options of {@link ApplicantControls.complete}; `account` finds only that account's applicants. */
export interface CompleteOptions extends AccountFilter {
  /** Bank named in `BANK_NOT_SUPPORTED` / `BANK_CANNOT_CONNECT` events (default: a seeded pick). */
  bankName?: string;
}

/** A completion that is not a success: every completion reason but `finished`. */
export type FailureReason = Exclude<CompletionReason, 'finished'>;

/** What {@link ApplicantControls.fail} completes with when given no reason. */
export const DEFAULT_FAILURE_REASON: FailureReason = 'bank_cannot_connect';

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

/**
 * Moves applicants (applicant-group applicants or screenings) through the life cycle. Each control
 * takes an optional `account` (a client id): given, it finds only that account's applicants, and
 * another account's id throws "No applicant or screening" exactly as an unknown one does.
 */
export interface ApplicantControls {
  /** not_started -> in_progress: the applicant followed the invitation and created a password. */
  start(id: string, filter?: AccountFilter): void;
  /**
   * -> completed with `reason` (default `finished`). A not-started applicant is started first (with
   * its events), as if they went through the whole flow. Completing an applicant-group applicant
   * creates its individual report, and the household report once every applicant is completed.
   */
  complete(id: string, reason?: CompletionReason, options?: CompleteOptions): void;
  /**
   * -> completed with an outcome other than `finished` (default `bank_cannot_connect`): the
   * applicant could not verify (no bank, a bank that does not connect, no income...). The same
   * step as {@link ApplicantControls.complete}, with its reports and events; `finished` throws.
   */
  fail(id: string, reason?: FailureReason, options?: CompleteOptions): void;
  /** completed -> in_progress: the applicant re-opened their verification or screening. */
  reopen(id: string, filter?: AccountFilter): void;
  /** Current state of an applicant or screening. */
  get(id: string, filter?: AccountFilter): ApplicantState;
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

/** A step a test takes on an applicant or screening. */
type Step = 'start' | 'complete' | 'reopen';

/** What a step needs: the member, its group, the reason (complete) and options. */
interface StepInput {
  context: MockContext;
  reason: CompletionReason;
  options: CompleteOptions;
}

/** One row of the transition table. */
interface Transition {
  /** States the step leaves from. */
  from: readonly Progress[];
  /** State the step arrives at. */
  to: Progress;
  /** What happens in an applicant group, after the member's status changed. */
  applicantGroup(member: Extract<MemberLocation, { family: 'applicant_group' }>, input: StepInput): void;
  /** What happens in a screening group, after the screening's status changed. */
  screeningGroup(member: Extract<MemberLocation, { family: 'screening_group' }>, input: StepInput): void;
}

const screeningIds = (member: Extract<MemberLocation, { family: 'screening_group' }>) => ({
  screening_group_id: member.group.id,
  screening_id: member.screening.id,
});

// Reason-specific screening events follow the completion, as support-submitted outcomes do.
const REASON_EVENTS: Partial<Record<CompletionReason, 'NO_BANK' | 'SHARE_BANK' | 'NO_INCOME'>> = {
  no_bank: 'NO_BANK',
  share_bank: 'SHARE_BANK',
  no_income: 'NO_INCOME',
};
const BANK_EVENTS: Partial<Record<CompletionReason, 'BANK_NOT_SUPPORTED' | 'BANK_CANNOT_CONNECT'>> = {
  missing_bank: 'BANK_NOT_SUPPORTED',
  bank_cannot_connect: 'BANK_CANNOT_CONNECT',
};

/**
 * Every transition of both families. `complete` from not_started runs `start` first (with its
 * events), as if the applicant went through the whole flow.
 */
const TRANSITIONS: Record<Step, Transition> = {
  start: {
    from: ['not_started'],
    to: 'in_progress',
    applicantGroup({ group, applicant }, { context }) {
      for (const verification of applicant.verifications) {
        context.emit(group, { code: 'VERIFICATION_STARTED', verification_id: verification.id });
      }
    },
    screeningGroup(member, { context }) {
      context.emit(member.group, { code: 'BEGIN_SCREENING', ...screeningIds(member) });
    },
  },
  complete: {
    from: ['in_progress'],
    to: 'completed',
    applicantGroup({ group, applicant }, { context, reason }) {
      applicant.reasonCompleted = reason;
      for (const verification of applicant.verifications) {
        context.emit(group, {
          code: 'VERIFICATION_COMPLETED',
          verification_id: verification.id,
          reason_completed: reason,
        });
      }
      const individual = createIndividualReport(context, group, applicant);
      context.emit(group, {
        code: 'REPORT_READY',
        applicant_group_id: group.id,
        applicant_id: applicant.id,
        report_id: individual.id,
        report_type: 'income',
      });
      for (const own of createOwnReports(context, group, applicant)) {
        context.emit(group, {
          code: 'REPORT_READY',
          applicant_group_id: group.id,
          applicant_id: applicant.id,
          report_id: own.id,
          report_type: own.reportType,
        });
      }
      if (groupStatus(group.applicants) === 'completed') {
        const household = createHouseholdReport(context, group);
        // A household report is about no single applicant: its event names none, as its
        // report detail carries no applicant_id.
        context.emit(group, {
          code: 'REPORT_READY',
          applicant_group_id: group.id,
          report_id: household.id,
          report_type: 'income',
        });
      }
    },
    screeningGroup(member, { context, reason, options }) {
      const { group } = member;
      member.screening.reasonCompleted = reason;
      // The income the screening found feeds the group's income-to-rent multiplier.
      member.screening.monthlyIncomeCents =
        reason === 'finished'
          ? context.reportRandom.int(1_500_00, 9_000_00)
          : reason === 'no_income'
            ? 0
            : null;
      group.hasReport = true;
      context.emit(group, { code: 'SCREENING_COMPLETED', ...screeningIds(member) });
      const plain = REASON_EVENTS[reason];
      if (plain) context.emit(group, { code: plain, ...screeningIds(member) });
      const withBank = BANK_EVENTS[reason];
      if (withBank) {
        const value = options.bankName ?? context.reportRandom.pick(BANKS);
        context.emit(group, { code: withBank, ...screeningIds(member), value });
      }
      if (groupStatus(group.screenings) === 'completed') {
        context.emit(group, { code: 'SCREENING_GROUP_COMPLETED', screening_group_id: group.id });
      }
    },
  },
  reopen: {
    from: ['completed'],
    to: 'in_progress',
    applicantGroup({ applicant }) {
      applicant.reasonCompleted = 'not_completed';
    },
    screeningGroup(member, { context }) {
      member.screening.reasonCompleted = 'not_completed';
      member.screening.monthlyIncomeCents = null;
      context.emit(member.group, { code: 'RE_OPEN_SCREENING', ...screeningIds(member) });
    },
  },
};

function statusOf(member: MemberLocation): Progress {
  return member.family === 'applicant_group' ? member.applicant.status : member.screening.status;
}

function describe(member: MemberLocation): string {
  return member.family === 'applicant_group'
    ? `Applicant ${member.applicant.id}`
    : `Screening ${member.screening.id}`;
}

// Moves the member, then keeps the group's expiry facts: the moment it became fully completed,
// and a fresh 14-day window on a re-open (expiry is final until then).
function apply(step: Step, member: MemberLocation, input: StepInput): void {
  const transition = TRANSITIONS[step];
  const status = statusOf(member);
  if (!transition.from.includes(status)) {
    const allowed = transition.from.join(' or ');
    throw new LifecycleError(
      status === 'completed' && step === 'complete'
        ? `${describe(member)} is already completed`
        : `${describe(member)} is ${status}; only a ${allowed} one can ${step === 'reopen' ? 're-open' : step}`,
    );
  }
  const now = input.context.clock.now();
  if (member.family === 'applicant_group') {
    const { applicant } = member;
    applicant.status = transition.to;
    applicant.updatedAt = now;
    for (const verification of applicant.verifications) verification.status = transition.to;
  } else {
    member.screening.status = transition.to;
  }
  const group = member.group;
  const members = member.family === 'applicant_group' ? member.group.applicants : member.group.screenings;
  if (step === 'reopen') group.expiryStart = now;
  group.completedAt = groupStatus(members) === 'completed' ? now : null;
  if (member.family === 'applicant_group') input.context.store.applicantGroupStatusChanged(member.group);
  if (member.family === 'applicant_group') transition.applicantGroup(member, input);
  else transition.screeningGroup(member, input);
}

/** Creates the life-cycle controls of one mock. */
export function createApplicantControls(context: MockContext): ApplicantControls {
  const find = (id: string, filter: AccountFilter = {}): MemberLocation => {
    const member = context.store.member(id);
    if (!member || !belongsTo(member.group, filter))
      throw new LifecycleError(`No applicant or screening with id ${id}`);
    return member;
  };
  const input = (reason: CompletionReason = 'finished', options: CompleteOptions = {}): StepInput => ({
    context,
    reason,
    options,
  });

  const complete = (
    id: string,
    reason: CompletionReason = 'finished',
    options: CompleteOptions = {},
  ): void => {
    if (!(COMPLETION_REASONS as readonly string[]).includes(reason)) {
      throw new LifecycleError(
        `Unknown completion reason "${reason}"; use one of ${COMPLETION_REASONS.join(', ')}`,
      );
    }
    const member = find(id, options);
    if (statusOf(member) === 'not_started') apply('start', member, input());
    apply('complete', member, input(reason, options));
  };

  return {
    start(id, filter) {
      apply('start', find(id, filter), input());
    },
    complete,
    fail(id, reason = DEFAULT_FAILURE_REASON, options = {}) {
      if ((reason as string) === 'finished') {
        throw new LifecycleError(`fail() takes a reason other than "finished"; use complete() for a success`);
      }
      complete(id, reason, options);
    },
    reopen(id, filter) {
      apply('reopen', find(id, filter), input());
    },
    get(id, filter) {
      const member = find(id, filter);
      const { status, reasonCompleted } =
        member.family === 'applicant_group' ? member.applicant : member.screening;
      return { status, reasonCompleted, family: member.family, groupId: member.group.id };
    },
  };
}
