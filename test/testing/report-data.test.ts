/**
 * The mock's income report data: reproducible per seed, accepted by the SDK's own schemas with no
 * stray fields, and internally consistent, so SDK tests built on it exercise realistic data.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toIsoDate } from '../../src/helpers/dates.js';
import type {
  IncomeReportData,
  IncomeStream,
  IncomeSummary,
  VerificationReport,
} from '../../src/schemas/index.js';
import {
  incomeReportDataSchema,
  REASONS_COMPLETED,
  verificationReportSchema,
} from '../../src/schemas/index.js';
import {
  buildIncomeReportData,
  generateVerificationReport,
  type ReportApplicant,
  type ReportContext,
} from '../../src/testing/reports/report-data.js';
import { createRandom } from '../../src/testing/state/random.js';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const SLASH_DAY = /^\d{2}\/\d{2}\/\d{4}$/;
const LONG_DAY =
  /^(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const WINDOWS = [
  ['one_month_avg_monthly', 1],
  ['two_month_avg_monthly', 2],
  ['three_month_avg_monthly', 3],
  ['six_month_avg_monthly', 6],
  ['nine_month_avg_monthly', 9],
  ['twelve_month_avg_monthly', 12],
] as const;

const context: ReportContext = {
  applicantGroupId: '3f1c2a9e-8d7b-4c6a-9e5f-1a2b3c4d5e6f',
  propertyName: 'Maple Court Apartments',
  monthlyRentCents: 185_000,
  createdAt: new Date('2024-05-14T16:20:11.123Z'),
};

function applicant(i: number, reasonCompleted: string): ReportApplicant {
  return {
    applicantId: `applicant-${i}`,
    verificationId: `verification-${i}`,
    fullName: ['Jordan Alvarez', 'Priya Raman', 'Sam Okafor'][i % 3] ?? 'Jordan Alvarez',
    email: `applicant${i}@example.com`,
    reasonCompleted,
  };
}

function household(seed: number, reasons: readonly string[], ctx: ReportContext = context): IncomeReportData {
  const random = createRandom(seed, 7);
  const entries = reasons.map((reason, i) => generateVerificationReport(random, applicant(i, reason), ctx));
  return buildIncomeReportData(ctx, entries);
}

const cents = (amount: number | null | undefined): number => Math.round((amount ?? 0) * 100);

/** Money must be whole cents: a float like 12.3400000001 would leak rounding into the wire data. */
function expectWholeCents(amount: number | null | undefined): void {
  if (amount === null || amount === undefined) return;
  expect(Math.abs(amount * 100 - Math.round(amount * 100))).toBeLessThan(1e-6);
}

/** UTC midnight of a `YYYY-MM-DD` day, for window arithmetic that mirrors calendar months. */
function day(iso: string): number {
  return Date.parse(`${iso}T00:00:00Z`);
}

function monthsBefore(isoToday: string, months: number): number {
  const [y, m, d] = isoToday.split('-').map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(y, m - 1 - months + 1, 0)).getUTCDate();
  return Date.UTC(y, m - 1 - months, Math.min(d, lastDay));
}

/**
 * Walks a zod schema alongside a value and reports every key the schema does not declare. The
 * response schemas are loose on purpose (the service adds fields), so a misspelt field in the
 * generator would otherwise pass validation unnoticed.
 */
function undeclaredKeys(schema: z.ZodType, value: unknown, path = '$'): string[] {
  if (value === null || value === undefined) return [];
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    return undeclaredKeys(schema.unwrap() as z.ZodType, value, path);
  }
  if (schema instanceof z.ZodArray && Array.isArray(value)) {
    return value.flatMap((item, i) => undeclaredKeys(schema.element as z.ZodType, item, `${path}[${i}]`));
  }
  if (schema instanceof z.ZodObject && typeof value === 'object') {
    const shape = schema.shape as Record<string, z.ZodType>;
    return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
      const childSchema = shape[key];
      return childSchema ? undeclaredKeys(childSchema, child, `${path}.${key}`) : [`${path}.${key}`];
    });
  }
  return []; // records (bank accounts, whose fields the vendor's documentation leaves open) and leaves
}

