/**
 * The screening-group report (docs/wire-contract.md §4.8, §4.9): a link to its PDF, and its data.
 * The data of one applicant (individual) and of several (combined, which carries one individual
 * report per screening) differ. Every field is optional: the service's pages show only the start
 * of the shape. Unknown fields are kept.
 */
import { zod } from '../../load/zod.js';
import { withWireRule } from '../wire-rule.js';
import { type OpenEnum, openEnum, responseObject } from './common.js';
import { onFirstUse } from './on-first-use.js';

// ---------------------------------------------------------------------------------------------
// Public types (proved equal to the schemas below by test/schemas/types.test-d.ts)
// ---------------------------------------------------------------------------------------------

/** Answer of `GET /api/v1/screening_groups/{id}/report`. */
export interface ScreeningGroupReportUrl {
  /** Link to the report's PDF; it expires 2 hours after it is generated: fetch it on demand. */
  url: string;
}

/** Net-income figures of a screening report, a bank connection's income or a household. */
export interface ScreeningIncomeFigures {
  /** Total net income over the summarised period, in dollars. */
  total_net_income?: number | null | undefined;
  /** Average monthly net income over the last 2 months, in dollars; `null` when the history is shorter. */
  two_month_avg_monthly_net_income?: number | null | undefined;
  /** Average over the last 3 months, in dollars; `null` when the history is shorter. */
  three_month_avg_monthly_net_income?: number | null | undefined;
  /** Average over the last 6 months, in dollars; `null` when the history is shorter. */
  six_month_avg_monthly_net_income?: number | null | undefined;
  /** Average over the last 9 months, in dollars; `null` when the history is shorter. */
  nine_month_avg_monthly_net_income?: number | null | undefined;
  /** Average over the last 12 months, in dollars; `null` when the history is shorter. */
  twelve_month_avg_monthly_net_income?: number | null | undefined;
  /** Total of deposits that are not recurring income, in dollars. */
  total_non_recurring_deposits?: number | null | undefined;
}

/** One transaction of an income stream. */
export interface ScreeningTransaction {
  /** Amount in dollars. */
  amount?: number | null | undefined;
  /** Description as the bank shows it. */
  name?: string | null | undefined;
  /** Date in `MM/DD/YYYY` form; `toIsoDate()` converts. */
  date?: string | null | undefined;
}

/** One income stream (a payer) of a bank connection. */
export interface ScreeningIncomeStream {
  /** Name of the stream (the payer). */
  name?: string | null | undefined;
  /** Its transactions. */
  transactions?: ScreeningTransaction[] | null | undefined;
}

/** One bank account of a connection. */
export interface ScreeningBankAccount {
  /** Account name. */
  name?: string | null | undefined;
  /** Known values: `Credit`, `Savings`, `Checking`. */
  type?: OpenEnum<'Credit' | 'Savings' | 'Checking'> | null | undefined;
  /** Available balance in dollars; `null` when the bank does not say. */
  available_balance?: number | null | undefined;
  /** Current balance in dollars; `null` when the bank does not say. */
  current_balance?: number | null | undefined;
}

/** The income found on a bank connection. */
export interface ScreeningConnectionIncome extends ScreeningIncomeFigures {
  /** The income streams. */
  income_streams?: ScreeningIncomeStream[] | null | undefined;
}

/** One bank connection of a screening. */
export interface ScreeningBankConnection {
  /** Name of the bank. */
  institution_name?: string | null | undefined;
  /** Its accounts. */
  accounts?: ScreeningBankAccount[] | null | undefined;
  /** The income found on it. */
  income?: ScreeningConnectionIncome | null | undefined;
}

/** Report data of one applicant's screening (`GET /api/v1/screening_groups/{id}/report/data`). */
export interface IndividualScreeningReportData extends ScreeningIncomeFigures {
  /** Length of the summarised period in DAYS (`239`), not months. */
  summary_timespan_length?: number | null | undefined;
  /** The applicant's bank connections. */
  bank_connections?: ScreeningBankConnection[] | null | undefined;
}

