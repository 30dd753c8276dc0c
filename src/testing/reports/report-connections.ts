/**
 * Connections and documents of generated reports: the bank connection (accounts and deposits),
 * the payroll connection (employment and paystubs) and uploaded documents with fraud signals.
 */
import type { BankConnection, PayrollConnection, UploadedDocument } from 'applicant-verification';
import type { Random } from '../state/random.js';
import { BANKS, DOCUMENT_TYPES, FRAUD_SIGNALS } from './report-catalogue.js';
import { type DraftStream, type Job, renderStream, streamTotalCents } from './report-streams.js';
import { averages } from './report-summaries.js';
import { addDays, addMonths, daysBetween, dollars, isoDate, longDate, pad } from './report-units.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An opaque provider-style identifier (bank account ids look like this in aggregator data). */
function opaqueId(random: Random, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[Math.floor(random.next() * ALNUM.length)] ?? 'x';
  return out;
}

export function bankConnection(
  random: Random,
  recurring: DraftStream[],
  nonRecurring: DraftStream[],
  historyStart: Date,
  today: Date,
  historyMonths: number,
  blockBusinessAccounts: boolean,
): BankConnection {
  const accounts: Record<string, string>[] = [
    {
      id: opaqueId(random, 37),
      name: random.pick(['Total Checking', 'Everyday Checking', 'Advantage Checking', 'Spending Account']),
      mask: pad(random.int(0, 9999), 4),
      type: 'depository',
      subtype: 'checking',
    },
  ];
  if (random.chance(0.5)) {
    accounts.push({
      id: opaqueId(random, 37),
      name: random.pick(['Savings', 'High Yield Savings', 'Way2Save Savings']),
      mask: pad(random.int(0, 9999), 4),
      type: 'depository',
      subtype: 'savings',
    });
  }
  // A business account only where the group allows them (`config.block_business_accounts`).
  if (!blockBusinessAccounts && random.chance(0.3)) {
    accounts.push({
      id: opaqueId(random, 37),
      name: random.pick(['Business Checking', 'Business Advantage Checking', 'Small Business Checking']),
      mask: pad(random.int(0, 9999), 4),
      type: 'depository',
      subtype: 'checking',
      holder_category: 'business',
    });
  }
  // docs/wire-contract.md §2.5 lists the bank income averages from two months up: no one-month figure here.
  const { one_month_avg_monthly: _oneMonth, ...bankAverages } = averages(
    recurring,
    today,
    historyMonths,
    false,
  );
  return {
    institution_name: random.pick(BANKS),
    accounts,
    income: {
      total: dollars(recurring.reduce((sum, s) => sum + streamTotalCents(s), 0)),
      ...bankAverages,
      // A bank sees deposits, not paystubs: those belong to the payroll connection.
      income_streams: recurring.map((s) => renderStream(s, false)),
      non_recurring: {
        total: dollars(nonRecurring.reduce((sum, s) => sum + streamTotalCents(s), 0)),
        income_streams: nonRecurring.map((s) => renderStream(s, false)),
      },
      start_date: isoDate(historyStart),
      end_date: isoDate(today),
      transaction_timespan_length: daysBetween(historyStart, today),
    },
  };
}

/** A payroll name that differs from the applicant's, as when a maiden name is still on file. */
function mismatchedName(random: Random, fullName: string): string {
  const parts = fullName.trim().split(/\s+/);
  const first = parts[0] ?? fullName;
  // Exclude the applicant's own surnames, or the "mismatched" name could equal the real one.
  const surnames = ['Delgado', 'Okafor', 'Lindqvist', 'Nakamura', 'Brennan', 'Whitfield'].filter(
    (s) => !parts.includes(s),
  );
  return `${first} ${random.pick(surnames)}`;
}

export function payrollConnection(
  random: Random,
  job: Job,
  fullName: string,
  historyStart: Date,
  today: Date,
  historyMonths: number,
): PayrollConnection {
  const isNameMismatched = random.chance(0.1);
  // Employment began before the connected history, so the whole history is with this employer.
  const hired = addDays(addMonths(historyStart, -random.int(2, 60)), -random.int(0, 27));
  const { one_month_avg_monthly: _oneMonth, ...payrollAverages } = averages(
    [job.stream],
    today,
    historyMonths,
    false,
  );
  return {
    employee_name: isNameMismatched ? mismatchedName(random, fullName) : fullName,
    company_name: job.employer.company,
    institution_name: job.provider,
    company_address: job.employer.address,
    title: job.title,
    start_date: longDate(hired),
    end_date: null, // a current job
    pay_frequency: 'Biweekly',
    pay_rate: job.employer.payType === 'salary' ? 'Annual' : 'Hourly',
    pay_amount: dollars(job.rateCents),
    income: {
      total: dollars(streamTotalCents(job.stream)),
      ...payrollAverages,
      income_streams: [renderStream(job.stream, true)],
      start_date: isoDate(historyStart),
      end_date: isoDate(today),
      transaction_timespan_length: daysBetween(historyStart, today),
    },
    is_name_mismatched: isNameMismatched,
  };
}

export function uploadedDocuments(
  random: Random,
  fullName: string,
  today: Date,
  p: number,
): UploadedDocument[] {
  if (!random.chance(p)) return [];
  return Array.from({ length: random.int(1, 2) }, () => {
    const kind = random.pick(DOCUMENT_TYPES);
    const roll = random.next();
    // Most uploads are genuine; the score bands match the label (low < 30 <= medium < 70 <= high).
    const [fraudRisk, score] =
      roll < 0.75
        ? (['low', random.int(1, 29)] as const)
        : roll < 0.92
          ? (['medium', random.int(30, 69)] as const)
          : (['high', random.int(70, 99)] as const);
    const signalCount = fraudRisk === 'low' ? 0 : fraudRisk === 'medium' ? 1 : random.int(2, 3);
    const signals = new Set<number>();
    while (signals.size < signalCount) signals.add(random.int(0, FRAUD_SIGNALS.length - 1));
    const dated = addDays(today, -random.int(3, 60));
    return {
      name: `${kind.name}_${isoDate(dated)}.pdf`,
      type: kind.type,
      fraud_risk: fraudRisk,
      fraud_risk_score: score,
      applicant_name: fullName,
      fraud_risk_signals: [...signals]
        .sort((a, b) => a - b)
        .map((i) => {
          const signal = FRAUD_SIGNALS[i] as (typeof FRAUD_SIGNALS)[number];
          return { type: signal.type, description: signal.description };
        }),
    };
  });
}