/** Every income stream anywhere in an entry, with where it was found. */
function streamsOf(entry: VerificationReport): Array<[string, IncomeStream]> {
  const out: Array<[string, IncomeStream]> = [];
  const add = (where: string, streams: IncomeStream[] | null | undefined) => {
    for (const s of streams ?? []) out.push([where, s]);
  };
  add('recurring', entry.recurring?.income_streams);
  add('non_recurring', entry.non_recurring?.income_streams);
  for (const bank of entry.bank_connections ?? []) {
    add('bank', bank.income?.income_streams);
    add('bank.non_recurring', bank.income?.non_recurring?.income_streams);
  }
  for (const payroll of entry.payroll_connections ?? []) add('payroll', payroll.income?.income_streams);
  return out;
}

function checkStream(stream: IncomeStream, today: string): void {
  const transactions = stream.transactions ?? [];
  expect(transactions.length).toBeGreaterThan(0);
  expect(cents(stream.total)).toBe(transactions.reduce((sum, t) => sum + cents(t.amount), 0));
  expectWholeCents(stream.total);
  expectWholeCents(stream.monthly_income);
  expect(stream.start_date).toMatch(ISO_DAY);
  expect(stream.end_date).toMatch(ISO_DAY);
  const days = transactions.map((t) => {
    expect(t.date).toMatch(SLASH_DAY);
    expect(t.amount).toBeGreaterThan(0);
    expectWholeCents(t.amount);
    return toIsoDate(t.date ?? '');
  });
  expect([...days].sort()).toEqual(days); // chronological
  expect(stream.start_date).toBe(days[0]);
  expect(stream.end_date).toBe(days[days.length - 1]);
  expect(days[days.length - 1]! <= today).toBe(true); // nothing after the report date
  const intervals = days.slice(1).map((d, i) => (day(d) - day(days[i] ?? d)) / 86_400_000);
  const usual = [...intervals].sort((a, b) => a - b)[Math.floor(intervals.length / 2)] ?? 0;
  for (const index of stream.pay_gap_after_transaction_indexes ?? []) {
    expect(Number.isInteger(index)).toBe(true);
    // A gap sits between two observed transactions, and the next pay comes late.
    expect(index).toBeGreaterThanOrEqual(0);
    expect(index).toBeLessThan(transactions.length - 1);
    expect(intervals[index]).toBeGreaterThanOrEqual(usual * 1.5);
  }
  const paystubs = stream.paystubs ?? [];
  if (paystubs.length > 0) {
    // One paystub per paycheck, and each paycheck deposits the paystub's net pay.
    expect(paystubs.length).toBe(transactions.length);
    paystubs.forEach((stub, i) => {
      for (const field of ['pay_date', 'start_date', 'end_date'] as const) {
        expect(stub[field]).toMatch(LONG_DAY);
        toIsoDate(stub[field] ?? '');
      }
      expect(toIsoDate(stub.pay_date ?? '')).toBe(days[i]);
      expect(cents(stub.net_pay)).toBe(cents(transactions[i]?.amount));
      const parts = [stub.base_pay, stub.bonus, stub.commission, stub.tips, stub.overtime, stub.other];
      expect(cents(stub.gross_pay)).toBe(parts.reduce<number>((sum, v) => sum + cents(v), 0));
      expect(stub.net_pay).toBeLessThan(stub.gross_pay ?? 0);
      expect(stub.hours_worked).toBeGreaterThan(0);
    });
  }
}

/** Recomputes each average from the summary's transactions: income in the last N months over N. */
function checkAverages(
  summary: IncomeSummary,
  today: string,
  windows: readonly (typeof WINDOWS)[number][],
): void {
  const transactions = (summary.income_streams ?? []).flatMap((s) => s.transactions ?? []);
  let sawNull = false;
  for (const [key, months] of windows) {
    const value = summary[key];
    if (value === null) {
      sawNull = true;
      continue;
    }
    // Once history runs out, every longer window is unavailable too.
    expect(sawNull, `${key} follows a null window`).toBe(false);
    const since = monthsBefore(today, months);
    const sum = transactions
      .filter((t) => day(toIsoDate(t.date ?? '')) > since)
      .reduce((total, t) => total + cents(t.amount), 0);
    expect(cents(value)).toBe(Math.round(sum / months));
    expectWholeCents(value);
  }
}

