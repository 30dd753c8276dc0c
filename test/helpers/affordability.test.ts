/** affordability() on hand-built reports: every figure against arithmetic written out here. */
import { describe, expect, it } from 'vitest';
import {
  type AffordabilityReason,
  affordability,
  type IncomeReportData,
  type IncomeReportDetail,
  type OtherReportDetail,
} from '../../src/index.js';

const GROUP = '4516efb4-82ed-43cd-a55a-ba93d4914562';

function report(data: IncomeReportData): IncomeReportDetail {
  return {
    report_id: '2d376488-fc60-4193-bac2-1023764b7842',
    report_type: 'income',
    applicant_group_id: GROUP,
    pdf_url: 'https://files.example.com/r.pdf',
    data,
  };
}

const codes = (reasons: AffordabilityReason[]) => reasons.map((r) => r.code);

/** The worked example of docs/household-reports.md, figure for figure. */
const readmeReport = report({
  reports: [
    {
      verification_id: 'a1111111-1111-4111-8111-111111111111',
      identity: { full_name: 'Ada Lovelace', email: 'ada@example.com' },
      reason_completed: 'finished',
      recurring: { three_month_avg_monthly: 5200.4 },
    },
    {
      verification_id: 'b2222222-2222-4222-8222-222222222222',
      identity: { full_name: 'Charles Babbage', email: 'charles@example.com' },
      reason_completed: 'finished',
      recurring: { three_month_avg_monthly: 2650 },
    },
  ],
  recurring: { three_month_avg_monthly: 7850.4 },
  criteria_rule_results: [
    { result: 'passed', multiplier_threshold: 3, criteria_used: 'three_month_avg_monthly' },
  ],
  property_monthly_rent_cents: 240000,
  created_at: '2026-01-15T12:00:00.000Z',
});

/** The day after the worked example's report was created (2026-01-15): well within its 14 days. */
const NEXT_DAY = Date.parse('2026-01-16T12:00:00.000Z');

