/**
 * The screening-group report (docs/wire-contract.md §4.8, §4.9): its data, individual for one
 * applicant and combined (household figures plus one report per screening) for several, and its
 * PDF link, valid 2 hours on the mock clock. Figures come from the income each completed
 * screening found, so they agree with the group's deprecated recommendation.
 */
import type {
  CombinedScreeningReportData,
  IndividualScreeningReportData,
  ScreeningIncomeFigures,
} from 'applicant-verification';
import type { MockContext } from '../state/context.js';
import type { ScreeningGroupRecord, ScreeningRecord } from '../state/store.js';
import { checkPdfLink, mintPdfUrl, type PdfLinkProblem } from './reports.js';

/** Days the report summarises (`summary_timespan_length` is in days). */
const TIMESPAN_DAYS = 180;
/** Monthly deposits shown per income stream. */
const MONTHS = 6;
const DAY_MS = 86_400_000;

// Link keys are prefixed so a screening-group link never opens an applicant-group report.
const linkKey = (groupId: string): string => `screening-${groupId}`;

/** A fresh link to the group's report PDF, valid 2 hours from now (mock clock). */
export function mintScreeningReportUrl(context: MockContext, group: ScreeningGroupRecord): string {
  return mintPdfUrl(context, linkKey(group.id), group.account);
}

/** The screening group a PDF file name (`screening-<id>.pdf`) names, or `undefined`. */
export function screeningGroupIdOfFile(reportKey: string): string | undefined {
  return reportKey.startsWith('screening-') ? reportKey.slice('screening-'.length) : undefined;
}

/** Checks a screening-report link's signature and expiry. */
export function checkScreeningReportLink(
  context: MockContext,
  group: ScreeningGroupRecord,
  query: URLSearchParams,
): PdfLinkProblem | undefined {
  return checkPdfLink(context, linkKey(group.id), group.account, query);
}

function figures(monthlyDollars: number): ScreeningIncomeFigures {
  const avg = Math.round(monthlyDollars * 100) / 100;
  return {
    total_net_income: Math.round(avg * MONTHS * 100) / 100,
    two_month_avg_monthly_net_income: avg,
    three_month_avg_monthly_net_income: avg,
    six_month_avg_monthly_net_income: avg,
    // The history covers six months: longer windows have no figure.
    nine_month_avg_monthly_net_income: null,
    twelve_month_avg_monthly_net_income: null,
    total_non_recurring_deposits: 0,
  };
}

function usDate(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`;
}

function individual(screening: ScreeningRecord, now: number): IndividualScreeningReportData {
  const monthly = (screening.monthlyIncomeCents ?? 0) / 100;
  const base = figures(monthly);
  if (screening.monthlyIncomeCents === null || screening.monthlyIncomeCents === 0) {
    return { ...base, summary_timespan_length: TIMESPAN_DAYS, bank_connections: [] };
  }
  const transactions = Array.from({ length: MONTHS }, (_, index) => ({
    amount: monthly,
    name: 'PAYROLL DIRECT DEP',
    date: usDate(now - (index * 30 + 1) * DAY_MS),
  }));
  return {
    ...base,
    summary_timespan_length: TIMESPAN_DAYS,
    bank_connections: [
      {
        institution_name: 'Mock Bank',
        accounts: [
          {
            name: 'Everyday Checking',
            type: 'Checking',
            available_balance: monthly,
            current_balance: monthly,
          },
        ],
        income: { ...base, income_streams: [{ name: 'Payroll', transactions }] },
      },
    ],
  };
}

/** The report data of a group: individual for one screening, combined for several. */
export function screeningReportData(
  group: ScreeningGroupRecord,
  now: number,
): IndividualScreeningReportData | CombinedScreeningReportData {
  const reports = group.screenings.map((screening) => individual(screening, now));
  const only = reports[0];
  if (reports.length === 1 && only) return only;
  const monthly = group.screenings.reduce((sum, s) => sum + (s.monthlyIncomeCents ?? 0), 0) / 100;
  return { ...figures(monthly), summary_timespan_length: TIMESPAN_DAYS, screenings: reports };
}

/** Lines of the report's PDF. */
export function screeningReportLines(group: ScreeningGroupRecord): string[] {
  return [
    `Property: ${group.propertyName}`,
    `Monthly rent: $${(group.monthlyRentCents / 100).toFixed(2)}`,
    ...group.screenings.map(
      (s) =>
        `${s.firstName} ${s.lastName}: ${s.status}, ${s.reasonCompleted}, net income ${
          s.monthlyIncomeCents === null ? 'n/a' : `$${(s.monthlyIncomeCents / 100).toFixed(2)} a month`
        }`,
    ),
  ];
}
