/**
 * Evidence for src/core/call/compiled.ts: `safeParseFast(schema, body)` must give what
 * `schema.safeParse(body)` gives (same verdict, same issues, equal data), and its fast path must
 * never accept what zod rejects. Compares the two on the response fixtures, the benchmark's
 * generated bodies, thousands of random single-field mutations of them (wrong types, deletions,
 * added keys), and synthetic schemas covering every node kind the fast path knows.
 *
 *   npx tsx bench/fast-check-equivalence.ts [--seed 42] [--mutations 1500] [--jitless]
 *
 * Exits non-zero on any mismatch. test/core/compiled.test.ts runs {@link runEquivalence}
 * in-process with fixed seeds and one random seed.
 */
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { fastCheck, safeParseFast } from '../src/core/call/compiled.js';
import * as S from '../src/schemas/index.js';
import { type FixtureName, loadFixture } from '../test/fixtures/load.js';
import { bulkListBody, incomeReportBody, seeded } from './fixtures.js';

const fixture = (name: FixtureName) => loadFixture(name);
const bodies: Array<[string, z.ZodType, unknown]> = [
  ['group list', S.applicantGroupListResponseSchema, fixture('applicant-group-list')],
  ['group list, 25 generated', S.applicantGroupListResponseSchema, JSON.parse(bulkListBody(7))],
  ['group', S.applicantGroupSchema, fixture('applicant-group')],
  ['reports of a group', S.applicantGroupReportsSchema, fixture('reports-list')],
  ['income report detail', S.reportDetailSchema, fixture('income-report')],
  ['income report detail, typed', S.incomeReportDetailSchema, fixture('income-report')],
  ['income report detail, 60 KB generated', S.reportDetailSchema, JSON.parse(incomeReportBody())],
  ['identity report detail', S.reportDetailSchema, fixture('identity-report')],
  ['identity report detail, other', S.otherReportDetailSchema, fixture('identity-report')],
  ['screening group', S.screeningGroupSchema, fixture('screening-group')],
  ['screening group list', S.screeningGroupListResponseSchema, fixture('screening-group-list')],
];

/** Values a mutation puts in place of a field. */
export const WRONG: unknown[] = [
  null,
  'x',
  '',
  1.5,
  -1,
  0,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  [],
  [1],
  {},
  { a: 1 },
  'not_a_status',
  'income',
  undefined,
];

type Path = Array<string | number>;

/** The path of every node of `value`, the root first. */
export function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      paths(child, [...prefix, Array.isArray(value) ? Number(key) : key], out);
    }
  }
  return out;
}

/**
 * A copy of `value` with one field replaced (or deleted), sometimes with an unknown key added,
 * sometimes with an own `__proto__` key (as `JSON.parse` makes one).
 */
