/**
 * Income streams of generated reports: the primary job (deposits and paystubs), weekly gig
 * payouts and one-off income, drafted in cents and Dates and rendered to wire form.
 */
import type { IncomeStream, Paystub, Transaction } from 'applicant-verification';
import type { Random } from '../state/random.js';
import { EMPLOYERS, type Employer, GIGS, NON_RECURRING, PAYROLL_PROVIDERS } from './report-catalogue.js';
import { addDays, centsBetween, daysBetween, dollars, isoDate, longDate, slashDate } from './report-units.js';

export interface DraftTransaction {
  name: string;
  cents: number;
  date: Date;
}

/** A stream under construction, in cents and Dates, rendered to wire form at the end. */
export interface DraftStream {
  name: string;
  transactions: DraftTransaction[];
  gapIndexes: number[];
  monthlyCents: number;
  paystubs: Paystub[];
}

/** The facts of one job, shared by the bank view (deposits) and the payroll view (paystubs). */
export interface Job {
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
  random: Random,
  from: Date,
  to: Date,
  everyDays: number,
  gapChance: number,
): { dates: Date[]; gapIndexes: number[] } {
  const all: Date[] = [];
  for (let d = from; d <= to; d = addDays(d, everyDays)) all.push(d);
  const skipped = new Set<number>();
  // Never skip the first or last two paydays: a gap must sit between observed paychecks.
  if (all.length >= 6 && random.chance(gapChance)) skipped.add(random.int(2, all.length - 3));
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
export function primaryJob(random: Random, historyStart: Date, today: Date): Job {
  const employer = random.pick(EMPLOYERS);
  const title = random.pick(employer.titles);
  const provider = random.pick(PAYROLL_PROVIDERS);
  const targetNetCents = centsBetween(random, 1900, 3800);
  // Withholding (federal, state, FICA, benefits) between 18% and 30% of gross.
  const withholding = 0.18 + random.next() * 0.12;
  const grossCents = Math.round(targetNetCents / (1 - withholding));
  const rateCents =
    employer.payType === 'salary'
      ? Math.round((grossCents * 26) / 50_000) * 50_000 // salaries are round: nearest $500 a year
      : Math.round(grossCents / 80); // hourly rate for an 80-hour fortnight
  const firstFriday = addDays(nextWeekday(addDays(historyStart, 1), 5), random.chance(0.5) ? 7 : 0);
  const { dates, gapIndexes } = schedule(random, firstFriday, today, 14, 0.3);

  const transactions: DraftTransaction[] = [];
  const paystubs: Paystub[] = [];
  for (const payDate of dates) {
    let baseCents: number;
    let overtimeCents = 0;
    let hours = 80;
    if (employer.payType === 'salary') {
      baseCents = Math.round(rateCents / 26);
    } else {
      hours = random.int(72, 80);
      if (random.chance(0.3)) hours += random.int(1, 10);
      baseCents = rateCents * Math.min(hours, 80);
      overtimeCents = Math.round(rateCents * 1.5 * Math.max(0, hours - 80));
    }
    const bonusCents = random.chance(0.08) ? centsBetween(random, 250, 1500) : 0;
    const otherCents = random.chance(0.1) ? centsBetween(random, 20, 150) : 0; // reimbursements, stipends
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
export function gigStream(random: Random, historyStart: Date, today: Date): DraftStream {
  const gig = random.pick(GIGS);
  const historyDays = daysBetween(historyStart, today);
  const start = nextWeekday(addDays(historyStart, random.int(1, Math.floor(historyDays / 2))), 1);
  const { dates, gapIndexes } = schedule(random, start, today, 7, 0.4);
  const typical = centsBetween(random, 120, 450);
  const transactions = dates.map((date) => ({
    name: gig.descriptor,
    // Gig income swings with hours worked: +-35% around the typical week.
    cents: Math.max(1000, Math.round(typical * (0.65 + random.next() * 0.7))),
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
export function nonRecurringStreams(
  random: Random,
  historyStart: Date,
  today: Date,
  historyMonths: number,
): DraftStream[] {
  const historyDays = daysBetween(historyStart, today);
  const count = random.chance(0.6) ? random.int(1, 2) : 0;
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(random.int(0, NON_RECURRING.length - 1));
  return [...chosen]
    .sort((a, b) => a - b)
    .map((i) => {
      const kind = NON_RECURRING[i] as (typeof NON_RECURRING)[number];
      const transactions = Array.from({ length: random.int(kind.count[0], kind.count[1]) }, () => ({
        name: kind.descriptor,
        cents: centsBetween(random, kind.min, kind.max),
        date: addDays(historyStart, random.int(1, historyDays)),
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

export function streamTotalCents(stream: DraftStream): number {
  return stream.transactions.reduce((sum, t) => sum + t.cents, 0);
}

export function renderStream(stream: DraftStream, withPaystubs: boolean): IncomeStream {
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
