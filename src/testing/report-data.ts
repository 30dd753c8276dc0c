/**
 * Realistic income report data for the mock server (spec 2.5). Everything is derived from the
 * caller's seeded `rng` and the mock clock (`context.createdAt`), never from `Math.random` or the
 * real clock, so a seeded mock serves byte-identical reports run after run.
 *
 * Units and conventions chosen where the spec is silent (spec 2.8):
 * - Money in report data is in dollars, as numbers with at most two decimals (`2143.57`). The
 *   spec does not name the unit; only `property_monthly_rent_cents` is explicitly in cents.
 *   All arithmetic runs on integer cents and converts once, so sums are exact to the cent.
 * - `summary_timespan_length` and `transaction_timespan_length` count days.
 * - Averages (`*_month_avg_monthly`) are the income dated within the last N months before the
 *   report date divided by N, and `null` when the connected history is shorter than N months.
 *   An applicant who declared `no_income` gets `0` (a known zero), not `null` (unknown).
 * - `monthly_income` of a stream is its typical amount per pay times pays per year over 12;
 *   for a non-recurring stream, its total spread over the months of history.
 */

import type {
  BankConnection,
  CriteriaRuleResult,
  IncomeReportData,
  IncomeStream,
  IncomeSummary,
  PayrollConnection,
  Paystub,
  Transaction,
  UploadedDocument,
  VerificationReport,
} from 'applicant-verification';
import { MONTH_NAMES } from 'applicant-verification';

/** The applicant a per-verification entry is generated for. */
export interface ReportApplicant {
  /** Not written into the entry (spec 2.5 has no applicant id there); the mock keys reports by it. */
  applicantId: string;
  verificationId: string;
  fullName: string;
  email: string;
  /** A spec 2.7 value; anything other than `finished` yields a partial or empty entry. */
  reasonCompleted: string;
  /** The verification's `type` (default: an income verification, every source possible). */
  verificationType?: string;
  /** `allowed_income_sources` of the verification; `null` or absent: no restriction. */
  allowedIncomeSources?: readonly string[] | null;
}

/** The group-level facts a report is built against. */
export interface ReportContext {
  applicantGroupId: string;
  propertyName: string;
  monthlyRentCents: number;
  /** The report's creation time on the mock clock: every generated date is anchored on it. */
  createdAt: Date;
  /** `config.block_business_accounts` of the group: when true, no business bank account appears. */
  blockBusinessAccounts?: boolean | null;
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

// ---------------------------------------------------------------------------------------------
// Randomness helpers: every draw goes through the caller's rng so output is reproducible.
// ---------------------------------------------------------------------------------------------

type Rng = () => number;

/** Integer in [min, max], both inclusive. */
function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

function chance(rng: Rng, p: number): boolean {
  return rng() < p;
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  // Every list passed here is a non-empty constant; the fallback only satisfies the index type.
  return item ?? (items[0] as T);
}

/** Random amount of integer cents between two dollar amounts. */
function centsBetween(rng: Rng, minDollars: number, maxDollars: number): number {
  return int(rng, Math.round(minDollars * 100), Math.round(maxDollars * 100));
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An opaque provider-style identifier (bank account ids look like this in aggregator data). */
function opaqueId(rng: Rng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[Math.floor(rng() * ALNUM.length)] ?? 'x';
  return out;
}

// ---------------------------------------------------------------------------------------------
// Money and dates
// ---------------------------------------------------------------------------------------------

/** Cents to the dollar amounts used in report data (see the module comment on units). */
function dollars(cents: number): number {
  return Math.round(cents) / 100;
}

const DAY_MS = 86_400_000;

/** Midnight UTC of the given instant's UTC day; all report dates are calendar days in UTC. */
function utcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** Calendar months, clamping the day (March 31 minus one month is February 28 or 29). */
function addMonths(date: Date, months: number): Date {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay)));
}