export function mutate(value: unknown, path: Path, replacement: unknown, rng: () => number): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(value);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (replacement === undefined && rng() < 0.5) delete node[last];
  else node[last] = replacement;
  // Unknown keys on objects (never on arrays: JSON cannot put named keys on an array).
  if (rng() < 0.2 && !Array.isArray(node)) node.field_added_later = { nested: [1, 'two'] };
  if (rng() < 0.05 && typeof node === 'object' && node !== null && !Array.isArray(node)) {
    Object.defineProperty(node, '__proto__', {
      value: { polluted: true },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** What one run found. */
export interface EquivalenceResult {
  checked: number;
  rejected: number;
  fastAccepted: number;
  mismatches: string[];
}

/** Compares `safeParseFast` with zod's `safeParse` on every body, with the seed given. */
export function runEquivalence(seed: number, mutations: number): EquivalenceResult {
  const rng = seeded(seed);
  let checked = 0;
  let rejected = 0;
  let fastAccepted = 0;
  const mismatches: string[] = [];

  function compare(name: string, schema: z.ZodType, body: unknown): void {
    const expected = schema.safeParse(structuredClone(body));
    const actual = safeParseFast(schema, structuredClone(body));
    const fast = fastCheck(schema)?.(structuredClone(body)) === true;
    checked++;
    if (!expected.success) rejected++;
    if (fast) fastAccepted++;
    const same =
      expected.success === actual.success &&
      (expected.success
        ? isDeepStrictEqual(expected.data, actual.data)
        : isDeepStrictEqual(expected.error.issues, actual.error?.issues));
    if (!same || (fast && !expected.success)) {
      mismatches.push(
        `${name}: zod ${expected.success}, fast path ${actual.success} (${JSON.stringify(body)?.slice(0, 160)})`,
      );
    }
  }

  for (const [name, schema, body] of bodies) {
    const all = paths(body);
    compare(name, schema, body);
    for (let i = 0; i < mutations; i++) {
      const path = all[Math.floor(rng() * all.length)] ?? [];
      compare(name, schema, mutate(body, path, WRONG[Math.floor(rng() * WRONG.length)], rng));
    }
  }

  const synthetic: Array<[string, z.ZodType, unknown[]]> = [
    [
      'exactOptional',
      z.looseObject({ a: z.string().exactOptional() }),
      [{}, { a: undefined }, { a: 'x' }, { a: 1 }],
    ],
    ['optional', z.looseObject({ a: z.string().optional() }), [{}, { a: undefined }, { a: 'x' }, { a: 1 }]],
    ['unknown field', z.looseObject({ a: z.unknown() }), [{}, { a: undefined }, { a: 1 }]],
    ['strict object', z.strictObject({ a: z.string() }), [{ a: 'x' }, { a: 'x', b: 1 }]],
    ['stripping object', z.object({ a: z.string() }), [{ a: 'x' }, { a: 'x', b: 1 }]],
    ['xor', z.xor([z.string(), z.string().min(1)]), ['', 'a', 1]],
    [
      'discriminated union',
      z.discriminatedUnion('t', [
        z.looseObject({ t: z.literal('a'), x: z.string() }),
        z.looseObject({ t: z.literal('b') }),
      ]),
      [{ t: 'a', x: 's' }, { t: 'a' }, { t: 'b', x: 1 }, { t: 'c' }],
    ],
    ['union', z.union([z.string(), z.null(), z.int()]), ['a', null, 1, 1.5, undefined]],
    ['int', z.int(), [1, 1.5, 2 ** 53, -0, Number.NaN, Number.POSITIVE_INFINITY, '1']],
    ['number', z.number(), [1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1']],
    ['int with min', z.int().min(3), [1, 3]],
    ['trim', z.looseObject({ s: z.string().trim() }), [{ s: ' x ' }]],
    ['default', z.looseObject({ s: z.string().default('d') }), [{}, { s: 'x' }]],
    ['coerce', z.coerce.number(), ['1', 1]],
    ['email', z.email(), ['a@b.co', 'nope']],
    ['record', z.record(z.string(), z.int()), [{}, { a: 1 }, { a: 1.5 }, [], Object.create(null)]],
    ['record with enum keys', z.record(z.enum(['a', 'b']), z.int()), [{ a: 1, b: 2 }, { a: 1 }]],
    ['array with min', z.array(z.int()).min(2), [[1], [1, 2]]],
    ['number literal', z.literal(3), [3, 4]],
    ['literal of two', z.literal(['a', 'b']), ['a', 'c']],
    [
      'catchall string',
      z.looseObject({ a: z.int() }).catchall(z.string()),
      [
        { a: 1, b: 'x' },
        { a: 1, b: 2 },
      ],
    ],
    ['tuple', z.tuple([z.string()]), [['a'], [1]]],
    ['date', z.date(), [new Date(0), new Date(Number.NaN), 'x']],
    ['custom, truthy', z.custom((value) => (typeof value === 'string' ? 1 : 0)), ['a', 1]],
    [
      'nullable optional',
      z.looseObject({ a: z.number().nullable().optional() }),
      [{}, { a: null }, { a: 1 }, { a: 'x' }],
    ],
    ['inherited key name', z.looseObject({ constructor: z.string().optional() }), [{}, { constructor: 'x' }]],
    ['readonly', z.looseObject({ a: z.string() }).readonly(), [{ a: 'x' }]],
    ['lazy', z.lazy(() => z.string()), ['a', 1]],
    ['transform', z.looseObject({ s: z.string().transform((v) => v.toUpperCase()) }), [{ s: 'x' }]],
    ['pipe', z.looseObject({ n: z.string().pipe(z.coerce.number()) }), [{ n: '1' }]],
    ['refine on an object', z.looseObject({ a: z.int() }).refine((v) => v.a > 0), [{ a: 1 }, { a: 0 }]],
    ['own __proto__ key', z.looseObject({ a: z.int() }), [JSON.parse('{"a":1,"__proto__":{"b":2}}')]],
    [
      'own __proto__ key in a record',
      z.record(z.string(), z.looseObject({ a: z.int() })),
      [JSON.parse('{"k":{"a":1,"__proto__":{"b":2}}}')],
    ],
  ];
  for (const [name, schema, values] of synthetic)
    for (const value of values) compare(`synthetic ${name}`, schema, value);

  return { checked, rejected, fastAccepted, mismatches };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const at = argv.indexOf(name);
    return at === -1 ? fallback : Number(argv[at + 1]);
  };
  if (argv.includes('--jitless')) z.config({ jitless: true });
  const { checked, rejected, fastAccepted, mismatches } = runEquivalence(
    option('--seed', 42),
    option('--mutations', 1_500),
  );
  process.stdout.write(
    `${checked} bodies compared (${rejected} rejected by zod, ${fastAccepted} accepted by the fast path), ${mismatches.length} mismatches\n`,
  );
  for (const line of mismatches.slice(0, 10)) process.stdout.write(`  ${line}\n`);
  if (mismatches.length > 0) process.exitCode = 1;
}