function checkEntry(entry: VerificationReport, ctx: ReportContext): void {
  const today = ctx.createdAt.toISOString().slice(0, 10);
  for (const [, stream] of streamsOf(entry)) checkStream(stream, today);
  for (const summary of [entry.recurring, entry.non_recurring]) {
    expect(summary).toBeDefined();
    const streams = summary?.income_streams ?? [];
    expect(cents(summary?.total)).toBe(streams.reduce((sum, s) => sum + cents(s.total), 0));
    if (summary) checkAverages(summary, today, WINDOWS);
  }
  for (const bank of entry.bank_connections ?? []) {
    const income = bank.income;
    expect(income?.start_date).toMatch(ISO_DAY);
    expect(income?.end_date).toBe(today);
    expect(income?.transaction_timespan_length).toBe(
      (day(today) - day(income?.start_date ?? '')) / 86_400_000,
    );
    for (const account of bank.accounts ?? []) {
      expect(account).toMatchObject({ id: expect.any(String), mask: expect.stringMatching(/^\d{4}$/) });
    }
    if (income) checkAverages(income, today, WINDOWS.slice(1));
  }
  for (const payroll of entry.payroll_connections ?? []) {
    expect(payroll.start_date).toMatch(LONG_DAY);
    expect(payroll.end_date).toBeNull();
    expect(payroll.pay_frequency).toBe('Biweekly');
    expect(['Annual', 'Hourly']).toContain(payroll.pay_rate);
    expect(payroll.income?.start_date).toMatch(ISO_DAY);
    if (payroll.income) checkAverages(payroll.income, today, WINDOWS.slice(1));
    expect(payroll.is_name_mismatched).toBe(payroll.employee_name !== entry.identity?.full_name);
  }
  for (const doc of entry.uploaded_documents ?? []) {
    const score = doc.fraud_risk_score ?? -1;
    expect(Number.isInteger(score)).toBe(true);
    const band = score < 30 ? 'low' : score < 70 ? 'medium' : 'high';
    expect(doc.fraud_risk).toBe(band);
    // Signals explain a risk: none for low, one for medium, several for high.
    const signals = doc.fraud_risk_signals?.length ?? 0;
    if (band === 'high') expect(signals).toBeGreaterThanOrEqual(2);
    else expect(signals).toBe(band === 'low' ? 0 : 1);
  }

  const sources = (entry.income_sources ?? []).map((s) => s.source);
  expect(sources.includes('bank')).toBe((entry.bank_connections ?? []).length > 0);
  expect(sources.includes('payroll')).toBe((entry.payroll_connections ?? []).length > 0);
  expect(sources.includes('documents')).toBe((entry.uploaded_documents ?? []).length > 0);
}

function checkHousehold(data: IncomeReportData, ctx: ReportContext): void {
  const entries = data.reports ?? [];
  for (const kind of ['recurring', 'non_recurring'] as const) {
    const household = data[kind];
    const parts = entries.map((e) => e[kind]);
    expect(cents(household?.total)).toBe(parts.reduce((sum, s) => sum + cents(s?.total), 0));
    for (const [key] of WINDOWS) {
      const values = parts.map((s) => s?.[key]).filter((v): v is number => typeof v === 'number');
      if (values.length === 0) expect(household?.[key]).toBeNull();
      else expect(cents(household?.[key])).toBe(values.reduce((sum, v) => sum + cents(v), 0));
    }
    expect(household?.income_streams).toEqual(parts.flatMap((s) => s?.income_streams ?? []));
  }
  expect(data.summary_timespan_length).toBe(
    Math.max(0, ...entries.map((e) => e.summary_timespan_length ?? 0)),
  );
  expect(data.uploaded_documents).toEqual(entries.flatMap((e) => e.uploaded_documents ?? []));
  expect(data.applicant_group_id).toBe(ctx.applicantGroupId);
  expect(data.property_name).toBe(ctx.propertyName);
  expect(data.property_monthly_rent_cents).toBe(ctx.monthlyRentCents);
  expect(data.created_at).toMatch(ISO_MS);
  expect(data.created_at).toBe(ctx.createdAt.toISOString());

  const [rule, ...others] = data.criteria_rule_results ?? [];
  expect(others).toEqual([]);
  expect(rule).toMatchObject({ criteria_used: 'three_month_avg_monthly', criteria_from_rule: 'recurring' });
  const threshold = rule?.multiplier_threshold ?? Number.NaN;
  const multiple = cents(data.recurring?.three_month_avg_monthly) / ctx.monthlyRentCents;
  const expected = multiple >= threshold ? 'passed' : 'failed';
  expect(rule?.result).toBe(expected);
  expect(rule?.multiplier_result).toBe(expected);
}

