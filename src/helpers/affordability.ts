/**
 * Income to rent, decided from a report detail alone (no I/O): which income figure, which window,
 * which threshold and which rent, each taken from the report unless the caller says otherwise, and
 * the reasons an adverse-action letter can cite. A figure the report leaves `null` is unknown,
 * never zero (docs/wire-contract.md §2.5, §2.8).
 */

import type { CriteriaRuleResult, IncomeSummary, VerificationReport } from '../schemas/lazy/income-report.js';
import { isIncomeReport, type ReportDetail } from '../schemas/lazy/reports.js';
import { dollarsToCents } from './money.js';
import { epochMsOf, type TimeSource } from './now.js';

/** One averaging field of an income summary, such as `three_month_avg_monthly`. */
export type AveragingWindow =
  | 'one_month_avg_monthly'
  | 'two_month_avg_monthly'
  | 'three_month_avg_monthly'
  | 'six_month_avg_monthly'
  | 'nine_month_avg_monthly'
  | 'twelve_month_avg_monthly';

/** The averaging fields of an income summary, shortest window first. */
const AVERAGING_WINDOWS: readonly AveragingWindow[] = [
  'one_month_avg_monthly',
  'two_month_avg_monthly',
  'three_month_avg_monthly',
  'six_month_avg_monthly',
  'nine_month_avg_monthly',
  'twelve_month_avg_monthly',
];

/** The income-to-rent multiple required when neither the caller nor the report names one. */
export const DEFAULT_AFFORDABILITY_THRESHOLD = 2.5;
/** The averaging window used when neither the caller nor the report names one. */
export const DEFAULT_AVERAGING_WINDOW: AveragingWindow = 'three_month_avg_monthly';
/** Reports expire 14 days after they are created (docs/wire-contract.md §8). */
const REPORT_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

/** Options of {@link affordability}; every one overrides what the report says. */
export interface AffordabilityOptions {
  /** Monthly rent in cents. Default: the report's `property_monthly_rent_cents`. */
  rentCents?: number;
  /** Required income-to-rent multiple. Default: the report's criteria rule, else 2.5. */
  threshold?: number;
  /** Averaging window. Default: the one the report's criteria rule names, else the three-month average. */
  window?: AveragingWindow;
  /** `recurring` (default) or `all`: recurring plus non-recurring income. */
  income?: 'recurring' | 'all';
  /**
   * Unit of the money figures inside report data. The API does not state it; the SDK reads them
   * as dollars (default `dollars`). Rents are always cents.
   */
  reportMoneyUnit?: 'dollars' | 'cents';
  /** The report is known to be expired (a report summary's `is_expired`). */
  expired?: boolean;
  /**
   * Now: a report created 14 days or more before it counts as expired. A `Date`, epoch ms, a
   * clock (`{ now() }`) or a function returning epoch ms. Default: the current time, so the age is
   * always checked (pass the mock's clock in tests whose mock is pinned to another day).
   */
  now?: TimeSource;
  /**
   * Where the household figure comes from. `'report'` (default): the report's own household figure
   * (`data.recurring`, `data.non_recurring`); when the report leaves it `null`, it is unknown
   * (`income_unknown`), never zero and never guessed. `'sum-of-applicants'`: then the sum of the
   * applicants' figures stands in, when every one is known (a shared account is counted once per
   * applicant who connected it: the reason it is not the default). `sources.householdIncome` says
   * which was used.
   */
  householdIncome?: 'report' | 'sum-of-applicants';
}

/** Where a figure of the decision came from. */
export type AffordabilitySource = 'option' | 'report' | 'default';

/** Income of one entry of the report (one verification of one applicant). */
export interface ApplicantAffordability {
  /** The verification this entry is about; `null` when the report leaves it out. */
  verificationId: string | null;
  /** The applicant's name as the bank or payroll holds it; `null` when absent. */
  name: string | null;
  /** The applicant's email; `null` when absent. */
  email: string | null;
  /** How the verification ended (`finished`, `no_bank`, ...); `null` when absent. */
  reasonCompleted: string | null;
  /** Monthly income in cents over the window; `null` when the report does not know it. */
  monthlyIncomeCents: number | null;
}

