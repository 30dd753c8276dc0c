/**
 * Realistic income report data for the mock server (docs/wire-contract.md §2.5). Everything is derived from the
 * caller's seeded `Random` and the mock clock (`context.createdAt`), never from `Math.random` or the
 * real clock, so a seeded mock serves byte-identical reports run after run.
 *
 * Units and conventions chosen where the vendor's documentation is silent (docs/wire-contract.md §2.8):
 * - Money in report data is in dollars, as numbers with at most two decimals (`2143.57`). The
 *   vendor's documentation does not name the unit; only `property_monthly_rent_cents` is explicitly in cents.
 *   All arithmetic runs on integer cents and converts once, so sums are exact to the cent.
 * - `summary_timespan_length` and `transaction_timespan_length` count days.
 * - Averages (`*_month_avg_monthly`) are the income dated within the last N months before the
 *   report date divided by N, and `null` when the connected history is shorter than N months.
 *   An applicant who declared `no_income` gets `0` (a known zero), not `null` (unknown).
 * - `monthly_income` of a stream is its typical amount per pay times pays per year over 12;
 *   for a non-recurring stream, its total spread over the months of history.
 */
import type { VerificationReport } from 'applicant-verification';
import { type Random, randomFrom } from '../state/random.js';
import { EXPLANATIONS } from './report-catalogue.js';
import { bankConnection, payrollConnection, uploadedDocuments } from './report-connections.js';
import type { ReportContext } from './report-context.js';
import { type DraftStream, gigStream, nonRecurringStreams, primaryJob } from './report-streams.js';
import { summary } from './report-summaries.js';
import { addMonths, daysBetween, longDate, utcDay } from './report-units.js';

export type { ReportContext } from './report-context.js';
export { buildIncomeReportData } from './report-summaries.js';

/** The applicant a per-verification entry is generated for. */
export interface ReportApplicant {
  /** Not written into the entry (docs/wire-contract.md §2.5 has no applicant id there); the mock keys reports by it. */
  applicantId: string;
  verificationId: string;
  fullName: string;
  email: string;
  /** A docs/wire-contract.md §2.7 value; anything other than `finished` yields a partial or empty entry. */
  reasonCompleted: string;
  /** The verification's `type` (default: an income verification, every source possible). */
  verificationType?: string;
  /** `allowed_income_sources` of the verification; `null` or absent: no restriction. */
  allowedIncomeSources?: readonly string[] | null;
}

/** Where an entry's income data may come from. */
export interface IncomeSources {
  bank: boolean;
  payroll: boolean;
  documents: boolean;
}

// What each verification type can draw on: assets live in bank accounts; an identity check
// reads payroll records and documents, never a bank. Other types (income verifications, and
// any newer type) may use every source.
const TYPE_SOURCES: Readonly<Record<string, IncomeSources>> = {
  asset_verification: { bank: true, payroll: false, documents: false },
  identity_verification: { bank: false, payroll: true, documents: true },
};

/**
 * The sources an entry may use: those of its verification type, narrowed by
 * `allowed_income_sources` when given (`income` allows every income source).
 */
export function incomeSourcesFor(
  type: string | undefined,
  allowed: readonly string[] | null | undefined,
): IncomeSources {
  const byType = TYPE_SOURCES[type ?? ''] ?? { bank: true, payroll: true, documents: true };
  if (!allowed || allowed.length === 0) return byType;
  const any = allowed.includes('income');
  return {
    bank: byType.bank && (any || allowed.includes('bank')),
    payroll: byType.payroll && (any || allowed.includes('payroll')),
    documents: byType.documents && (any || allowed.includes('documents')),
  };
}

/**
 * One per-verification entry of `data.reports`: realistic and fully deterministic for a given seeded `Random`
 * sequence.
 *
 * `finished` connects a bank (and usually payroll) with 6-12 months of history; `no_bank`,
 * `no_online_banking`, `bank_cannot_connect` and `missing_bank` have no bank connection but may
 * carry a payroll connection and uploaded documents; `share_bank` and `not_completed` carry no
 * income data; `no_income` reports zero income. Dates are anchored on `context.createdAt`.
 *
 * @param source - The seeded source of every draw: a `Random`, or a function of floats in [0, 1).
 * @param applicant - Who the entry is for and how their verification ended (docs/wire-contract.md §2.7).
 * @param context - The group facts; `createdAt` is the report date.
 */