describe('generateVerificationReport / buildIncomeReportData', () => {
  it('gives identical output for the same seed and different output for different seeds', () => {
    const reasons = ['finished', 'finished', 'no_bank'];
    expect(household(42, reasons)).toEqual(household(42, reasons));
    expect(JSON.stringify(household(42, reasons))).toBe(JSON.stringify(household(42, reasons)));
    expect(household(43, reasons)).not.toEqual(household(42, reasons));
  });

  it('does not read the real clock: the dates follow context.createdAt', () => {
    const later = { ...context, createdAt: new Date('2031-02-03T04:05:06.789Z') };
    const data = household(5, ['finished'], later);
    const stream = data.reports?.[0]?.recurring?.income_streams?.[0];
    expect(stream?.end_date?.startsWith('2031-')).toBe(true);
    expect(data.created_at).toBe('2031-02-03T04:05:06.789Z');
  });

  it('passes the SDK schemas, with no field the schemas do not declare, for every reason', () => {
    for (let seed = 1; seed <= 25; seed++) {
      const data = household(seed, REASONS_COMPLETED);
      expect(incomeReportDataSchema.safeParse(data).success).toBe(true);
      expect(undeclaredKeys(incomeReportDataSchema, data)).toEqual([]);
      for (const entry of data.reports ?? []) {
        expect(verificationReportSchema.parse(entry)).toEqual(entry);
        expect(undeclaredKeys(verificationReportSchema, entry)).toEqual([]);
      }
    }
  });

  it('is internally consistent for any seed, reasons and report date (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.array(fc.constantFrom(...REASONS_COMPLETED), { minLength: 1, maxLength: 4 }),
        fc.date({
          min: new Date('2015-01-01T00:00:00Z'),
          max: new Date('2035-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 50_000, max: 600_000 }),
        (seed, reasons, createdAt, monthlyRentCents) => {
          const ctx = { ...context, createdAt, monthlyRentCents };
          const data = household(seed, reasons, ctx);
          expect(incomeReportDataSchema.safeParse(data).success).toBe(true);
          for (const entry of data.reports ?? []) checkEntry(entry, ctx);
          checkHousehold(data, ctx);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('gives a finished applicant a bank connection with 6-12 months of history and employer pay', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const entry = household(seed, ['finished']).reports?.[0];
      expect(entry?.bank_connections).toHaveLength(1);
      const streams = entry?.recurring?.income_streams ?? [];
      expect(streams.length).toBeGreaterThanOrEqual(1);
      expect(streams.length).toBeLessThanOrEqual(2);
      // The first stream is the biweekly employer paycheck, netting about $1,900-$3,800.
      const paychecks = streams[0]?.transactions ?? [];
      const typical = paychecks.map((t) => t.amount ?? 0).sort((a, b) => a - b)[
        Math.floor(paychecks.length / 2)
      ];
      expect(typical).toBeGreaterThan(1_500);
      expect(typical).toBeLessThan(4_800);
      const span = entry?.summary_timespan_length ?? 0;
      expect(span).toBeGreaterThanOrEqual(180);
      expect(span).toBeLessThanOrEqual(366);
      expect(entry?.recurring?.six_month_avg_monthly).not.toBeNull();
    }
  });

  it('covers the realistic variety across seeds: gaps, second streams, payroll, documents, fraud levels', () => {
    const entries = Array.from({ length: 80 }, (_, seed) => household(seed, ['finished']).reports?.[0]);
    const streams = entries.flatMap((e) => e?.recurring?.income_streams ?? []);
    expect(streams.some((s) => (s.pay_gap_after_transaction_indexes ?? []).length > 0)).toBe(true);
    expect(entries.some((e) => (e?.recurring?.income_streams ?? []).length === 2)).toBe(true);
    expect(entries.some((e) => (e?.non_recurring?.income_streams ?? []).length > 0)).toBe(true);
    expect(entries.some((e) => (e?.payroll_connections ?? []).length > 0)).toBe(true);
    expect(entries.some((e) => (e?.payroll_connections ?? []).length === 0)).toBe(true);
    expect(entries.some((e) => e?.recurring?.twelve_month_avg_monthly === null)).toBe(true);
    const docs = Array.from({ length: 80 }, (_, seed) => household(seed, ['no_bank', 'missing_bank']))
      .flatMap((d) => d.uploaded_documents ?? [])
      .map((d) => d.fraud_risk);
    expect(new Set(docs)).toEqual(new Set(['low', 'medium', 'high']));
  });

  it('reports zero income, and no connections, for no_income', () => {
    const entry = household(3, ['no_income']).reports?.[0];
    for (const summary of [entry?.recurring, entry?.non_recurring]) {
      expect(summary?.total).toBe(0);
      expect(summary?.income_streams).toEqual([]);
      for (const [key] of WINDOWS) expect(summary?.[key]).toBe(0);
    }
    expect(entry?.bank_connections).toEqual([]);
    expect(entry?.payroll_connections).toEqual([]);
    expect(entry?.income_sources).toEqual([]);
    expect(entry?.income_explanation).not.toBe('');
  });

  it('has no bank connection unless the applicant finished, and no data at all for share_bank / not_completed', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const data = household(seed, REASONS_COMPLETED);
      for (const entry of data.reports ?? []) {
        if (entry.reason_completed !== 'finished') expect(entry.bank_connections).toEqual([]);
        if (entry.reason_completed === 'share_bank' || entry.reason_completed === 'not_completed') {
          expect(entry.recurring?.income_streams).toEqual([]);
          expect(entry.recurring?.three_month_avg_monthly).toBeNull();
          expect(entry.payroll_connections).toEqual([]);
          expect(entry.uploaded_documents).toEqual([]);
          expect(entry.summary_timespan_length).toBe(0);
        }
      }
    }
  });

  it('passes the rent rule exactly at 2.5x the rent and fails a cent below', () => {
    const entry = (avg: number): VerificationReport => ({
      verification_id: 'v',
      recurring: { total: avg * 3, three_month_avg_monthly: avg, income_streams: [] },
      non_recurring: { total: 0, income_streams: [] },
    });
    const rent = { ...context, monthlyRentCents: 123_457 }; // $1,234.57 -> 2.5x = $3,086.425
    expect(buildIncomeReportData(rent, [entry(3086.43)]).criteria_rule_results?.[0]?.result).toBe('passed');
    expect(buildIncomeReportData(rent, [entry(3086.42)]).criteria_rule_results?.[0]?.result).toBe('failed');
    const even = { ...context, monthlyRentCents: 200_000 };
    expect(buildIncomeReportData(even, [entry(5000)]).criteria_rule_results?.[0]).toEqual({
      result: 'passed',
      multiplier_result: 'passed',
      multiplier_threshold: 2.5,
      criteria_used: 'three_month_avg_monthly',
      criteria_from_rule: 'recurring',
    });
    expect(buildIncomeReportData(even, [entry(4999.99)]).criteria_rule_results?.[0]?.result).toBe('failed');
  });

  it('builds an individual report from one entry and a household report from all, without crashing on sparse entries', () => {
    const random = createRandom(9, 7);
    const a = generateVerificationReport(random, applicant(0, 'finished'), context);
    const b = generateVerificationReport(random, applicant(1, 'finished'), context);
    const individual = buildIncomeReportData(context, [a]);
    expect(individual.reports).toEqual([a]);
    expect(individual.recurring?.total).toBe(a.recurring?.total);
    const both = buildIncomeReportData(context, [a, b]);
    expect(cents(both.recurring?.total)).toBe(cents(a.recurring?.total) + cents(b.recurring?.total));
    const sparse = buildIncomeReportData(context, [{}]);
    expect(sparse.recurring).toMatchObject({ total: 0, three_month_avg_monthly: null, income_streams: [] });
    expect(sparse.criteria_rule_results?.[0]?.result).toBe('failed');
  });

  it('keeps a household report near the size the design measured (tens of KB, not MB)', () => {
    const size = JSON.stringify(household(11, ['finished', 'finished', 'finished', 'finished'])).length;
    expect(size).toBeGreaterThan(10_000);
    expect(size).toBeLessThan(250_000);
  });
});
