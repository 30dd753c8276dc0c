/**
 * The `data` object of an income report. Report data varies and its units are not documented, so
 * every field here is optional, accepts `null`, and unknown fields are kept; a field that is
 * present must still have the documented type. Amounts are in DOLLARS as the service reports
 * them (`1850.25`), unlike the `*_cents` fields of groups.
 */
import type * as z from 'zod';
import { zod } from '../../load/zod.js';
import {
  commonSchemas,
  type IncomeSource,
  type OpenEnum,
  openEnum,
  type ReasonCompleted,
  responseObject,
} from './common.js';
import { onFirstUse } from './on-first-use.js';

/** An optional report field: absent, `null` (no value) or a value of the schema. */
const opt = <S extends z.ZodType>(schema: S) => schema.nullish();

/** Pay frequencies seen. */
export const PAY_FREQUENCIES = ['Weekly', 'Biweekly', 'Semimonthly', 'Monthly'] as const;
/** Pay rates seen. */
export const PAY_RATES = ['Annual', 'Hourly'] as const;
/** Fraud risk levels; value seen: low. */
export const FRAUD_RISKS = ['low', 'medium', 'high'] as const;
/** Results of an income criteria rule; value seen: passed. */
export const CRITERIA_RESULTS = ['passed', 'failed'] as const;

// ---------------------------------------------------------------------------------------------
// Public types (proved equal to the schemas below by test/schemas/types.test-d.ts). Every field
// is optional: absent or `null` means the service had no value for it.
// ---------------------------------------------------------------------------------------------

/** One transaction of an income stream. */
export interface Transaction {
  /** Transaction description as the bank shows it. `null`: none. */
  name?: string | null | undefined;
  /** Amount in dollars (`1250.5`). `null`: none. */
  amount?: number | null | undefined;
  /** Date in `MM/DD/YYYY` form (`01/05/2024`); `toIsoDate()` gives `2024-01-05`. `null`: none. */
  date?: string | null | undefined;
}

/** One paystub of an income stream. Amounts in dollars; `null`: not on the paystub. */
export interface Paystub {
  /** Gross pay in dollars. */
  gross_pay?: number | null | undefined;
  /** Base pay in dollars. */
  base_pay?: number | null | undefined;
  /** Bonus in dollars. */
  bonus?: number | null | undefined;
  /** Commission in dollars. */
  commission?: number | null | undefined;
  /** Tips in dollars. */
  tips?: number | null | undefined;
  /** Overtime pay in dollars. */
  overtime?: number | null | undefined;
  /** Other pay in dollars. */
  other?: number | null | undefined;
  /** Net pay in dollars. */
  net_pay?: number | null | undefined;
  /** Hours worked in the pay period. */
  hours_worked?: number | null | undefined;
  /** Pay date in long written form (`January 5, 2024`); `toIsoDate()` converts it. */
  pay_date?: string | null | undefined;
  /** First day of the pay period, long written form (`January 1, 2024`). */
  start_date?: string | null | undefined;
  /** Last day of the pay period, long written form. */
  end_date?: string | null | undefined;
}

/** One stream of income (an employer, a benefit, ...). */
export interface IncomeStream {
  /** Name of the stream (usually the payer). */
  name?: string | null | undefined;
  /** Total over the summarised period, in dollars. */
  total?: number | null | undefined;
  /** Monthly income from this stream, in dollars. */
  monthly_income?: number | null | undefined;
  /** First date of the stream, `YYYY-MM-DD`. */
  start_date?: string | null | undefined;
  /** Last date of the stream, `YYYY-MM-DD`; `null` while the stream continues. */
  end_date?: string | null | undefined;
  /** The transactions of the stream. */
  transactions?: Transaction[] | null | undefined;
  /** The paystubs of the stream. */
  paystubs?: Paystub[] | null | undefined;
  /** Indexes into `transactions` after which a pay gap occurs. */
  pay_gap_after_transaction_indexes?: number[] | null | undefined;
}