describe('affordability', () => {
  it('computes the documented worked example', () => {
    const result = affordability(readmeReport, { now: NEXT_DAY });
    // $7,850.40 a month is 785040 cents; the rent is 240000 cents ($2,400).
    expect(result.householdMonthlyIncomeCents).toBe(785040);
    expect(result.rentCents).toBe(240000);
    // 785040 / 240000 = 3.271
    expect(result.ratio).toBeCloseTo(3.271, 10);
    expect(result.threshold).toBe(3);
    expect(result.window).toBe('three_month_avg_monthly');
    expect(result.sources).toEqual({
      rent: 'report',
      threshold: 'report',
      window: 'report',
      householdIncome: 'report',
    });
    expect(result.passed).toBe(true);
    expect(result.reasons).toEqual([]);
    // $5,200.40 and $2,650.00; together they make the household's $7,850.40.
    expect(result.applicants).toEqual([
      {
        verificationId: 'a1111111-1111-4111-8111-111111111111',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        reasonCompleted: 'finished',
        monthlyIncomeCents: 520040,
      },
      {
        verificationId: 'b2222222-2222-4222-8222-222222222222',
        name: 'Charles Babbage',
        email: 'charles@example.com',
        reasonCompleted: 'finished',
        monthlyIncomeCents: 265000,
      },
    ]);
    // A rent of $3,000: 785040 / 300000 = 2.6168, under 3.
    expect(affordability(readmeReport, { rentCents: 300000, now: NEXT_DAY }).reasons).toEqual([
      {
        code: 'below_threshold',
        ratio: 2.6168,
        threshold: 3,
        message: 'Monthly income of $7850.40 is 2.62x the rent of $3000.00; 3x is required.',
      },
    ]);
  });

  it("takes the window and threshold the report's criteria rule names", () => {
    const result = affordability(
      report({
        recurring: { three_month_avg_monthly: 9999, six_month_avg_monthly: 6543.21 },
        criteria_rule_results: [
          { result: 'passed', multiplier_threshold: 3, criteria_used: 'six_month_avg_monthly' },
        ],
        property_monthly_rent_cents: 210000,
      }),
    );
    // six months: 654321 cents; 654321 / 210000 = 3.11581, at least 3.
    expect(result.householdMonthlyIncomeCents).toBe(654321);
    expect(result.ratio).toBeCloseTo(654321 / 210000, 12);
    expect(result.window).toBe('six_month_avg_monthly');
    expect(result.threshold).toBe(3);
    expect(result.passed).toBe(true);
  });

  it('without a criteria rule uses 2.5 and the three-month average; exactly 2.5x passes', () => {
    const result = affordability(
      report({
        recurring: { three_month_avg_monthly: 5000, six_month_avg_monthly: 1 },
        property_monthly_rent_cents: 200000,
      }),
    );
    // 500000 / 200000 = 2.5, compared in integers, so no float doubt.
    expect(result.householdMonthlyIncomeCents).toBe(500000);
    expect(result.ratio).toBe(2.5);
    expect(result.threshold).toBe(2.5);
    expect(result.window).toBe('three_month_avg_monthly');
    expect(result.sources).toEqual({
      rent: 'report',
      threshold: 'default',
      window: 'default',
      householdIncome: 'report',
    });
    expect(result.passed).toBe(true);
  });

  it('fails below the threshold with the ratio and threshold in the reason', () => {
    const result = affordability(
      report({ recurring: { three_month_avg_monthly: 4000 }, property_monthly_rent_cents: 200000 }),
    );
    // 400000 / 200000 = 2, under 2.5.
    expect(result.passed).toBe(false);
    expect(result.reasons).toEqual([
      {
        code: 'below_threshold',
        ratio: 2,
        threshold: 2.5,
        message: 'Monthly income of $4000.00 is 2.00x the rent of $2000.00; 2.5x is required.',
      },
    ]);
  });

  it('treats a null figure as unknown, never as zero', () => {
    const result = affordability(
      report({
        reports: [
          {
            identity: { full_name: 'Known Income' },
            reason_completed: 'finished',
            recurring: { three_month_avg_monthly: 3000 },
          },
          {
            identity: { full_name: 'No Bank' },
            reason_completed: 'no_bank',
            recurring: { three_month_avg_monthly: null },
          },
        ],
        recurring: { three_month_avg_monthly: null },
        property_monthly_rent_cents: 100000,
      }),
    );
    expect(result.householdMonthlyIncomeCents).toBeNull();
    expect(result.ratio).toBeNull();
    expect(result.applicants.map((a) => a.monthlyIncomeCents)).toEqual([300000, null]);
    expect(result.passed).toBe(false);
    expect(codes(result.reasons)).toEqual(['income_unknown', 'applicant_income_unknown']);
    const unknown = result.reasons[1];
    expect(unknown?.code === 'applicant_income_unknown' && unknown.applicant.name).toBe('No Bank');
  });

  it('keeps a known zero (no_income) as zero', () => {
    const result = affordability(
      report({
        reports: [{ reason_completed: 'no_income', recurring: { three_month_avg_monthly: 0 } }],
        recurring: { three_month_avg_monthly: 0 },
        property_monthly_rent_cents: 100000,
      }),
    );
    expect(result.householdMonthlyIncomeCents).toBe(0);
    expect(result.ratio).toBe(0);
    expect(codes(result.reasons)).toEqual(['below_threshold']);
  });

  it("a null household figure is unknown even when every applicant's is known: no sum unless asked, and then named", () => {
    const data: IncomeReportData = {
      recurring: { three_month_avg_monthly: null },
      reports: [
        { recurring: { three_month_avg_monthly: 1234.56 } },
        { recurring: { three_month_avg_monthly: 2000.01 } },
        { recurring: { three_month_avg_monthly: 0.43 } },
      ],
      property_monthly_rent_cents: 130000,
    };
    const unknown = affordability(report(data));
    expect(unknown.householdMonthlyIncomeCents).toBeNull();
    expect(unknown.ratio).toBeNull();
    expect(unknown.passed).toBe(false);
    expect(codes(unknown.reasons)).toEqual(['income_unknown']);
    expect(unknown.sources.householdIncome).toBe('report');
    // With the documented fallback: 123456 + 200001 + 43 = 323500 cents; 323500 / 130000 = 2.488..., under 2.5.
    const summed = affordability(report(data), { householdIncome: 'sum-of-applicants' });
    expect(summed.householdMonthlyIncomeCents).toBe(323500);
    expect(summed.ratio).toBeCloseTo(323500 / 130000, 12);
    expect(codes(summed.reasons)).toEqual(['below_threshold']);
    expect(summed.sources.householdIncome).toBe('sum-of-applicants');
    // The report's own figure, when it has one, wins over the sum: 500000 / 130000 = 3.846..., passes.
    const own = affordability(report({ ...data, recurring: { three_month_avg_monthly: 5000 } }), {
      householdIncome: 'sum-of-applicants',
    });
    expect(own.householdMonthlyIncomeCents).toBe(500000);
    expect(own.passed).toBe(true);
    expect(own.sources.householdIncome).toBe('report');
    // The fallback needs every applicant's figure: one unknown leaves the household unknown.
    const partial = affordability(
      report({
        ...data,
        reports: [...(data.reports ?? []), { recurring: { three_month_avg_monthly: null } }],
      }),
      { householdIncome: 'sum-of-applicants' },
    );
    expect(partial.householdMonthlyIncomeCents).toBeNull();
    expect(codes(partial.reasons)).toEqual(['income_unknown', 'applicant_income_unknown']);
    expect(() => affordability(report(data), { householdIncome: 'sum' as 'report' })).toThrow(
      /householdIncome must be 'report' or 'sum-of-applicants'/,
    );
  });

  it('an unknown applicant is a reason only when the household falls short', () => {
    const data: IncomeReportData = {
      reports: [
        { recurring: { three_month_avg_monthly: 9000 } },
        { identity: { email: 'x@example.com' }, recurring: null },
      ],
      recurring: { three_month_avg_monthly: 9000 },
      property_monthly_rent_cents: 300000,
    };
    expect(affordability(report(data)).passed).toBe(true);
    // With a rent of $4,000: 900000 / 400000 = 2.25.
    const short = affordability(report(data), { rentCents: 400000 });
    expect(short.sources.rent).toBe('option');
    expect(codes(short.reasons)).toEqual(['below_threshold', 'applicant_income_unknown']);
  });

  it('adds non-recurring income on request, and an unknown part makes the whole unknown', () => {
    const data: IncomeReportData = {
      recurring: { three_month_avg_monthly: 4000 },
      non_recurring: { three_month_avg_monthly: 1000.5 },
      property_monthly_rent_cents: 200000,
    };
    // 400000 + 100050 = 500050 cents: 2.50025x.
    const all = affordability(report(data), { income: 'all' });
    expect(all.householdMonthlyIncomeCents).toBe(500050);
    expect(all.income).toBe('all');
    expect(all.passed).toBe(true);
    expect(affordability(report(data)).householdMonthlyIncomeCents).toBe(400000);
    const partial = affordability(report({ ...data, non_recurring: { three_month_avg_monthly: null } }), {
      income: 'all',
    });
    expect(partial.householdMonthlyIncomeCents).toBeNull();
    expect(codes(partial.reasons)).toEqual(['income_unknown']);
    // Unknown recurring income with known non-recurring income is unknown too, not the non-recurring part.
    const noRecurring = affordability(report({ ...data, recurring: { three_month_avg_monthly: null } }), {
      income: 'all',
    });
    expect(noRecurring.householdMonthlyIncomeCents).toBeNull();
    expect(noRecurring.passed).toBe(false);
  });

  it('reads report money as cents when told', () => {
    const result = affordability(
      report({ recurring: { three_month_avg_monthly: 600000 }, property_monthly_rent_cents: 200000 }),
      { reportMoneyUnit: 'cents' },
    );
    expect(result.householdMonthlyIncomeCents).toBe(600000);
    expect(result.ratio).toBe(3);
  });

  it('options override the window, threshold and rent', () => {
    const result = affordability(readmeReport, {
      now: NEXT_DAY,
      window: 'three_month_avg_monthly',
      threshold: 3.5,
      rentCents: 200000,
    });
    // 785040 / 200000 = 3.9252, at least 3.5.
    expect(result.ratio).toBeCloseTo(3.9252, 10);
    expect(result.sources).toEqual({
      rent: 'option',
      threshold: 'option',
      window: 'option',
      householdIncome: 'report',
    });
    expect(result.passed).toBe(true);
    const twelve = affordability(readmeReport, { window: 'twelve_month_avg_monthly' });
    expect(twelve.householdMonthlyIncomeCents).toBeNull();
    expect(codes(twelve.reasons)).toContain('income_unknown');
  });

  it('checks the age of a report with no now given: the current time is the default', () => {
    const created = Date.now() - 20 * 24 * 60 * 60 * 1000;
    const old = {
      ...readmeReport,
      data: { ...readmeReport.data, created_at: new Date(created).toISOString() },
    };
    // 20 days old, checked against the current time: expired.
    expect(codes(affordability(old).reasons)).toEqual(['report_expired']);
    // Created a minute ago: not expired.
    const fresh = {
      ...readmeReport,
      data: { ...readmeReport.data, created_at: new Date(Date.now() - 60_000).toISOString() },
    };
    expect(affordability(fresh).passed).toBe(true);
  });

  it.each([
    ['a Date', (ms: number) => new Date(ms)],
    ['epoch milliseconds', (ms: number) => ms],
    ['a clock', (ms: number) => ({ now: () => ms })],
    ['a function', (ms: number) => () => ms],
  ])('takes now as %s', (_form, nowAt) => {
    // created 2026-01-15T12:00Z; it expires 14 days later, at 2026-01-29T12:00Z.
    const deadline = Date.parse('2026-01-29T12:00:00.000Z');
    expect(codes(affordability(readmeReport, { now: nowAt(deadline) }).reasons)).toEqual(['report_expired']);
    expect(affordability(readmeReport, { now: nowAt(deadline - 1) }).passed).toBe(true);
  });

  it('refuses a now that is no time, naming the option', () => {
    expect(() => affordability(readmeReport, { now: 'yesterday' as unknown as number })).toThrow(
      /affordability: now must be a Date, epoch milliseconds, a clock/,
    );
    expect(() => affordability(readmeReport, { now: new Date(Number.NaN) })).toThrow(TypeError);
  });

  it('fails an expired report, told directly or by its age', () => {
    expect(codes(affordability(readmeReport, { expired: true }).reasons)).toEqual(['report_expired']);
    // created 2026-01-15T12:00Z; 14 days later it has expired, a minute before it has not.
    const deadline = Date.parse('2026-01-29T12:00:00.000Z');
    expect(affordability(readmeReport, { now: deadline }).passed).toBe(false);
    expect(affordability(readmeReport, { now: new Date(deadline - 60_000) }).passed).toBe(true);
  });

  it('says when the rent is unknown', () => {
    const result = affordability(report({ recurring: { three_month_avg_monthly: 4000 } }));
    expect(result.rentCents).toBeNull();
    expect(result.ratio).toBeNull();
    expect(codes(result.reasons)).toEqual(['rent_unknown']);
  });

  it('a report rent of 0 is no rent: the household does not pass on it', () => {
    const result = affordability(
      report({ recurring: { three_month_avg_monthly: 4000 }, property_monthly_rent_cents: 0 }),
    );
    expect(result.rentCents).toBeNull();
    expect(result.ratio).toBeNull();
    expect(result.sources.rent).toBe('default');
    expect(result.passed).toBe(false);
    expect(codes(result.reasons)).toEqual(['rent_unknown']);
  });

  it("a report's threshold of 0 is no threshold: the default 2.5 applies, and 2x the rent does not pass", () => {
    const result = affordability(
      report({
        recurring: { three_month_avg_monthly: 4000 },
        criteria_rule_results: [{ multiplier_threshold: 0, criteria_used: 'three_month_avg_monthly' }],
        property_monthly_rent_cents: 200000,
      }),
    );
    expect(result.threshold).toBe(2.5);
    expect(result.sources).toEqual({
      rent: 'report',
      threshold: 'default',
      window: 'report',
      householdIncome: 'report',
    });
    expect(result.passed).toBe(false);
    expect(codes(result.reasons)).toEqual(['below_threshold']);
  });

  it('a first criteria rule without a multiplier is not the rent rule: the next one sets the threshold', () => {
    // 560000 / 200000 = 2.8: enough for the default 2.5, not for the report's 3.
    const result = affordability(
      report({
        recurring: { three_month_avg_monthly: 5600, six_month_avg_monthly: 1000 },
        criteria_rule_results: [
          { result: 'passed', criteria_used: 'identity_match', criteria_from_rule: 'identity' },
          { result: 'failed', multiplier_threshold: 3, criteria_from_rule: 'income' },
        ],
        property_monthly_rent_cents: 200000,
      }),
    );
    expect(result.threshold).toBe(3);
    expect(result.sources.threshold).toBe('report');
    expect(result.window).toBe('three_month_avg_monthly');
    expect(result.passed).toBe(false);
    expect(codes(result.reasons)).toEqual(['below_threshold']);
  });

  it('a figure that is not a finite number (hand-built data) is unknown, never a figure', () => {
    const result = affordability(
      report({ recurring: { three_month_avg_monthly: Number.NaN }, property_monthly_rent_cents: 100000 }),
    );
    expect(result.householdMonthlyIncomeCents).toBeNull();
    expect(codes(result.reasons)).toEqual(['income_unknown']);
  });

  it('without a rent there is no ratio, so no below_threshold reason, whatever the income', () => {
    const result = affordability(
      report({
        reports: [{ recurring: { three_month_avg_monthly: -50 } }, { recurring: null }],
        recurring: { three_month_avg_monthly: -50 },
      }),
    );
    expect(result.householdMonthlyIncomeCents).toBe(-5000);
    expect(result.passed).toBe(false);
    expect(codes(result.reasons)).toEqual(['rent_unknown']);
  });

  it('refuses a report that is not an income report', () => {
    const identity: OtherReportDetail = {
      report_id: '2d376488-fc60-4193-bac2-1023764b7842',
      report_type: 'identity',
      applicant_group_id: GROUP,
      pdf_url: 'https://files.example.com/r.pdf',
      data: {},
    };
    const result = affordability(identity, { rentCents: 100000 });
    expect(codes(result.reasons)).toEqual(['not_income_report']);
    expect(result.passed).toBe(false);
  });

  it.each<[Record<string, unknown>, RegExp]>([
    [{ rentCents: 0 }, /rentCents/],
    [{ rentCents: 12.5 }, /rentCents/],
    [{ threshold: -1 }, /threshold/],
    [{ threshold: 0 }, /threshold/],
    [{ window: 'three_months' }, /window/],
  ])('rejects the bad option %o', (options, message) => {
    // As plain JavaScript could pass them: the types would refuse the unknown window.
    expect(() => affordability(readmeReport, options as never)).toThrow(message);
  });
});
