/**
 * Summaries of generated reports: average monthly income over the documented windows (docs/wire-contract.md §2.5), income
 * summaries, their household sums, the rent criteria, and the income report data object.
 */
import type {
  CriteriaRuleResult,
  IncomeReportData,
  IncomeSummary,
  VerificationReport,
} from 'applicant-verification';
import type { ReportContext } from './report-context.js';
import { type DraftStream, renderStream, streamTotalCents } from './report-streams.js';
import { addMonths, dollars } from './report-units.js';

export const WINDOWS = [
  ['one_month_avg_monthly', 1],
  ['two_month_avg_monthly', 2],
  ['three_month_avg_monthly', 3],
  ['six_month_avg_monthly', 6],
  ['nine_month_avg_monthly', 9],
  ['twelve_month_avg_monthly', 12],
] as const;

type AverageKey = (typeof WINDOWS)[number][0];
export type Averages = Record<AverageKey, number | null>;

/**
 * Average monthly income over each window ending on the report day. `historyMonths` is how much
 * history was connected: a window longer than that has no honest average, hence `null`.
 */
export function averages(
  streams: DraftStream[],
  today: Date,
  historyMonths: number,
  knownZero: boolean,
): Averages {
  const out = {} as Averages;
  for (const [key, months] of WINDOWS) {
    if (knownZero) {
      out[key] = 0;
      continue;
    }
    if (months > historyMonths) {
      out[key] = null;
      continue;
    }
    const since = addMonths(today, -months);
    let cents = 0;
    for (const stream of streams)
      for (const t of stream.transactions) if (t.date > since && t.date <= today) cents += t.cents;
    out[key] = dollars(cents / months);
  }
  return out;
}

export function summary(
  streams: DraftStream[],
  today: Date,
  historyMonths: number,
  knownZero: boolean,
  withPaystubs: boolean,
): IncomeSummary {
  return {
    total: dollars(streams.reduce((sum, s) => sum + streamTotalCents(s), 0)),
    ...averages(streams, today, historyMonths, knownZero),
    income_streams: streams.map((s) => renderStream(s, withPaystubs)),
  };
}

/** Income-to-rent multiple a household must reach; the common "income of 2.5x the rent" rule. */
const MULTIPLIER_THRESHOLD = 2.5;
const CRITERIA_USED = 'three_month_avg_monthly';

const toCents = (amount: number | null | undefined): number => Math.round((amount ?? 0) * 100);

/**
 * Sums summaries: totals and averages add up, streams are listed together. An average that is
 * `null` in one entry counts as zero when others have it, and stays `null` only when every entry
 * lacks it (no one has that much history).
 */
function sumSummaries(summaries: (IncomeSummary | null | undefined)[]): IncomeSummary {
  const present = summaries.filter((s): s is IncomeSummary => s !== undefined && s !== null);
  const out: IncomeSummary = { total: dollars(present.reduce((sum, s) => sum + toCents(s.total), 0)) };
  for (const [key] of WINDOWS) {
    const values = present.map((s) => s[key]).filter((v): v is number => typeof v === 'number');
    out[key] = values.length === 0 ? null : dollars(values.reduce((sum, v) => sum + toCents(v), 0));
  }
  out.income_streams = present.flatMap((s) => s.income_streams ?? []);
  return out;
}

/**
 * The rent rule: recurring three-month average monthly income against the monthly rent.
 *
 * `multiplier_result` holds the outcome of the multiplier check (`passed` / `failed`), not the
 * multiple itself: docs/wire-contract.md §2.8 lists passed as the value seen for "the result fields" of
 * criteria_rule_results, and the schema types it that way. With this single multiplier rule,
 * `result` and `multiplier_result` agree. A missing average counts as no income.
 */
function rentCriteria(recurring: IncomeSummary, monthlyRentCents: number): CriteriaRuleResult[] {
  if (!(monthlyRentCents > 0)) return []; // no rent, no ratio to judge
  // Integer cents on both sides, so a multiple of exactly 2.5 passes without float doubt.
  const passed = toCents(recurring[CRITERIA_USED]) * 10 >= MULTIPLIER_THRESHOLD * 10 * monthlyRentCents;
  const outcome = passed ? 'passed' : 'failed';
  return [
    {
      result: outcome,
      multiplier_result: outcome,
      multiplier_threshold: MULTIPLIER_THRESHOLD,
      criteria_used: CRITERIA_USED,
      criteria_from_rule: 'recurring',
    },
  ];
}

/**
 * The income report data object: individual report = one entry, household = all entries;
 * household recurring/non_recurring are the sums of the entries; criteria_rule_results compare
 * recurring monthly income against the rent (three-month average >= 2.5x `monthlyRentCents / 100`).
 *
 * @param context - Group facts; `createdAt` becomes `created_at` (ISO 8601 with milliseconds).
 * @param entries - Per-verification entries from {@link generateVerificationReport}.
 */
export function buildIncomeReportData(
  context: ReportContext,
  entries: VerificationReport[],
): IncomeReportData {
  const recurring = sumSummaries(entries.map((e) => e.recurring));
  return {
    reports: entries,
    recurring,
    non_recurring: sumSummaries(entries.map((e) => e.non_recurring)),
    summary_timespan_length: entries.reduce((max, e) => Math.max(max, e.summary_timespan_length ?? 0), 0),
    criteria_rule_results: rentCriteria(recurring, context.monthlyRentCents),
    applicant_group_id: context.applicantGroupId,
    property_name: context.propertyName,
    property_monthly_rent_cents: context.monthlyRentCents,
    created_at: context.createdAt.toISOString(),
    uploaded_documents: entries.flatMap((e) => e.uploaded_documents ?? []),
  };
}