/** Why a household did not pass: machine-readable, for an adverse-action letter. */
export type AffordabilityReason =
  | {
      /** The household's income over the window is unknown. */
      code: 'income_unknown';
      /** A sentence for people. */
      message: string;
    }
  | {
      /** One applicant's income is unknown (it may be why the household falls short). */
      code: 'applicant_income_unknown';
      /** The entry without a figure. */
      applicant: ApplicantAffordability;
      /** A sentence for people. */
      message: string;
    }
  | {
      /** Neither the report nor the options give a positive rent. */
      code: 'rent_unknown';
      /** A sentence for people. */
      message: string;
    }
  | {
      /** Income is below the threshold times the rent. */
      code: 'below_threshold';
      /** Income divided by rent. */
      ratio: number;
      /** The multiple required. */
      threshold: number;
      /** A sentence for people. */
      message: string;
    }
  | {
      /** The report has expired: a decision needs a fresh one. */
      code: 'report_expired';
      /** A sentence for people. */
      message: string;
    }
  | {
      /** The report is not an income report. */
      code: 'not_income_report';
      /** A sentence for people. */
      message: string;
    };

/** The outcome of {@link affordability}. Money is in integer cents. */
export interface AffordabilityResult {
  /** Whether income reaches the threshold times the rent on a known, unexpired report. */
  passed: boolean;
  /** Why it did not pass; empty when it passed. */
  reasons: AffordabilityReason[];
  /** Household monthly income in cents; `null` when unknown. */
  householdMonthlyIncomeCents: number | null;
  /** Monthly income of each entry of the report, in report order. */
  applicants: ApplicantAffordability[];
  /** Monthly rent in cents; `null` when unknown. */
  rentCents: number | null;
  /** Household income divided by rent; `null` when either is unknown. */
  ratio: number | null;
  /** The multiple required. */
  threshold: number;
  /** The averaging window used. */
  window: AveragingWindow;
  /** `recurring` or `all` (recurring plus non-recurring). */
  income: 'recurring' | 'all';
  /** Where the rent, threshold and window came from. */
  sources: {
    /** Where the rent came from. */
    rent: AffordabilitySource;
    /** Where the threshold came from. */
    threshold: AffordabilitySource;
    /** Where the window came from. */
    window: AffordabilitySource;
    /**
     * Where the household figure came from: the report's own, or the sum of the applicants'
     * (only with `householdIncome: 'sum-of-applicants'`, when the report's is `null`).
     */
    householdIncome: 'report' | 'sum-of-applicants';
  };
}

function isWindow(value: unknown): value is AveragingWindow {
  return (AVERAGING_WINDOWS as readonly unknown[]).includes(value);
}

const known = (value: number | null | undefined): value is number =>
  // Stryker disable next-line ConditionalExpression: equivalent, Number.isFinite is false for every non-number (the typeof is the type guard)
  typeof value === 'number' && Number.isFinite(value);

/** The first criteria rule carrying a multiplier: the report's own income-to-rent rule. */
function rentRule(rules: readonly CriteriaRuleResult[] | null | undefined): CriteriaRuleResult | undefined {
  // Stryker disable next-line ArrayDeclaration: equivalent, an element that is not a rule has no multiplier or window either
  return (rules ?? []).find((rule) => known(rule.multiplier_threshold) || isWindow(rule.criteria_used));
}

/** One summary's figure over `window`, in cents; `null` when unknown. */
function figureCents(
  summary: IncomeSummary | null | undefined,
  window: AveragingWindow,
  unit: 'dollars' | 'cents',
): number | null {
  const value = summary?.[window];
  if (!known(value)) return null;
  return unit === 'cents' ? Math.round(value) : dollarsToCents(value);
}

