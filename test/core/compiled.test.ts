/**
 * The response fast path (src/core/call/compiled.ts) must agree with zod on every body: the
 * equivalence harness compares them on fixtures, generated bodies and random mutations, with
 * and without code generation (zod's `jitless`), in this process: fixed seeds, plus a fresh one
 * each run to widen the search over time.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runEquivalence } from '../../bench/fast-check-equivalence.js';
import { safeParseFast } from '../../src/core/call/compiled.js';
import { formatPath } from '../../src/core/errors.js';
import {
  applicantGroupReportsSchema,
  applicantGroupSchema,
  knownWebhookEventSchema,
  reportDetailSchema,
} from '../../src/schemas/index.js';
import { incomeReportDetailSchema } from '../../src/schemas/reports.js';
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
    // The optional fields come from the schema, not a list here: every optional key of every
    // object the fixture reaches (reportDetailSchema dispatches an income report to this one).
    // One body nulls every optional leaf, keeping the optional objects and arrays that hold
    // them; then one body per such container nulls it too.
    const { body, leaves, containers } = nullOptionals(
      incomeReportDetailSchema,
      loadFixture('income-report'),
    );
    const bodies = [body, ...containers.map((path) => withValue(body, path, null))];
    const fields = new Set(
      [...leaves, ...containers].map((path) => formatPath(path).replace(/\[\d+\]/g, '[]')),
    );
    // Fields at every level: the report, its data, each verification report, their summaries.
    for (const field of [
      'data.recurring',
      'data.recurring.total',
      'data.reports[].income_explanation',
      'data.reports[].bank_connections',
    ])
      expect(fields).toContain(field);
    expect(fields.size).toBeGreaterThan(100);
    for (const nulled of bodies) {
      const fast = safeParseFast(reportDetailSchema, nulled);
      const slow = reportDetailSchema.safeParse(nulled);
      expect(fast.success).toBe(true);
      expect(slow.success).toBe(true);
      expect(fast.data).toBe(nulled);
      expect(fast.data).toEqual(slow.data);
    }
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

/** Unwraps optional and nullable layers. */
function bare(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable)
    inner = inner.unwrap() as z.ZodType;
  return inner;
}

type Path = Array<string | number>;

/**
 * A copy of `value` with every optional field of `schema` that holds no object or array set to
 * null (`leaves`, absent keys included), and the paths of the optional objects and arrays kept
 * (`containers`). A union follows the member that accepts the value.
 */
function nullOptionals(
  schema: z.ZodType,
  value: unknown,
): { body: unknown; leaves: Path[]; containers: Path[] } {
  const leaves: Path[] = [];
  const containers: Path[] = [];
  const walk = (node: z.ZodType, current: unknown, path: Path): unknown => {
    const inner = bare(node);
    if (inner instanceof z.ZodUnion) {
      const member = (inner.options as z.ZodType[]).find((option) => option.safeParse(current).success);
      return member === undefined ? current : walk(member, current, path);
    }
    if (inner instanceof z.ZodArray && Array.isArray(current))
      return current.map((item, index) => walk(inner.element as z.ZodType, item, [...path, index]));
    if (!(inner instanceof z.ZodObject) || typeof current !== 'object' || current === null) return current;
    const copy: Record<string, unknown> = { ...current };
    for (const [key, field] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
      const optional = field.safeParse(undefined).success;
      const container = typeof copy[key] === 'object' && copy[key] !== null;
      if (optional && container) containers.push([...path, key]);
      if (optional && !container) {
        copy[key] = null;
        leaves.push([...path, key]);
      } else if (key in copy) {
        copy[key] = walk(field, copy[key], [...path, key]);
      }
    }
    return copy;
  };
  return { body: walk(schema, value, []), leaves, containers };
}