/** Recurring or non-recurring income: the total, monthly averages over several periods, and the streams. */
export interface IncomeSummary {
  /** Total income in dollars. */
  total?: number | null | undefined;
  /** Average monthly income over the last month, in dollars; `null` when the period has no data. */
  one_month_avg_monthly?: number | null | undefined;
  /** Average monthly income over two months, in dollars; `null` when the period has no data. */
  two_month_avg_monthly?: number | null | undefined;
  /** Average monthly income over three months, in dollars; `null` when the period has no data. */
  three_month_avg_monthly?: number | null | undefined;
  /** Average monthly income over six months, in dollars; `null` when the period has no data. */
  six_month_avg_monthly?: number | null | undefined;
  /** Average monthly income over nine months, in dollars; `null` when the period has no data. */
  nine_month_avg_monthly?: number | null | undefined;
  /** Average monthly income over twelve months, in dollars; `null` when the period has no data. */
  twelve_month_avg_monthly?: number | null | undefined;
  /** One entry per source of recurring pay (an employer, a gig platform). */
  income_streams?: IncomeStream[] | null | undefined;
}

/** Income found in a bank or payroll connection: totals, averages (two to twelve months), streams. */
export interface ConnectionIncome {
  /** Total income in dollars. */
  total?: number | null | undefined;
  /** Average monthly income over two months, in dollars; `null` when the period has no data. */
  two_month_avg_monthly?: number | null | undefined;
  /** Average monthly income over three months, in dollars; `null` when the period has no data. */
  three_month_avg_monthly?: number | null | undefined;
  /** Average monthly income over six months, in dollars; `null` when the period has no data. */
  six_month_avg_monthly?: number | null | undefined;
  /** Average monthly income over nine months, in dollars; `null` when the period has no data. */
  nine_month_avg_monthly?: number | null | undefined;
  /** Average monthly income over twelve months, in dollars; `null` when the period has no data. */
  twelve_month_avg_monthly?: number | null | undefined;
  /** One entry per source of recurring pay (an employer, a gig platform). */
  income_streams?: IncomeStream[] | null | undefined;
  /** Start of the covered period, `YYYY-MM-DD`. */
  start_date?: string | null | undefined;
  /** End of the covered period, `YYYY-MM-DD`. */
  end_date?: string | null | undefined;
  /** Length of the transaction timespan, in days. */
  transaction_timespan_length?: number | null | undefined;
}

/** Non-recurring income found in a bank's transactions. */
export interface BankNonRecurringIncome {
  /** Total non-recurring income in dollars. */
  total?: number | null | undefined;
  /** Non-recurring income streams. */
  income_streams?: IncomeStream[] | null | undefined;
}

/** Income found in a bank's transactions. */
export interface BankIncome extends ConnectionIncome {
  /** Non-recurring income found in the bank's transactions. */
  non_recurring?: BankNonRecurringIncome | null | undefined;
}

/** A connected bank and the income found in it. */
export interface BankConnection {
  /** Name of the bank. */
  institution_name?: string | null | undefined;
  /** The connected accounts; their fields are not documented, so each is kept as a record. */
  accounts?: Record<string, unknown>[] | null | undefined;
  /** Income found in the bank's transactions. */
  income?: BankIncome | null | undefined;
}

/** A connected payroll account and the income found in it. */
export interface PayrollConnection {
  /** Employee name as the payroll provider has it. */
  employee_name?: string | null | undefined;
  /** Employer name. */
  company_name?: string | null | undefined;
  /** Payroll provider. */
  institution_name?: string | null | undefined;
  /** Employer address. */
  company_address?: string | null | undefined;
  /** Job title. */
  title?: string | null | undefined;
  /** Start of employment, long written form (`January 5, 2024`). */
  start_date?: string | null | undefined;
  /** End of employment, long written form; `null` while employed. */
  end_date?: string | null | undefined;
  /** Pay frequency. Known values: `Weekly`, `Biweekly`, `Semimonthly`, `Monthly` (capitalised). */
  pay_frequency?: OpenEnum<(typeof PAY_FREQUENCIES)[number]> | null | undefined;
  /** What `pay_amount` is per. Known values: `Annual`, `Hourly`. */
  pay_rate?: OpenEnum<(typeof PAY_RATES)[number]> | null | undefined;
  /** Pay amount in dollars, per `pay_rate` (a salary for `Annual`, an hourly wage for `Hourly`). */
  pay_amount?: number | null | undefined;
  /** Income found in the payroll data. */
  income?: ConnectionIncome | null | undefined;
  /** Whether the payroll name differs from the applicant's name. */
  is_name_mismatched?: boolean | null | undefined;
}