function daysBetween(from: Date, to: Date): number {
  return Math.round((to.getTime() - from.getTime()) / DAY_MS);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `YYYY-MM-DD`: stream and connection start/end dates. */
function isoDate(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** `MM/DD/YYYY`: transaction dates. */
function slashDate(date: Date): string {
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`;
}

/** `January 5, 2024`: paystub dates and payroll employment dates. */
function longDate(date: Date): string {
  return `${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

// ---------------------------------------------------------------------------------------------
// Catalogues
// ---------------------------------------------------------------------------------------------

interface Employer {
  company: string;
  /** What the deposit looks like on a bank statement. */
  descriptor: string;
  address: string;
  titles: readonly string[];
  /** Salaried jobs are paid a fixed annual rate; hourly jobs vary with hours and overtime. */
  payType: 'salary' | 'hourly';
}

const EMPLOYERS: readonly Employer[] = [
  {
    company: 'Northwind Logistics LLC',
    descriptor: 'NORTHWIND LOGIST PAYROLL PPD',
    address: '4100 Harbor Blvd, Oakland, CA 94607',
    titles: ['Warehouse Supervisor', 'Dispatcher', 'Operations Coordinator'],
    payType: 'hourly',
  },
  {
    company: 'Brightline Health Partners',
    descriptor: 'BRIGHTLINE HEALTH DIR DEP',
    address: '250 Medical Center Dr, Austin, TX 78701',
    titles: ['Registered Nurse', 'Medical Assistant', 'Billing Specialist'],
    payType: 'hourly',
  },
  {
    company: 'Cobalt Software Inc.',
    descriptor: 'COBALT SOFTWARE INC PAYROLL',
    address: '88 King St, Seattle, WA 98104',
    titles: ['Software Engineer', 'Product Designer', 'Support Engineer'],
    payType: 'salary',
  },
  {
    company: 'Riverside Unified School District',
    descriptor: 'RIVERSIDE USD SALARY',
    address: '3380 14th St, Riverside, CA 92501',
    titles: ['Teacher', 'Counselor', 'Administrative Assistant'],
    payType: 'salary',
  },
  {
    company: 'Meridian Retail Group',
    descriptor: 'MERIDIAN RETAIL DIRECT DEP',
    address: '1200 Commerce Pkwy, Columbus, OH 43215',
    titles: ['Store Manager', 'Assistant Manager', 'Merchandiser'],
    payType: 'hourly',
  },
  {
    company: 'Summit Financial Services',
    descriptor: 'SUMMIT FINANCIAL PAYROLL',
    address: '600 Peachtree St NE, Atlanta, GA 30308',
    titles: ['Financial Analyst', 'Loan Officer', 'Accountant'],
    payType: 'salary',
  },
];

const PAYROLL_PROVIDERS = ['ADP', 'Gusto', 'Paychex', 'Workday', 'Paylocity'] as const;

/** Weekly gig-platform payouts: a common second income stream. */
const GIGS = [
  { name: 'DoorDash', descriptor: 'DOORDASH DASHER PAYOUT' },
  { name: 'Uber', descriptor: 'UBER TECHNOLOGIES EDI PYMNTS' },
  { name: 'Instacart', descriptor: 'MAPLEBEAR INSTACART SHOPPER' },
] as const;

const BANKS = [
  'Chase',
  'Bank of America',
  'Wells Fargo',
  'Capital One',
  'Ally Bank',
  'Navy Federal Credit Union',
] as const;

const NON_RECURRING = [
  { name: 'Tax refund', descriptor: 'IRS TREAS 310 TAX REF', min: 350, max: 3200, count: [1, 1] },
  { name: 'Venmo transfers', descriptor: 'VENMO CASHOUT', min: 40, max: 450, count: [2, 4] },
  { name: 'Zelle transfers', descriptor: 'ZELLE PAYMENT FROM M GARCIA', min: 100, max: 900, count: [1, 3] },
  { name: 'Insurance claim', descriptor: 'STATE FARM CLAIM PMT', min: 600, max: 2500, count: [1, 1] },
] as const;

const DOCUMENT_TYPES = [
  { type: 'paystub', name: 'paystub' },
  { type: 'bank_statement', name: 'bank_statement' },
  { type: 'w2', name: 'w2' },
  { type: 'offer_letter', name: 'offer_letter' },
] as const;

const FRAUD_SIGNALS = [
  { type: 'font_mismatch', description: 'Fonts in the amounts differ from the rest of the document.' },
  {
    type: 'edited_metadata',
    description: 'The file was modified by an editing application after it was created.',
  },
  { type: 'math_inconsistency', description: 'Net pay does not equal gross pay minus deductions.' },
  { type: 'template_match', description: 'The layout matches a template sold online.' },
  { type: 'name_mismatch', description: 'The name on the document differs from the applicant name.' },
] as const;

// ---------------------------------------------------------------------------------------------
// Streams
// ---------------------------------------------------------------------------------------------

interface DraftTransaction {
  name: string;
  cents: number;
  date: Date;
}

/** A stream under construction, in cents and Dates, rendered to wire form at the end. */
interface DraftStream {
  name: string;
  transactions: DraftTransaction[];
  gapIndexes: number[];
  monthlyCents: number;
  paystubs: Paystub[];
}

/** The facts of one job, shared by the bank view (deposits) and the payroll view (paystubs). */
interface Job {
  employer: Employer;
  title: string;
  provider: string;
  /** Salary per year (salaried) or rate per hour (hourly), in cents. */
  rateCents: number;
  stream: DraftStream;
}

/** First date on or after `date` that falls on the given weekday (0 = Sunday). */
function nextWeekday(date: Date, weekday: number): Date {
  return addDays(date, (weekday - date.getUTCDay() + 7) % 7);
}

/**
 * Regular paydays between `from` and `to` (inclusive), with an occasional skipped payday. Returns
 * the kept paydays and, for each kept index whose next scheduled payday was skipped, that index:
 * this is what `pay_gap_after_transaction_indexes` records.
 */
function schedule(
  rng: Rng,
  from: Date,
  to: Date,
  everyDays: number,
  gapChance: number,
): { dates: Date[]; gapIndexes: number[] } {
  const all: Date[] = [];
  for (let d = from; d <= to; d = addDays(d, everyDays)) all.push(d);
  const skipped = new Set<number>();
  // Never skip the first or last two paydays: a gap must sit between observed paychecks.
  if (all.length >= 6 && chance(rng, gapChance)) skipped.add(int(rng, 2, all.length - 3));
  const dates: Date[] = [];
  const gapIndexes: number[] = [];
  all.forEach((date, i) => {
    if (skipped.has(i)) return;
    dates.push(date);
    if (skipped.has(i + 1)) gapIndexes.push(dates.length - 1);
  });
  return { dates, gapIndexes };
}

/** The primary job: biweekly Friday paychecks netting about $1,900-$3,800, with matching paystubs. */
function primaryJob(rng: Rng, historyStart: Date, today: Date): Job {
  const employer = pick(rng, EMPLOYERS);
  const title = pick(rng, employer.titles);
  const provider = pick(rng, PAYROLL_PROVIDERS);
  const targetNetCents = centsBetween(rng, 1900, 3800);
  // Withholding (federal, state, FICA, benefits) between 18% and 30% of gross.
  const withholding = 0.18 + rng() * 0.12;
  const grossCents = Math.round(targetNetCents / (1 - withholding));
  const rateCents =
    employer.payType === 'salary'
      ? Math.round((grossCents * 26) / 50_000) * 50_000 // salaries are round: nearest $500 a year
      : Math.round(grossCents / 80); // hourly rate for an 80-hour fortnight
  const firstFriday = addDays(nextWeekday(addDays(historyStart, 1), 5), chance(rng, 0.5) ? 7 : 0);
  const { dates, gapIndexes } = schedule(rng, firstFriday, today, 14, 0.3);

  const transactions: DraftTransaction[] = [];
  const paystubs: Paystub[] = [];
  for (const payDate of dates) {
    let baseCents: number;
    let overtimeCents = 0;
    let hours = 80;
    if (employer.payType === 'salary') {
      baseCents = Math.round(rateCents / 26);
    } else {
      hours = int(rng, 72, 80);
      if (chance(rng, 0.3)) hours += int(rng, 1, 10);
      baseCents = rateCents * Math.min(hours, 80);
      overtimeCents = Math.round(rateCents * 1.5 * Math.max(0, hours - 80));
    }
    const bonusCents = chance(rng, 0.08) ? centsBetween(rng, 250, 1500) : 0;
    const otherCents = chance(rng, 0.1) ? centsBetween(rng, 20, 150) : 0; // reimbursements, stipends
    const gross = baseCents + overtimeCents + bonusCents + otherCents;
    const net = Math.round(gross * (1 - withholding));
    // The pay period closes on the Sunday before payday and spans two weeks.
    const periodEnd = addDays(payDate, -5);
    paystubs.push({
      gross_pay: dollars(gross),
      base_pay: dollars(baseCents),
      bonus: dollars(bonusCents),
      commission: 0,
      tips: 0,
      overtime: dollars(overtimeCents),
      other: dollars(otherCents),
      net_pay: dollars(net),
      hours_worked: hours,
      pay_date: longDate(payDate),
      start_date: longDate(addDays(periodEnd, -13)),
      end_date: longDate(periodEnd),
    });
    transactions.push({ name: employer.descriptor, cents: net, date: payDate });
  }
  const typicalNet = Math.round(grossCents * (1 - withholding));
  return {
    employer,
    title,
    provider,
    rateCents,
    stream: {
      name: employer.company,
      transactions,
      gapIndexes,
      monthlyCents: Math.round((typicalNet * 26) / 12),
      paystubs,
    },
  };
}

/** A weekly gig payout that may have started partway through the history. */
function gigStream(rng: Rng, historyStart: Date, today: Date): DraftStream {
  const gig = pick(rng, GIGS);
  const historyDays = daysBetween(historyStart, today);
  const start = nextWeekday(addDays(historyStart, int(rng, 1, Math.floor(historyDays / 2))), 1);
  const { dates, gapIndexes } = schedule(rng, start, today, 7, 0.4);
  const typical = centsBetween(rng, 120, 450);
  const transactions = dates.map((date) => ({
    name: gig.descriptor,
    // Gig income swings with hours worked: +-35% around the typical week.
    cents: Math.max(1000, Math.round(typical * (0.65 + rng() * 0.7))),
    date,
  }));
  return {
    name: gig.name,
    transactions,
    gapIndexes,
    monthlyCents: Math.round((typical * 52) / 12),
    paystubs: [],
  };
}

/** Zero to two one-off income sources (tax refund, peer transfers, an insurance claim). */
function nonRecurringStreams(
  rng: Rng,
  historyStart: Date,
  today: Date,
  historyMonths: number,
): DraftStream[] {
  const historyDays = daysBetween(historyStart, today);
  const count = chance(rng, 0.6) ? int(rng, 1, 2) : 0;
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(int(rng, 0, NON_RECURRING.length - 1));
  return [...chosen]
    .sort((a, b) => a - b)
    .map((i) => {
      const kind = NON_RECURRING[i] as (typeof NON_RECURRING)[number];
      const transactions = Array.from({ length: int(rng, kind.count[0], kind.count[1]) }, () => ({
        name: kind.descriptor,
        cents: centsBetween(rng, kind.min, kind.max),
        date: addDays(historyStart, int(rng, 1, historyDays)),
      })).sort((a, b) => a.date.getTime() - b.date.getTime());
      const total = transactions.reduce((sum, t) => sum + t.cents, 0);
      return {
        name: kind.name,
        transactions,
        gapIndexes: [],
        monthlyCents: Math.round(total / historyMonths),
        paystubs: [],
      };
    });
}

function streamTotalCents(stream: DraftStream): number {
  return stream.transactions.reduce((sum, t) => sum + t.cents, 0);
}

function renderStream(stream: DraftStream, withPaystubs: boolean): IncomeStream {
  const first = stream.transactions[0];
  const last = stream.transactions[stream.transactions.length - 1];
  const transactions: Transaction[] = stream.transactions.map((t) => ({
    name: t.name,
    amount: dollars(t.cents),
    date: slashDate(t.date),
  }));
  return {
    name: stream.name,
    total: dollars(streamTotalCents(stream)),
    monthly_income: dollars(stream.monthlyCents),
    start_date: first ? isoDate(first.date) : '',
    end_date: last ? isoDate(last.date) : '',
    transactions,
    paystubs: withPaystubs ? stream.paystubs : [],
    pay_gap_after_transaction_indexes: [...stream.gapIndexes],
  };
}

// ---------------------------------------------------------------------------------------------
// Summaries
// ---------------------------------------------------------------------------------------------

const WINDOWS = [
  ['one_month_avg_monthly', 1],
  ['two_month_avg_monthly', 2],
  ['three_month_avg_monthly', 3],
  ['six_month_avg_monthly', 6],
  ['nine_month_avg_monthly', 9],
  ['twelve_month_avg_monthly', 12],
] as const;

type AverageKey = (typeof WINDOWS)[number][0];
type Averages = Record<AverageKey, number | null>;

/**
 * Average monthly income over each window ending on the report day. `historyMonths` is how much
 * history was connected: a window longer than that has no honest average, hence `null`.
 */
function averages(streams: DraftStream[], today: Date, historyMonths: number, knownZero: boolean): Averages {
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

function summary(
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

// ---------------------------------------------------------------------------------------------
// Connections and documents
// ---------------------------------------------------------------------------------------------

function bankConnection(
  rng: Rng,
  recurring: DraftStream[],
  nonRecurring: DraftStream[],
  historyStart: Date,
  today: Date,
  historyMonths: number,
  blockBusinessAccounts: boolean,
): BankConnection {
  const accounts: Record<string, string>[] = [
    {
      id: opaqueId(rng, 37),
      name: pick(rng, ['Total Checking', 'Everyday Checking', 'Advantage Checking', 'Spending Account']),
      mask: pad(int(rng, 0, 9999), 4),
      type: 'depository',
      subtype: 'checking',
    },
  ];
  if (chance(rng, 0.5)) {
    accounts.push({
      id: opaqueId(rng, 37),
      name: pick(rng, ['Savings', 'High Yield Savings', 'Way2Save Savings']),
      mask: pad(int(rng, 0, 9999), 4),
      type: 'depository',
      subtype: 'savings',
    });
  }
  // A business account only where the group allows them (`config.block_business_accounts`).
  if (!blockBusinessAccounts && chance(rng, 0.3)) {
    accounts.push({
      id: opaqueId(rng, 37),
      name: pick(rng, ['Business Checking', 'Business Advantage Checking', 'Small Business Checking']),
      mask: pad(int(rng, 0, 9999), 4),
      type: 'depository',
      subtype: 'checking',
      holder_category: 'business',
    });
  }
  // The spec lists the bank income averages from two months up: no one-month figure here.
  const { one_month_avg_monthly: _oneMonth, ...bankAverages } = averages(
    recurring,
    today,
    historyMonths,
    false,
  );
  return {
    institution_name: pick(rng, BANKS),
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
function mismatchedName(rng: Rng, fullName: string): string {
  const parts = fullName.trim().split(/\s+/);
  const first = parts[0] ?? fullName;
  // Exclude the applicant's own surnames, or the "mismatched" name could equal the real one.
  const surnames = ['Delgado', 'Okafor', 'Lindqvist', 'Nakamura', 'Brennan', 'Whitfield'].filter(
    (s) => !parts.includes(s),
  );
  return `${first} ${pick(rng, surnames)}`;
}

function payrollConnection(
  rng: Rng,
  job: Job,
  fullName: string,
  historyStart: Date,
  today: Date,
  historyMonths: number,
): PayrollConnection {
  const isNameMismatched = chance(rng, 0.1);
  // Employment began before the connected history, so the whole history is with this employer.
  const hired = addDays(addMonths(historyStart, -int(rng, 2, 60)), -int(rng, 0, 27));
  const { one_month_avg_monthly: _oneMonth, ...payrollAverages } = averages(
    [job.stream],
    today,
    historyMonths,
    false,
  );
  return {
    employee_name: isNameMismatched ? mismatchedName(rng, fullName) : fullName,
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

function uploadedDocuments(rng: Rng, fullName: string, today: Date, p: number): UploadedDocument[] {
  if (!chance(rng, p)) return [];
  return Array.from({ length: int(rng, 1, 2) }, () => {
    const kind = pick(rng, DOCUMENT_TYPES);
    const roll = rng();
    // Most uploads are genuine; the score bands match the label (low < 30 <= medium < 70 <= high).
    const [fraudRisk, score] =
      roll < 0.75
        ? (['low', int(rng, 1, 29)] as const)
        : roll < 0.92
          ? (['medium', int(rng, 30, 69)] as const)
          : (['high', int(rng, 70, 99)] as const);
    const signalCount = fraudRisk === 'low' ? 0 : fraudRisk === 'medium' ? 1 : int(rng, 2, 3);
    const signals = new Set<number>();
    while (signals.size < signalCount) signals.add(int(rng, 0, FRAUD_SIGNALS.length - 1));
    const dated = addDays(today, -int(rng, 3, 60));
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

// ---------------------------------------------------------------------------------------------
// Entries
// ---------------------------------------------------------------------------------------------

/** Why an applicant without a connected bank says so, phrased as applicants write it. */
const EXPLANATIONS: Readonly<Record<string, readonly string[]>> = {
  no_income: [
    'I am a full-time student and my parents are paying the rent.',
    'I am retired and pay my expenses from savings.',
    'I am between jobs; my new position starts next month.',
  ],
  no_bank: ['I do not have a bank account. I am paid by check and use a prepaid card.'],
  no_online_banking: ['My credit union does not offer online banking. I can provide printed statements.'],
  share_bank: ['I share a joint account with my co-applicant, who connected it.'],
  bank_cannot_connect: ['My bank kept showing an error when I tried to connect it.'],
  missing_bank: ['My bank is a small local bank that was not in the list.'],
  not_completed: [''],
};

/**
 * One per-verification entry of `data.reports`: realistic and fully deterministic for a given rng
 * sequence.
 *
 * `finished` connects a bank (and usually payroll) with 6-12 months of history; `no_bank`,
 * `no_online_banking`, `bank_cannot_connect` and `missing_bank` have no bank connection but may
 * carry a payroll connection and uploaded documents; `share_bank` and `not_completed` carry no
 * income data; `no_income` reports zero income. Dates are anchored on `context.createdAt`.
 *
 * @param rng - Floats in [0, 1), seeded by the caller; the only source of randomness.
 * @param applicant - Who the entry is for and how their verification ended (spec 2.7).
 * @param context - The group facts; `createdAt` is the report date.
 */
export function generateVerificationReport(
  rng: () => number,
  applicant: ReportApplicant,
  context: ReportContext,
): VerificationReport {
  const reason = applicant.reasonCompleted;
  const today = utcDay(context.createdAt);
  const historyMonths = int(rng, 6, 12);
  const historyStart = addMonths(today, -historyMonths);

  const sources = incomeSourcesFor(applicant.verificationType, applicant.allowedIncomeSources);
  const bankReasons = reason === 'finished';
  const payrollReasons = ['finished', 'no_bank', 'no_online_banking', 'bank_cannot_connect', 'missing_bank'];
  const hasBank = bankReasons && sources.bank;
  // A finished verification without a bank to draw on finished through payroll.
  const hasPayroll =
    payrollReasons.includes(reason) &&
    sources.payroll &&
    ((bankReasons && !hasBank) || chance(rng, bankReasons ? 0.6 : 0.5));

  const job = hasBank || hasPayroll ? primaryJob(rng, historyStart, today) : undefined;
  const recurring: DraftStream[] = job ? [job.stream] : [];
  // A bank shows every deposit, so a second stream or one-off income only appears with one.
  if (hasBank && chance(rng, 0.4)) recurring.push(gigStream(rng, historyStart, today));
  const nonRecurring = hasBank ? nonRecurringStreams(rng, historyStart, today, historyMonths) : [];
  const connected = hasBank || hasPayroll;

  const documents = uploadedDocuments(
    rng,
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

  let explanation = pick(rng, EXPLANATIONS[reason] ?? ['']);
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
            rng,
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
        ? [payrollConnection(rng, job, applicant.fullName, historyStart, today, historyMonths)]
        : [],
    income_explanation: explanation,
    uploaded_documents: documents,
  };
}

// ---------------------------------------------------------------------------------------------
// Report data
// ---------------------------------------------------------------------------------------------

/** Income-to-rent multiple a household must reach; the common "income of 2.5x the rent" rule. */
const MULTIPLIER_THRESHOLD = 2.5;
const CRITERIA_USED = 'three_month_avg_monthly';

const toCents = (amount: number | null | undefined): number => Math.round((amount ?? 0) * 100);

/**
 * Sums summaries: totals and averages add up, streams are listed together. An average that is
 * `null` in one entry counts as zero when others have it, and stays `null` only when every entry
 * lacks it (no one has that much history).
 */
function sumSummaries(summaries: (IncomeSummary | undefined)[]): IncomeSummary {
  const present = summaries.filter((s): s is IncomeSummary => s !== undefined);
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
 * multiple itself: spec 2.8 lists passed as the value seen for "the result fields" of
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
