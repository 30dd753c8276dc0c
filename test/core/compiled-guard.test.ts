/**
 * The guard under src/core/call/compiled.ts (issue: "compiled.ts goes, or earns its place behind a
 * guard"). The fast path reads zod's internals (`_zod.def`, traits); a zod release that changes
 * them must not change what users get. Users get plain zod wherever the compiler does not
 * recognise a schema; this suite fails instead, so a zod upgrade whose internals it no longer
 * knows is noticed here, before the speed quietly goes.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fastCheck, safeParseFast } from '../../src/core/call/compiled.js';
import { OPERATIONS } from '../../src/resources/operations.js';
import { loadFixture } from '../fixtures/load.js';

describe('the compiled response checks on the installed zod', () => {
  it.each(OPERATIONS.map((operation) => [operation.name, operation] as const))(
    '%s: its response schema compiles (a zod whose internals compiled.ts does not recognise fails here)',
    (_name, operation) => {
      expect(fastCheck(operation.response)).toBeTypeOf('function');
    },
  );

  it('the compiled checks accept the fixtures exactly where zod does, returning the body itself', () => {
    const group = OPERATIONS.find((operation) => operation.name === 'applicantGroups.create');
    const report = OPERATIONS.find((operation) => operation.name === 'reports.retrieve');
    for (const [operation, fixture] of [
      [group, loadFixture('applicant-group')],
      [report, loadFixture('income-report')],
    ] as const) {
      const schema = operation?.response ?? z.never();
      expect(schema.safeParse(fixture).success).toBe(true);
      expect(fastCheck(schema)?.(fixture)).toBe(true);
      const parsed = safeParseFast(schema, fixture);
      expect(parsed.success && parsed.data).toBe(fixture);
    }
  });

  it('a schema the compiler does not recognise has no compiled check: plain zod decides, with its own verdict and data', () => {
    const unknownShape = z.object({
      id: z.custom<string>((value) => typeof value === 'string' && value.startsWith('g_')),
    });
    expect(fastCheck(unknownShape)).toBeUndefined();
    const good = safeParseFast(unknownShape, { id: 'g_1' });
    expect(good).toEqual(unknownShape.safeParse({ id: 'g_1' }));
    const bad = safeParseFast(unknownShape, { id: 'x' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues).toEqual(unknownShape.safeParse({ id: 'x' }).error?.issues);
  });
});
