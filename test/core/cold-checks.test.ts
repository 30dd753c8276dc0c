/**
 * The checks generated at build time for calls made before zod is loaded
 * (src/resources/cold-checks.generated.ts, scripts/cold-checks.ts): a generated check answers
 * exactly as the run-time compiled check does (itself held to zod by test/core/compiled.test.ts)
 * and accepts only what zod accepts unchanged, a page-only query is sent as the query schema
 * sends it, and the generator refuses what only zod can judge. (That the committed file is
 * current: test/docs/generated-files.test.ts.)
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mutate, paths, WRONG } from '../../bench/fast-check-equivalence.js';
import { bulkListBody, seeded } from '../../bench/fixtures.js';
import { coldChecksText } from '../../scripts/cold-checks.js';
import type { Call } from '../../src/core/call/call.js';
import { coldQuery, preparesCold } from '../../src/core/call/cold-call.js';
import { fastCheck } from '../../src/core/call/compiled.js';
import { operationCall } from '../../src/core/call/operation.js';
import { applicantGroupOperations } from '../../src/resources/applicant-groups.js';
import { applicantGroupsList } from '../../src/resources/cold-checks.generated.js';
import { applicantGroupListParamsSchema, applicantGroupListResponseSchema } from '../../src/schemas/index.js';
import { openEnum } from '../../src/schemas/lazy/common.js';
import { loadFixture } from '../fixtures/load.js';

describe('the cold checks generator', () => {
  it('refuses a schema only zod can judge, naming where', () => {
    const generate = (response: z.ZodType) => () =>
      coldChecksText([{ exportName: 'thing', doc: 'A thing.', response }]);
    expect(generate(z.looseObject({ a: z.looseObject({ email: z.email() }) }))).toThrow(
      'thing.a.email: string format email',
    );
    expect(generate(z.object({ a: z.string() }))).toThrow('thing: an object that is not loose');
    expect(generate(z.looseObject({ list: z.array(z.int()).min(1) }))).toThrow(
      'thing.list: array with checks',
    );
    expect(generate(z.looseObject({ n: z.string().transform(Number) }))).toThrow('thing.n: pipe');
    expect(generate(z.looseObject({ s: z.custom((value) => value === 1) }))).toThrow('thing.s: custom check');
    expect(generate(z.looseObject({ s: z.string().trim() }))).toThrow('thing.s: string with checks');
    expect(generate(z.looseObject({ s: openEnum(['a']) }))).not.toThrow();
    const pageAsNumber = z.looseObject({ page: z.int().optional() });
    expect(() =>
      coldChecksText([
        { exportName: 'thing', doc: 'A thing.', response: z.looseObject({}), pageQuery: pageAsNumber },
      ]),
    ).toThrow('thing: the query schema does not send a page-only query as { page: "N" }');
  });
});

describe('the generated response check of applicantGroups.list', () => {
  const check = applicantGroupsList.response;
  const compiled = fastCheck(applicantGroupListResponseSchema);

  it('answers as the run-time compiled check does, and yes only where zod returns the body unchanged', () => {
    const rng = seeded(11);
    const bodies = [loadFixture('applicant-group-list'), JSON.parse(bulkListBody(3))];
    let accepted = 0;
    let refused = 0;
    for (const body of bodies) {
      const all = paths(body);
      const variants = [body];
      for (let i = 0; i < 150; i++) {
        const path = all[Math.floor(rng() * all.length)] ?? [];
        variants.push(mutate(body, path, WRONG[Math.floor(rng() * WRONG.length)], rng));
      }
      for (const variant of variants) {
        const cold = check(structuredClone(variant));
        expect(cold, JSON.stringify(variant)?.slice(0, 200)).toBe(compiled?.(structuredClone(variant)));
        const zod = applicantGroupListResponseSchema.safeParse(structuredClone(variant));
        if (cold) {
          accepted++;
          expect(zod.success && isDeepStrictEqual(zod.data, variant)).toBe(true);
        } else {
          refused++;
        }
      }
    }
    expect(accepted).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(150);
  });

  it('leaves a body with an own __proto__ key to zod', () => {
    const body = JSON.parse(`{"applicant_groups":[],"__proto__":{"polluted":true}}`);
    expect(check(body)).toBe(false);
    expect(applicantGroupListResponseSchema.safeParse(body).success).toBe(true);
  });
});

describe('a page-only query sent without zod', () => {
  const sentBySchema = (query: unknown) => {
    const result = applicantGroupListParamsSchema.safeParse(query);
    return result.success ? result.data : undefined;
  };
  const queries: unknown[] = [
    undefined,
    {},
    { page: undefined },
    ...[...WRONG, 1, 2, 99, Number.MAX_SAFE_INTEGER, 3.0, '2', -0].map((page) => ({ page })),
    { page: 2, search: 'smith' },
    { search: 'smith' },
    { statuses: ['completed'] },
    Object.assign(Object.create({ inherited: true }), { page: 2 }),
    Object.assign(Object.create(null), { page: 3 }),
    [],
    null,
    'page=2',
    2,
  ];

  it('sends only what the query schema sends, and leaves the rest to it', () => {
    let covered = 0;
    for (const query of queries) {
      const cold = coldQuery(operationCall(applicantGroupOperations.list, { query }));
      if (cold === undefined) continue;
      covered++;
      expect(cold, JSON.stringify(query)).toEqual(sentBySchema(query ?? {}));
    }
    // undefined, {}, { page: undefined } twice, the five whole pages from 1, the null-prototype one.
    expect(covered).toBe(10);
  });

  it('covers the pages a walk asks for, and nothing with a filter', () => {
    const sent = (query: unknown) => coldQuery(operationCall(applicantGroupOperations.list, { query }));
    expect(sent({ page: 4 })).toEqual({ page: '4' });
    expect(sent(undefined)).toEqual({});
    expect(sent({ page: 0 })).toBeUndefined();
    expect(sent({ page: 2, search: 'smith' })).toBeUndefined();
    expect(sent({ search: 'smith' })).toBeUndefined();
  });

  it('is only for an operation whose generator verified its query schema', () => {
    // The token exchange's cold checks cover its response alone.
    const call: Call<z.ZodType> = {
      method: 'POST',
      path: '/api/v1/tenants/auth',
      query: { page: 2 },
      schema: z.unknown(),
      cold: { response: () => true },
    };
    expect(coldQuery(call)).toBeUndefined();
    expect(coldQuery({ ...call, cold: { response: () => true, pageQuery: true } })).toEqual({ page: '2' });
  });
});

describe('which calls are prepared without zod', () => {
  const list = (query: unknown) => operationCall(applicantGroupOperations.list, { query });

  it('a call with cold checks and no query, or a query they cover', () => {
    expect(preparesCold(list(undefined))).toBe(true);
    expect(preparesCold(list({ page: 3 }))).toBe(true);
  });

  it('not a query they do not cover, nor a call without cold checks', () => {
    expect(preparesCold(list({ search: 'smith' }))).toBe(false);
    expect(preparesCold(list({ page: 0 }))).toBe(false);
    expect(preparesCold({ ...list(undefined), cold: undefined })).toBe(false);
    const reports = operationCall(applicantGroupOperations.listReports, { pathParams: { groupId: 'g' } });
    expect(preparesCold(reports)).toBe(false);
  });
});
