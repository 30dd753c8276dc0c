/**
 * The response fast path (src/core/compiled.ts) must agree with zod on every body: the
 * equivalence harness compares them on fixtures, generated bodies and random mutations, with
 * and without code generation (zod's `jitless`), in this process: fixed seeds, plus a fresh one
 * each run to widen the search over time.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runEquivalence } from '../../bench/fast-check-equivalence.js';
import { safeParseFast } from '../../src/core/compiled.js';
import {
  applicantGroupReportsSchema,
  applicantGroupSchema,
  knownWebhookEventSchema,
  reportDetailSchema,
} from '../../src/index.js';
import { loadFixture, withValue } from '../fixtures/load.js';

afterEach(() => {
  z.config({ jitless: false });
});

describe('response fast path', () => {
  it('accepts a valid body and returns it unchanged, equal to what zod returns', () => {
    const body = loadFixture('income-report');
    const fast = safeParseFast(reportDetailSchema, body);
    expect(fast.success).toBe(true);
    expect(fast.data).toEqual(reportDetailSchema.parse(body));
  });

  it('leaves a bad body to zod, with zod issues', () => {
    const bad = withValue(loadFixture('applicant-group'), ['monthly_rent_cents'], 'lots');
    const fast = safeParseFast(applicantGroupSchema, bad);
    expect(fast.success).toBe(false);
    expect(fast.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['monthly_rent_cents']);
  });

  it('leaves a body with an own __proto__ key to zod and returns what zod returns', () => {
    const body: unknown = JSON.parse(
      '{"household_reports":[],"individual_reports":[{"__proto__":{"polluted":true},"id":"r","report_name":"income","is_expired":false,"created_at":"2024-06-05T16:00:00Z","path":"/reports/r"}],"__proto__":{"polluted":true}}',
    );
    const fast = safeParseFast(applicantGroupReportsSchema, body);
    const slow = applicantGroupReportsSchema.safeParse(body);
    expect(fast.success).toBe(true);
    expect(fast.data).not.toBe(body);
    expect(fast.data).toEqual(slow.data);
    expect(Object.getPrototypeOf(fast.data)).toBe(Object.prototype);
    expect(Object.hasOwn(fast.data ?? {}, '__proto__')).toBe(Object.hasOwn(slow.data ?? {}, '__proto__'));
  });

  it('a node zod judges (a discriminated union) also leaves own __proto__ keys to zod', () => {
    const body: unknown = JSON.parse(
      '{"code":"REPORT_READY","applicant_group_id":"g","report_id":"r","report_type":"income","__proto__":{"x":1}}',
    );
    const fast = safeParseFast(knownWebhookEventSchema, body);
    expect(fast.success).toBe(true);
    expect(fast.data).toEqual(knownWebhookEventSchema.parse(body));
    expect(Object.hasOwn(fast.data ?? {}, '__proto__')).toBe(false);
  });

  it('agrees with zod on null in every optional field of an income report', () => {
    const body = withValue(
      withValue(loadFixture('income-report'), ['data', 'recurring', 'total'], null),
      ['data', 'reports', 0, 'income_explanation'],
      null,
    );
    const fast = safeParseFast(reportDetailSchema, body);
    expect(fast.success).toBe(true);
    expect(fast.data).toBe(body);
    expect(fast.data).toEqual(reportDetailSchema.parse(body));
  });

  const randomSeed = Math.floor(Math.random() * 1e9);
  it.each([
    [1, false],
    [2, true],
    [randomSeed, false],
  ])('agrees with zod on fixtures and random mutations, seed %i, jitless %s', (seed, jitless) => {
    z.config({ jitless });
    const result = runEquivalence(seed, 25);
    expect(result.checked).toBeGreaterThan(250);
    expect(result.mismatches, `seed ${seed}`).toEqual([]);
  });
});