/** Recurring (plus non-recurring for `all`) income over `window`, in cents; unknown if any part is. */
function incomeCents(
  source: { recurring?: IncomeSummary | null; non_recurring?: IncomeSummary | null },
  window: AveragingWindow,
  income: 'recurring' | 'all',
  unit: 'dollars' | 'cents',
): number | null {
  const recurring = figureCents(source.recurring, window, unit);
  if (income === 'recurring' || recurring === null) return recurring;
  const other = figureCents(source.non_recurring, window, unit);
  return other === null ? null : recurring + other;
}

function applicantOf(
  entry: VerificationReport,
  window: AveragingWindow,
  income: 'recurring' | 'all',
  unit: 'dollars' | 'cents',
): ApplicantAffordability {
  return {
    verificationId: entry.verification_id ?? null,
    name: entry.identity?.full_name ?? null,
    email: entry.identity?.email ?? null,
    reasonCompleted: entry.reason_completed ?? null,
    monthlyIncomeCents: incomeCents(entry, window, income, unit),
  };
}

/** Whether income reaches threshold x rent, in integers (a multiple of exactly 2.5 passes). */
function reaches(incomeCentsValue: number, rentCents: number, threshold: number): boolean {
  return incomeCentsValue * 10_000 >= Math.round(threshold * 10_000) * rentCents;
}

function isExpired(
  createdAt: string | null | undefined,
  options: AffordabilityOptions,
  now: number,
): boolean {
  if (options.expired === true) return true;
  if (!createdAt) return false;
  const created = Date.parse(createdAt);
  return Number.isFinite(created) && now - created >= REPORT_LIFETIME_MS;
}

function checkOptions(options: AffordabilityOptions): void {
  const { rentCents, threshold, window, householdIncome } = options;
  if (
    householdIncome !== undefined &&
    householdIncome !== 'report' &&
    householdIncome !== 'sum-of-applicants'
  ) {
    throw new TypeError(
      `affordability: householdIncome must be 'report' or 'sum-of-applicants', got ${String(householdIncome)}`,
    );
  }
  if (rentCents !== undefined && !(Number.isInteger(rentCents) && rentCents > 0)) {
    throw new TypeError(`affordability: rentCents must be a positive integer of cents, got ${rentCents}`);
  }
  if (threshold !== undefined && !(Number.isFinite(threshold) && threshold > 0)) {
    throw new TypeError(`affordability: threshold must be a positive number, got ${threshold}`);
  }
  if (window !== undefined && !isWindow(window)) {
    throw new TypeError(
      `affordability: window must be one of ${AVERAGING_WINDOWS.join(', ')}, got ${window}`,
    );
  }
}

const dollarsText = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * Income to rent from a report detail (what `reports.retrieve` and
 * `applicantGroups.householdReport` return), with no I/O.
 *
 * Defaults come from the report: the averaging window its criteria rule names (`criteria_used`)
 * and its threshold (`multiplier_threshold`), else the three-month average and 2.5; recurring
 * income (`income: 'all'` adds non-recurring); the rent `property_monthly_rent_cents`. The
 * household figure is the report's own (`data.recurring`); when that is `null` the income is
 * unknown, unless `householdIncome: 'sum-of-applicants'` lets the applicants' sum stand in. The
 * report's age is always checked, against `now` (default the current time). Report money is read
 * as dollars (`reportMoneyUnit` says otherwise).
 *
 * ```ts
 * const result = affordability(await client.applicantGroups.householdReport(groupId));
 * if (!result.passed) sendAdverseAction(result.reasons);
 * ```
 *
 * @throws {TypeError} when an option is out of range (before anything is computed).
 */
