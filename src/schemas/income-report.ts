/**
 * The `data` object of an income report (spec 2.5). The spec says report data varies and does not
 * state units, so every field here is optional and unknown fields are kept; a field that is
 * present must still have the documented type.
 */
import { z } from 'zod';
import {
  centsSchema,
  dateTimeSchema,
  idSchema,
  incomeSourceSchema,
  openEnum,
  reasonCompletedSchema,
} from './common.js';

/** An average of monthly income; `null` when the period has no data. */
const averageSchema = z.number().nullable().optional();

/** One transaction of an income stream. */
export const transactionSchema = z.looseObject({
  /** Transaction description. */
  name: z.string().optional(),
  /** Amount (unit not shown in the spec). */
  amount: z.number().optional(),
  /** Date in MM/DD/YYYY form; `toIsoDate()` converts it. */
  date: z.string().optional(),
});
/** One transaction of an income stream. */
export type Transaction = z.infer<typeof transactionSchema>;

/** One paystub of an income stream. */
export const paystubSchema = z.looseObject({
  /** Gross pay. */
  gross_pay: z.number().optional(),
  /** Base pay. */
  base_pay: z.number().optional(),
  /** Bonus. */
  bonus: z.number().optional(),
  /** Commission. */
  commission: z.number().optional(),
  /** Tips. */
  tips: z.number().optional(),
  /** Overtime pay. */
  overtime: z.number().optional(),
  /** Other pay. */
  other: z.number().optional(),
  /** Net pay. */
  net_pay: z.number().optional(),
  /** Hours worked in the pay period. */
  hours_worked: z.number().optional(),
  /** Pay date in long written form (`January 5, 2024`); `toIsoDate()` converts it. */
  pay_date: z.string().optional(),
  /** Start of the pay period, long written form. */
  start_date: z.string().optional(),
  /** End of the pay period, long written form. */
  end_date: z.string().optional(),
});
/** One paystub of an income stream. */
export type Paystub = z.infer<typeof paystubSchema>;

/** One stream of income (an employer, a benefit, ...). */
export const incomeStreamSchema = z.looseObject({
  /** Name of the stream. */
  name: z.string().optional(),
  /** Total over the summarised period. */
  total: z.number().optional(),
  /** Monthly income from this stream. */
  monthly_income: z.number().optional(),
  /** First date of the stream, YYYY-MM-DD. */
  start_date: z.string().optional(),
  /** Last date of the stream, YYYY-MM-DD. */
  end_date: z.string().optional(),
  /** The transactions of the stream. */
  transactions: z.array(transactionSchema).optional(),
  /** The paystubs of the stream. */
  paystubs: z.array(paystubSchema).optional(),
  /** Indexes into `transactions` after which a pay gap occurs. */
  pay_gap_after_transaction_indexes: z.array(z.int()).optional(),
});
/** One stream of income. */
export type IncomeStream = z.infer<typeof incomeStreamSchema>;

/** Recurring or non-recurring income: totals, monthly averages over several periods, and streams. */
export const incomeSummarySchema = z.looseObject({
  /** Total income. */
  total: z.number().optional(),
  /** Average monthly income over one month; `null` when not available. */
  one_month_avg_monthly: averageSchema,
  /** Average monthly income over two months; `null` when not available. */
  two_month_avg_monthly: averageSchema,
  /** Average monthly income over three months; `null` when not available. */
  three_month_avg_monthly: averageSchema,
  /** Average monthly income over six months; `null` when not available. */
  six_month_avg_monthly: averageSchema,
  /** Average monthly income over nine months; `null` when not available. */
  nine_month_avg_monthly: averageSchema,
  /** Average monthly income over twelve months; `null` when not available. */
  twelve_month_avg_monthly: averageSchema,
  /** The income streams. */
  income_streams: z.array(incomeStreamSchema).optional(),
});
/** Recurring or non-recurring income. */
export type IncomeSummary = z.infer<typeof incomeSummarySchema>;