/** One signal behind a document's fraud risk. */
export interface FraudRiskSignal {
  /** Kind of signal. */
  type?: string | null | undefined;
  /** What was found. */
  description?: string | null | undefined;
}

/** A document the applicant uploaded, with its fraud assessment. */
export interface UploadedDocument {
  /** File name. */
  name?: string | null | undefined;
  /** Kind of document (a paystub, a bank statement, ...). */
  type?: string | null | undefined;
  /** Fraud risk level. Known values: `low`, `medium`, `high`. */
  fraud_risk?: OpenEnum<(typeof FRAUD_RISKS)[number]> | null | undefined;
  /** Fraud risk score, an integer; `null` when not scored. */
  fraud_risk_score?: number | null | undefined;
  /** Name of the applicant the document belongs to. */
  applicant_name?: string | null | undefined;
  /** Signals behind the fraud risk. */
  fraud_risk_signals?: FraudRiskSignal[] | null | undefined;
}

/** The outcome of one income criteria rule (replaces the deprecated approval recommendation). */
export interface CriteriaRuleResult {
  /** Outcome of the rule. Known values: `passed`, `failed`. */
  result?: OpenEnum<(typeof CRITERIA_RESULTS)[number]> | null | undefined;
  /** Outcome of the income-to-rent multiplier check. Known values: `passed`, `failed`. */
  multiplier_result?: OpenEnum<(typeof CRITERIA_RESULTS)[number]> | null | undefined;
  /** Income-to-rent multiplier the rule requires (`2.5`: income at least 2.5 times the rent). */
  multiplier_threshold?: number | null | undefined;
  /** Averaging field the rule used, such as `three_month_avg_monthly`. */
  criteria_used?: string | null | undefined;
  /** Rule the criteria came from. */
  criteria_from_rule?: string | null | undefined;
}

/** Who was verified. */
export interface VerifiedIdentity {
  /** Name as the bank or payroll provider holds it; may differ from the name entered on create. */
  full_name?: string | null | undefined;
  /** Email address of the applicant the report is about. */
  email?: string | null | undefined;
}

/** A source income came from. */
export interface IncomeSourceEntry {
  /** Source kind. Known values: `bank`, `payroll`, `documents`. */
  source?: IncomeSource | null | undefined;
}

/** One verification's part of an income report (an item of `data.reports`). */
export interface VerificationReport {
  /** Verification identifier (a uuid). */
  verification_id?: string | null | undefined;
  /** Who was verified. */
  identity?: VerifiedIdentity | null | undefined;
  /**
   * Why the verification is complete. Known values: `not_completed`, `finished`, `no_bank`,
   * `no_online_banking`, `share_bank`, `no_income`, `bank_cannot_connect`, `missing_bank`.
   */
  reason_completed?: ReasonCompleted | null | undefined;
  /** Sources the income came from. */
  income_sources?: IncomeSourceEntry[] | null | undefined;
  /** Recurring income of this verification. */
  recurring?: IncomeSummary | null | undefined;
  /** Non-recurring income of this verification. */
  non_recurring?: IncomeSummary | null | undefined;
  /** Length of the summarised period, in DAYS (`239`), not months. */
  summary_timespan_length?: number | null | undefined;
  /** Connected banks. */
  bank_connections?: BankConnection[] | null | undefined;
  /** Connected payroll accounts. */
  payroll_connections?: PayrollConnection[] | null | undefined;
  /** The applicant's own explanation of their income; `null` when they gave none. */
  income_explanation?: string | null | undefined;
  /** Documents uploaded for this verification. */
  uploaded_documents?: UploadedDocument[] | null | undefined;
}