/** Report data of a group of several applicants: household figures and one report per screening. */
export interface CombinedScreeningReportData extends ScreeningIncomeFigures {
  /** Length of the summarised period in DAYS. */
  summary_timespan_length?: number | null | undefined;
  /** One individual report per screening. */
  screenings: IndividualScreeningReportData[];
}

/** Report data of a screening group: individual (one applicant) or combined (`screenings` present). */
export type ScreeningReportData = CombinedScreeningReportData | IndividualScreeningReportData;

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

/** Known account types of a screening report. */
export const SCREENING_ACCOUNT_TYPES = ['Credit', 'Savings', 'Checking'] as const;

/** Whether report data is the combined report of several applicants. */
export function isCombinedScreeningReport(data: ScreeningReportData): data is CombinedScreeningReportData {
  return 'screenings' in data && Array.isArray(data.screenings);
}

/**
 * The screening report schemas, built on first use and the same objects after: importing the client
 * builds none of them (docs/benchmarks.md, "Cold start, round 6"). `../screening-reports.ts` exports each one.
 */
export const screeningReportSchemas = /* @__PURE__ */ onFirstUse(() => {
  const z = zod();
  const money = z.number().nullish();

  const figures = {
    total_net_income: money,
    two_month_avg_monthly_net_income: money,
    three_month_avg_monthly_net_income: money,
    six_month_avg_monthly_net_income: money,
    nine_month_avg_monthly_net_income: money,
    twelve_month_avg_monthly_net_income: money,
    total_non_recurring_deposits: money,
  };

  /** Answer of `GET /api/v1/screening_groups/{id}/report`. */
  const screeningGroupReportUrlSchema = responseObject({
    url: withWireRule(z.string(), { format: 'uri' }),
  });

  /** One transaction of an income stream. */
  const screeningTransactionSchema = responseObject({
    amount: money,
    name: z.string().nullish(),
    date: z.string().nullish(),
  });

  /** One income stream of a bank connection. */
  const screeningIncomeStreamSchema = responseObject({
    name: z.string().nullish(),
    transactions: z.array(screeningTransactionSchema).nullish(),
  });

  /** One bank account of a connection. */
  const screeningBankAccountSchema = responseObject({
    name: z.string().nullish(),
    type: openEnum(SCREENING_ACCOUNT_TYPES).nullish(),
    available_balance: money,
    current_balance: money,
  });

  /** The income found on a bank connection. */
  const screeningConnectionIncomeSchema = responseObject({
    ...figures,
    income_streams: z.array(screeningIncomeStreamSchema).nullish(),
  });

  /** One bank connection of a screening. */
  const screeningBankConnectionSchema = responseObject({
    institution_name: z.string().nullish(),
    accounts: z.array(screeningBankAccountSchema).nullish(),
    income: screeningConnectionIncomeSchema.nullish(),
  });

  /** Report data of one applicant's screening. */
  const individualScreeningReportDataSchema = responseObject({
    ...figures,
    summary_timespan_length: z.number().nullish(),
    bank_connections: z.array(screeningBankConnectionSchema).nullish(),
  });

  /** Report data of several applicants: household figures and one report per screening. */
  const combinedScreeningReportDataSchema = responseObject({
    ...figures,
    summary_timespan_length: z.number().nullish(),
    screenings: z.array(individualScreeningReportDataSchema),
  });

  /** Report data of a screening group: combined when it carries `screenings`, else individual. */
  const screeningReportDataSchema = z.union([
    combinedScreeningReportDataSchema,
    individualScreeningReportDataSchema,
  ]);
  return {
    screeningGroupReportUrlSchema,
    screeningTransactionSchema,
    screeningIncomeStreamSchema,
    screeningBankAccountSchema,
    screeningConnectionIncomeSchema,
    screeningBankConnectionSchema,
    individualScreeningReportDataSchema,
    combinedScreeningReportDataSchema,
    screeningReportDataSchema,
  };
});