/** Averages shared by the income of bank and payroll connections (two to twelve months). */
const connectionIncomeShape = {
  /** Total income. */
  total: z.number().optional(),
  /** Average monthly income over two months; `null` when not available. */
  two_month_avg_monthly: averageSchema,
  /** Average monthly income over three months; `null` when not available. */
  three_month_avg_monthly: averageSchema,
  /** Average monthly income over six months; `null` when not available. */
  six_month_avg_monthly: averageSchema,
  /** Average monthly income over nine months; `null` when not available. */
  nine_month_avg_monthly: averageSchema,
  /** Average monthly income over twelve months; `null` when not available. */
  twelve_month_avg_monthly: averageSchema,
  /** The income streams. */
  income_streams: z.array(incomeStreamSchema).optional(),
  /** Start of the covered period, YYYY-MM-DD. */
  start_date: z.string().optional(),
  /** End of the covered period, YYYY-MM-DD. */
  end_date: z.string().optional(),
  /** Length of the transaction timespan. */
  transaction_timespan_length: z.int().optional(),
};

/** A connected bank and the income found in it. */
export const bankConnectionSchema = z.looseObject({
  /** Name of the bank. */
  institution_name: z.string().optional(),
  /** The connected accounts; their fields are not shown in the spec, so they are kept as records. */
  accounts: z.array(z.record(z.string(), z.unknown())).optional(),
  /** Income found in the bank's transactions. */
  income: z
    .looseObject({
      ...connectionIncomeShape,
      /** Non-recurring income found in the bank's transactions. */
      non_recurring: z
        .looseObject({
          /** Total non-recurring income. */
          total: z.number().optional(),
          /** Non-recurring income streams. */
          income_streams: z.array(incomeStreamSchema).optional(),
        })
        .optional(),
    })
    .optional(),
});
/** A connected bank and the income found in it. */
export type BankConnection = z.infer<typeof bankConnectionSchema>;

/** Pay frequencies seen (spec 2.8). */
export const PAY_FREQUENCIES = ['Weekly', 'Biweekly', 'Semimonthly', 'Monthly'] as const;
/** Pay rates seen (spec 2.8). */
export const PAY_RATES = ['Annual', 'Hourly'] as const;

/** A connected payroll account and the income found in it. */
export const payrollConnectionSchema = z.looseObject({
  /** Employee name as the payroll provider has it. */
  employee_name: z.string().optional(),
  /** Employer name. */
  company_name: z.string().optional(),
  /** Payroll provider. */
  institution_name: z.string().optional(),
  /** Employer address. */
  company_address: z.string().optional(),
  /** Job title. */
  title: z.string().optional(),
  /** Start of employment, long written form (`January 5, 2024`). */
  start_date: z.string().optional(),
  /** End of employment, long written form, `null` while employed. */
  end_date: z.string().nullable().optional(),
  /** Pay frequency; value seen: Biweekly. */
  pay_frequency: openEnum(PAY_FREQUENCIES).optional(),
  /** Pay rate basis; value seen: Annual. */
  pay_rate: openEnum(PAY_RATES).optional(),
  /** Pay amount per `pay_rate`. */
  pay_amount: z.number().optional(),
  /** Income found in the payroll data. */
  income: z.looseObject(connectionIncomeShape).optional(),
  /** Whether the payroll name differs from the applicant's name. */
  is_name_mismatched: z.boolean().optional(),
});
/** A connected payroll account and the income found in it. */
export type PayrollConnection = z.infer<typeof payrollConnectionSchema>;

/** One signal behind a document's fraud risk. */
export const fraudRiskSignalSchema = z.looseObject({
  /** Kind of signal. */
  type: z.string().optional(),
  /** What was found. */
  description: z.string().optional(),
});
/** One signal behind a document's fraud risk. */
export type FraudRiskSignal = z.infer<typeof fraudRiskSignalSchema>;

/** Fraud risk levels; value seen: low. */
export const FRAUD_RISKS = ['low', 'medium', 'high'] as const;