export function generateVerificationReport(
  source: Random | (() => number),
  applicant: ReportApplicant,
  context: ReportContext,
): VerificationReport {
  const random = typeof source === 'function' ? randomFrom(source) : source;
  const reason = applicant.reasonCompleted;
  const today = utcDay(context.createdAt);
  const historyMonths = random.int(6, 12);
  const historyStart = addMonths(today, -historyMonths);

  const sources = incomeSourcesFor(applicant.verificationType, applicant.allowedIncomeSources);
  const bankReasons = reason === 'finished';
  const payrollReasons = ['finished', 'no_bank', 'no_online_banking', 'bank_cannot_connect', 'missing_bank'];
  const hasBank = bankReasons && sources.bank;
  // A finished verification without a bank to draw on finished through payroll.
  const hasPayroll =
    payrollReasons.includes(reason) &&
    sources.payroll &&
    ((bankReasons && !hasBank) || random.chance(bankReasons ? 0.6 : 0.5));

  const job = hasBank || hasPayroll ? primaryJob(random, historyStart, today) : undefined;
  const recurring: DraftStream[] = job ? [job.stream] : [];
  // A bank shows every deposit, so a second stream or one-off income only appears with one.
  if (hasBank && random.chance(0.4)) recurring.push(gigStream(random, historyStart, today));
  const nonRecurring = hasBank ? nonRecurringStreams(random, historyStart, today, historyMonths) : [];
  const connected = hasBank || hasPayroll;

  const documents = uploadedDocuments(
    random,
    applicant.fullName,
    today,
    // Documents stand in for a bank that could not be connected; someone declaring no income,
    // sharing a co-applicant's bank or not done yet has nothing to upload.
    !sources.documents
      ? 0
      : reason === 'finished'
        ? 0.25
        : ['not_completed', 'share_bank', 'no_income'].includes(reason)
          ? 0
          : 0.7,
  );

  const incomeSources: VerificationReport['income_sources'] = [];
  if (hasBank) incomeSources.push({ source: 'bank' });
  if (hasPayroll) incomeSources.push({ source: 'payroll' });
  if (documents.length > 0) incomeSources.push({ source: 'documents' });

  let explanation = random.pick(EXPLANATIONS[reason] ?? ['']);
  if (connected) {
    const gap = recurring.find((s) => s.gapIndexes.length > 0);
    const gapIndex = gap?.gapIndexes[0];
    const before = gapIndex === undefined ? undefined : gap?.transactions[gapIndex];
    explanation = before
      ? `I missed a paycheck from ${gap?.name} after ${longDate(before.date)} while on unpaid leave.`
      : reason === 'finished'
        ? ''
        : explanation;
  }

  const knownZero = reason === 'no_income';
  const months = connected ? historyMonths : 0;
  return {
    verification_id: applicant.verificationId,
    identity: { full_name: applicant.fullName, email: applicant.email },
    reason_completed: reason,
    income_sources: incomeSources,
    // Paystubs come from a payroll connection; a bank-only applicant has deposits alone.
    recurring: summary(recurring, today, months, knownZero, hasPayroll),
    non_recurring: summary(nonRecurring, today, months, knownZero, false),
    summary_timespan_length: connected ? daysBetween(historyStart, today) : 0,
    bank_connections: hasBank
      ? [
          bankConnection(
            random,
            recurring,
            nonRecurring,
            historyStart,
            today,
            historyMonths,
            context.blockBusinessAccounts === true,
          ),
        ]
      : [],
    payroll_connections:
      job && hasPayroll
        ? [payrollConnection(random, job, applicant.fullName, historyStart, today, historyMonths)]
        : [],
    income_explanation: explanation,
    uploaded_documents: documents,
  };
}