/** The `data` of a report whose `report_type` is `income`. */
export interface IncomeReportData {
  /** One entry per verification. */
  reports?: VerificationReport[] | null | undefined;
  /** Household-level recurring income. */
  recurring?: IncomeSummary | null | undefined;
  /** Household-level non-recurring income. */
  non_recurring?: IncomeSummary | null | undefined;
  /** Length of the summarised period, in DAYS (`239`), not months. */
  summary_timespan_length?: number | null | undefined;
  /** Results of the income criteria rules (they replace the deprecated approval recommendation). */
  criteria_rule_results?: CriteriaRuleResult[] | null | undefined;
  /** Applicant group identifier (a uuid). */
  applicant_group_id?: string | null | undefined;
  /** Name of the group's property, as entered on create. */
  property_name?: string | null | undefined;
  /** Monthly rent of the property in CENTS (an integer: `285000` is $2,850). */
  property_monthly_rent_cents?: number | null | undefined;
  /** When the report was created: an ISO 8601 date-time with milliseconds (`2024-06-05T16:00:00.123Z`). */
  created_at?: string | null | undefined;
  /** Documents uploaded for the household. */
  uploaded_documents?: UploadedDocument[] | null | undefined;
}

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

/**
 * The income report schemas, built on first use and the same objects after: importing the client
 * builds none of them (docs/benchmarks.md, "Cold start, round 6"). `../income-report.ts` exports each one.
 */