export function affordability(report: ReportDetail, options: AffordabilityOptions = {}): AffordabilityResult {
  checkOptions(options);
  // A helper without a client: its default "now" is the wall clock (test/core/wall-clock.test.ts).
  const now = epochMsOf(options.now, () => Date.now(), 'affordability: now');
  const income = options.income ?? 'recurring';
  // Stryker disable next-line StringLiteral: equivalent, every unit but 'cents' reads as dollars
  const unit = options.reportMoneyUnit ?? 'dollars';
  const reasons: AffordabilityReason[] = [];
  const incomeData = isIncomeReport(report) ? report.data : undefined;
  if (!incomeData) {
    reasons.push({
      code: 'not_income_report',
      message: `The report is a ${report.report_type} report, not an income report.`,
    });
  }
  const rule = rentRule(incomeData?.criteria_rule_results);

  const window =
    options.window ?? (isWindow(rule?.criteria_used) ? rule.criteria_used : DEFAULT_AVERAGING_WINDOW);
  const windowSource: AffordabilitySource =
    options.window !== undefined ? 'option' : isWindow(rule?.criteria_used) ? 'report' : 'default';
  const ruleThreshold = rule?.multiplier_threshold;
  const threshold =
    options.threshold ??
    (known(ruleThreshold) && ruleThreshold > 0 ? ruleThreshold : DEFAULT_AFFORDABILITY_THRESHOLD);
  const thresholdSource: AffordabilitySource =
    options.threshold !== undefined ? 'option' : threshold === ruleThreshold ? 'report' : 'default';
  const reportRent = incomeData?.property_monthly_rent_cents;
  const rentCents = options.rentCents ?? (known(reportRent) && reportRent > 0 ? reportRent : null);
  const rentSource: AffordabilitySource =
    options.rentCents !== undefined ? 'option' : rentCents !== null ? 'report' : 'default';

  const applicants = (incomeData?.reports ?? []).map((entry) => applicantOf(entry, window, income, unit));
  const own = incomeData ? incomeCents(incomeData, window, income, unit) : null;
  const figures = applicants.map((applicant) => applicant.monthlyIncomeCents);
  const summed =
    figures.length > 0 && figures.every((f): f is number => f !== null)
      ? figures.reduce((sum, f) => sum + f, 0)
      : null;
  const fromApplicants = own === null && summed !== null && options.householdIncome === 'sum-of-applicants';
  const household = fromApplicants ? summed : own;
  const ratio = household !== null && rentCents !== null ? household / rentCents : null;

  if (isExpired(incomeData?.created_at, options, now)) {
    reasons.push({ code: 'report_expired', message: 'The report has expired; request a new verification.' });
  }
  if (rentCents === null) {
    reasons.push({ code: 'rent_unknown', message: 'The report carries no monthly rent and none was given.' });
  }
  if (household === null && incomeData) {
    reasons.push({
      code: 'income_unknown',
      message: `The household's ${income === 'all' ? '' : 'recurring '}income over ${window} is unknown.`,
    });
  }
  const short = household !== null && rentCents !== null && !reaches(household, rentCents, threshold);
  if (short) {
    const below = household / rentCents;
    reasons.push({
      code: 'below_threshold',
      ratio: below,
      threshold,
      message: `Monthly income of ${dollarsText(household)} is ${below.toFixed(2)}x the rent of ${dollarsText(rentCents)}; ${threshold}x is required.`,
    });
  }
  // An unknown applicant figure matters only when the household does not pass without it.
  if (short || household === null) {
    for (const applicant of applicants) {
      if (applicant.monthlyIncomeCents !== null) continue;
      reasons.push({
        code: 'applicant_income_unknown',
        applicant,
        message: `The income of ${applicant.name ?? applicant.email ?? 'an applicant'} is unknown (${applicant.reasonCompleted ?? 'no reason given'}).`,
      });
    }
  }
  return {
    passed: reasons.length === 0,
    reasons,
    householdMonthlyIncomeCents: household,
    applicants,
    rentCents,
    ratio,
    threshold,
    window,
    income,
    sources: {
      rent: rentSource,
      threshold: thresholdSource,
      window: windowSource,
      householdIncome: fromApplicants ? 'sum-of-applicants' : 'report',
    },
  };
}