/** A document the applicant uploaded, with its fraud assessment. */
export const uploadedDocumentSchema = z.looseObject({
  /** File name. */
  name: z.string().optional(),
  /** Kind of document. */
  type: z.string().optional(),
  /** Fraud risk level; value seen: low. */
  fraud_risk: openEnum(FRAUD_RISKS).optional(),
  /** Fraud risk score. */
  fraud_risk_score: z.int().optional(),
  /** Name of the applicant the document belongs to. */
  applicant_name: z.string().optional(),
  /** Signals behind the fraud risk. */
  fraud_risk_signals: z.array(fraudRiskSignalSchema).optional(),
});
/** A document the applicant uploaded. */
export type UploadedDocument = z.infer<typeof uploadedDocumentSchema>;

/** Results of an income criteria rule; value seen: passed. */
export const CRITERIA_RESULTS = ['passed', 'failed'] as const;

/** The outcome of one income criteria rule (replaces the deprecated approval recommendation). */
export const criteriaRuleResultSchema = z.looseObject({
  /** Outcome of the rule; value seen: passed. */
  result: openEnum(CRITERIA_RESULTS).optional(),
  /** Outcome of the income-to-rent multiplier check. */
  multiplier_result: openEnum(CRITERIA_RESULTS).optional(),
  /** Income-to-rent multiplier the rule requires. */
  multiplier_threshold: z.number().optional(),
  /** Averaging field the rule used, such as three_month_avg_monthly. */
  criteria_used: z.string().optional(),
  /** Rule the criteria came from. */
  criteria_from_rule: z.string().optional(),
});
/** The outcome of one income criteria rule. */
export type CriteriaRuleResult = z.infer<typeof criteriaRuleResultSchema>;

/** One verification's part of an income report (items of `data.reports`). */
export const verificationReportSchema = z.looseObject({
  /** Verification identifier (uuid). */
  verification_id: idSchema.optional(),
  /** Who was verified. */
  identity: z
    .looseObject({
      /** Full name. */
      full_name: z.string().optional(),
      /** Email address. */
      email: z.string().optional(),
    })
    .optional(),
  /** Why the verification is complete. */
  reason_completed: reasonCompletedSchema.optional(),
  /** Sources the income came from. */
  income_sources: z
    .array(
      z.looseObject({
        /** Source kind: bank, payroll, documents, ... */
        source: incomeSourceSchema.optional(),
      }),
    )
    .optional(),
  /** Recurring income of this verification. */
  recurring: incomeSummarySchema.optional(),
  /** Non-recurring income of this verification. */
  non_recurring: incomeSummarySchema.optional(),
  /** Length of the summarised period. */
  summary_timespan_length: z.int().optional(),
  /** Connected banks. */
  bank_connections: z.array(bankConnectionSchema).optional(),
  /** Connected payroll accounts. */
  payroll_connections: z.array(payrollConnectionSchema).optional(),
  /** The applicant's explanation of their income. */
  income_explanation: z.string().optional(),
  /** Documents uploaded for this verification. */
  uploaded_documents: z.array(uploadedDocumentSchema).optional(),
});
/** One verification's part of an income report. */
export type VerificationReport = z.infer<typeof verificationReportSchema>;

/** The `data` of a report whose `report_type` is `income`. */
export const incomeReportDataSchema = z.looseObject({
  /** One entry per verification. */
  reports: z.array(verificationReportSchema).optional(),
  /** Household-level recurring income. */
  recurring: incomeSummarySchema.optional(),
  /** Household-level non-recurring income. */
  non_recurring: incomeSummarySchema.optional(),
  /** Length of the summarised period. */
  summary_timespan_length: z.int().optional(),
  /** Results of the income criteria rules (replace the deprecated approval recommendation). */
  criteria_rule_results: z.array(criteriaRuleResultSchema).optional(),
  /** Applicant group identifier (uuid). */
  applicant_group_id: idSchema.optional(),
  /** Property name. */
  property_name: z.string().optional(),
  /** Monthly rent of the property, in cents. */
  property_monthly_rent_cents: centsSchema.optional(),
  /** ISO 8601 date-time with milliseconds. */
  created_at: dateTimeSchema.optional(),
  /** Documents uploaded for the household. */
  uploaded_documents: z.array(uploadedDocumentSchema).optional(),
});
/** The `data` of an income report. */
export type IncomeReportData = z.infer<typeof incomeReportDataSchema>;