export const incomeReportSchemas = /* @__PURE__ */ onFirstUse(() => {
  const z = zod();
  const { centsSchema, dateTimeSchema, idSchema, incomeSourceSchema, reasonCompletedSchema } =
    commonSchemas();
  // The leaf fields, built once and shared by every field of their type: zod schemas are immutable,
  // and building one node costs more on import than anything else here (docs/benchmarks.md).
  const optString = opt(z.string());
  const optNumber = opt(z.number());
  const optInt = opt(z.int());

  /** One transaction of an income stream. */
  const transactionSchema = responseObject({
    name: optString,
    amount: optNumber,
    date: optString,
  });

  /** One paystub of an income stream. */
  const paystubSchema = responseObject({
    gross_pay: optNumber,
    base_pay: optNumber,
    bonus: optNumber,
    commission: optNumber,
    tips: optNumber,
    overtime: optNumber,
    other: optNumber,
    net_pay: optNumber,
    hours_worked: optNumber,
    pay_date: optString,
    start_date: optString,
    end_date: optString,
  });

  /** One stream of income (an employer, a benefit, ...). */
  const incomeStreamSchema = responseObject({
    name: optString,
    total: optNumber,
    monthly_income: optNumber,
    start_date: optString,
    end_date: optString,
    transactions: opt(z.array(transactionSchema)),
    paystubs: opt(z.array(paystubSchema)),
    pay_gap_after_transaction_indexes: opt(z.array(z.int())),
  });

  /** Recurring or non-recurring income: totals, monthly averages over several periods, and streams. */
  const incomeSummarySchema = responseObject({
    total: optNumber,
    one_month_avg_monthly: optNumber,
    two_month_avg_monthly: optNumber,
    three_month_avg_monthly: optNumber,
    six_month_avg_monthly: optNumber,
    nine_month_avg_monthly: optNumber,
    twelve_month_avg_monthly: optNumber,
    income_streams: opt(z.array(incomeStreamSchema)),
  });

  /** Income found in a bank or payroll connection. */
  const connectionIncomeSchema = responseObject({
    total: optNumber,
    two_month_avg_monthly: optNumber,
    three_month_avg_monthly: optNumber,
    six_month_avg_monthly: optNumber,
    nine_month_avg_monthly: optNumber,
    twelve_month_avg_monthly: optNumber,
    income_streams: opt(z.array(incomeStreamSchema)),
    start_date: optString,
    end_date: optString,
    transaction_timespan_length: optInt,
  });

  /** Income found in a bank's transactions. */
  const bankIncomeSchema = responseObject({
    ...connectionIncomeSchema.shape,
    non_recurring: opt(
      responseObject({
        total: optNumber,
        income_streams: opt(z.array(incomeStreamSchema)),
      }),
    ),
  });

  /** A connected bank and the income found in it. */
  const bankConnectionSchema = responseObject({
    institution_name: optString,
    accounts: opt(z.array(z.record(z.string(), z.unknown()))),
    income: opt(bankIncomeSchema),
  });

  /** A connected payroll account and the income found in it. */
  const payrollConnectionSchema = responseObject({
    employee_name: optString,
    company_name: optString,
    institution_name: optString,
    company_address: optString,
    title: optString,
    start_date: optString,
    end_date: optString,
    pay_frequency: opt(openEnum(PAY_FREQUENCIES)),
    pay_rate: opt(openEnum(PAY_RATES)),
    pay_amount: optNumber,
    income: opt(connectionIncomeSchema),
    is_name_mismatched: opt(z.boolean()),
  });

  /** One signal behind a document's fraud risk. */
  const fraudRiskSignalSchema = responseObject({
    type: optString,
    description: optString,
  });

  /** A document the applicant uploaded, with its fraud assessment. */
  const uploadedDocumentSchema = responseObject({
    name: optString,
    type: optString,
    fraud_risk: opt(openEnum(FRAUD_RISKS)),
    fraud_risk_score: optInt,
    applicant_name: optString,
    fraud_risk_signals: opt(z.array(fraudRiskSignalSchema)),
  });

  /** The outcome of one income criteria rule. */
  const criteriaRuleResultSchema = responseObject({
    result: opt(openEnum(CRITERIA_RESULTS)),
    multiplier_result: opt(openEnum(CRITERIA_RESULTS)),
    multiplier_threshold: optNumber,
    criteria_used: optString,
    criteria_from_rule: optString,
  });

  /** One verification's part of an income report (items of `data.reports`). */
  const verificationReportSchema = responseObject({
    verification_id: opt(idSchema),
    identity: opt(
      responseObject({
        full_name: optString,
        email: optString,
      }),
    ),
    reason_completed: opt(reasonCompletedSchema),
    income_sources: opt(z.array(responseObject({ source: opt(incomeSourceSchema) }))),
    recurring: opt(incomeSummarySchema),
    non_recurring: opt(incomeSummarySchema),
    summary_timespan_length: optInt,
    bank_connections: opt(z.array(bankConnectionSchema)),
    payroll_connections: opt(z.array(payrollConnectionSchema)),
    income_explanation: optString,
    uploaded_documents: opt(z.array(uploadedDocumentSchema)),
  });

  /** The `data` of a report whose `report_type` is `income`. */
  const incomeReportDataSchema = responseObject({
    reports: opt(z.array(verificationReportSchema)),
    recurring: opt(incomeSummarySchema),
    non_recurring: opt(incomeSummarySchema),
    summary_timespan_length: optInt,
    criteria_rule_results: opt(z.array(criteriaRuleResultSchema)),
    applicant_group_id: opt(idSchema),
    property_name: optString,
    property_monthly_rent_cents: opt(centsSchema),
    created_at: opt(dateTimeSchema),
    uploaded_documents: opt(z.array(uploadedDocumentSchema)),
  });
  return {
    transactionSchema,
    paystubSchema,
    incomeStreamSchema,
    incomeSummarySchema,
    connectionIncomeSchema,
    bankIncomeSchema,
    bankConnectionSchema,
    payrollConnectionSchema,
    fraudRiskSignalSchema,
    uploadedDocumentSchema,
    criteriaRuleResultSchema,
    verificationReportSchema,
    incomeReportDataSchema,
  };
});
