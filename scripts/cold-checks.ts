/**
 * The checks a cold process runs before zod is loaded, generated from the zod schemas
 * (`npm run generate` writes src/resources/cold-checks.generated.ts; `npm test` fails while it is
 * stale). The code is what src/core/call/compiled.ts generates at run time, emitted as source: one
 * function per object and array node (shared wherever the node is reused), leaves inline, and
 * `true` only where zod's parse succeeds and returns the value unchanged.
 *
 * Only the node kinds below are emitted; any other (a transform, a format, a refinement, a
 * custom check other than an open enum's) fails the generation, naming the schema path, so an
 * operation whose response needs zod to judge it cannot be given a cold check by mistake.
 */
import type { z } from 'zod';
import {
  applicantGroupListParamsSchema,
  applicantGroupListResponseSchema,
} from '../src/schemas/applicant-groups.js';
import { isOpenEnumValue } from '../src/schemas/lazy/common.js';

/** One operation's cold checks, as the generator is asked for them. */
export interface ColdOperation {
  /** The exported constant's name in the generated file. */
  exportName: string;
  /** What the constant's JSDoc says the operation is. */
  doc: string;
  /** The operation's response schema. */
  response: z.ZodType;
  /** The operation's query schema, when its page-only queries are to be sent without zod. */
  pageQuery?: z.ZodType;
}

/**
 * The operations a cold process calls first, with cold checks: the first page of applicant
 * groups (the token exchange's check is written by hand, src/core/token/token-exchange.ts).
 */
export const COLD_OPERATIONS: readonly ColdOperation[] = [
  {
    exportName: 'applicantGroupsList',
    doc: '`applicantGroups.list`: any page of `GET /api/v1/applicant_groups` without filters.',
    response: applicantGroupListResponseSchema,
    pageQuery: applicantGroupListParamsSchema,
  },
];

interface Def {
  type: string;
  check?: string;
  format?: string;
  checks?: readonly unknown[];
  [field: string]: unknown;
}

function defOf(schema: z.ZodType, at: string): Def {
  const def = (schema as unknown as { _zod?: { def?: Def } })._zod?.def;
  if (def === undefined || typeof def.type !== 'string') throw new Error(`${at}: not a zod schema`);
  return def;
}

function has(schema: z.ZodType, trait: string): boolean {
  return (schema._zod as { traits?: Set<string> }).traits?.has(trait) === true;
}

class Emitter {
  readonly functions: string[] = [];
  readonly #names = new Map<z.ZodType, string>();
  readonly #taken = new Set<string>();

  /** An expression over `x` that is true only where zod accepts `x` unchanged. */
  expr(schema: z.ZodType, x: string, at: string): string {
    const def = defOf(schema, at);
    const judged = (def.checks?.length ?? 0) > 0;
    const refuse = (why: string): never => {
      throw new Error(`${at}: ${why}: no check can be generated (zod must judge it)`);
    };
    if (judged && def.type !== 'object' && def.type !== 'array') refuse(`${def.type} with checks`);
    switch (def.type) {
      case 'string':
        if (def.check !== undefined) refuse(`string format ${def.format ?? def.check}`);
        return `typeof ${x} === 'string'`;
      case 'boolean':
        return `typeof ${x} === 'boolean'`;
      case 'null':
        return `${x} === null`;
      case 'unknown':
      case 'any':
        return 'true';
      case 'number':
        if (def.check === undefined) return `(typeof ${x} === 'number' && Number.isFinite(${x}))`;
        if (def.check === 'number_format' && def.format === 'safeint') return `Number.isSafeInteger(${x})`;
        return refuse(`number format ${def.format ?? def.check}`);
      case 'literal': {
        const values = def.values;
        const only: unknown = Array.isArray(values) && values.length === 1 ? values[0] : undefined;
        if (typeof only !== 'string' && typeof only !== 'boolean' && only !== null) refuse('literal');
        return `${x} === ${JSON.stringify(only)}`;
      }
      case 'custom':
        // Open enums (src/schemas/lazy/common.ts): any string; nothing else is known here.
        if (def.fn !== isOpenEnumValue) refuse('custom check');
        return `typeof ${x} === 'string'`;
      case 'nullable':
        return `(${x} === null || ${this.expr(def.innerType as z.ZodType, x, at)})`;
      case 'optional': {
        const inner = this.expr(def.innerType as z.ZodType, x, at);
        // z.exactOptional: a present key must hold a value of the inner type, never `undefined`.
        return has(schema, '$ZodExactOptional') ? inner : `(${x} === undefined || ${inner})`;
      }
      case 'object':
      case 'array':
        return `${this.#function(schema, def, at)}(${x})`;
      default:
        return refuse(def.type);
    }
  }

  #function(schema: z.ZodType, def: Def, at: string): string {
    const known = this.#names.get(schema);
    if (known !== undefined) return known;
    if ((def.checks?.length ?? 0) > 0) throw new Error(`${at}: ${def.type} with checks: zod must judge it`);
    const name = this.#name(at);
    this.#names.set(schema, name);
    const body = def.type === 'array' ? this.#array(def, at) : this.#object(def, at);
    this.functions.push(`/** \`${at}\` */\nfunction ${name}(v: unknown): boolean {\n${body}\n}`);
    return name;
  }

  #array(def: Def, at: string): string {
    const test = this.expr(def.element as z.ZodType, 'x', `${at}[]`);
    return [
      '  if (!Array.isArray(v)) return false;',
      '  for (let i = 0; i < v.length; i++) {',
      '    const x: unknown = v[i];',
      `    if (!(${test})) return false;`,
      '  }',
      '  return true;',
    ].join('\n');
  }

  #object(def: Def, at: string): string {
    const catchall = def.catchall as z.ZodType | undefined;
    const catchallType = catchall === undefined ? undefined : defOf(catchall, at).type;
    // z.object strips unknown keys and other catchalls judge them: only z.looseObject keeps its input.
    if (catchallType !== 'unknown' && catchallType !== 'any') {
      throw new Error(`${at}: an object that is not loose: zod must judge it`);
    }
    const shape = def.shape as Record<string, z.ZodType>;
    if (Object.hasOwn(shape, '__proto__')) throw new Error(`${at}: a field named __proto__`);
    const lines = [
      '  if (!isObject(v)) return false;',
      // An own `__proto__` key (JSON.parse makes one) is copied differently by zod: zod decides.
      "  if (Object.hasOwn(v, '__proto__')) return false;",
      '  let x: unknown;',
    ];
    for (const [key, field] of Object.entries(shape)) {
      const name = JSON.stringify(key);
      const test = this.expr(field, 'x', at === '' ? key : `${at}.${key}`);
      lines.push(`  x = v[${name}];`);
      // An absent key passes only where zod lets it: optional fields (not z.unknown(), not z.any()).
      if (field._zod.optin === 'optional') {
        lines.push(`  if ((x !== undefined || ${name} in v) && !(${test})) return false;`);
      } else if (acceptsUndefined(field)) {
        lines.push(`  if (!(${test}) || (x === undefined && !(${name} in v))) return false;`);
      } else {
        lines.push(`  if (!(${test})) return false;`);
      }
    }
    lines.push('  return true;');
    return lines.join('\n');
  }

  #name(at: string): string {
    const words = at
      .replaceAll('[]', '.item')
      .split(/[^A-Za-z0-9]+/)
      .filter((word) => word !== '');
    const base = `check${words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('')}`;
    let name = base;
    for (let i = 2; this.#taken.has(name); i++) name = `${base}${i}`;
    this.#taken.add(name);
    return name;
  }
}

/** Whether the expression of `schema` holds for `undefined` (then a required key's absence is tested apart). */
function acceptsUndefined(schema: z.ZodType): boolean {
  const def = defOf(schema, '');
  if (def.type === 'unknown' || def.type === 'any') return true;
  if (def.type === 'optional')
    return !has(schema, '$ZodExactOptional') || acceptsUndefined(def.innerType as z.ZodType);
  return def.type === 'nullable' && acceptsUndefined(def.innerType as z.ZodType);
}

/**
 * Whether `schema` sends `{}` as `{}` and `{ page }` as `{ page: String(page) }`, and refuses
 * every page that is not a whole number from 1: what `ColdChecks.pageQuery` promises.
 */
function sendsPageAlone(schema: z.ZodType, at: string): void {
  const sent = (query: unknown) => {
    const result = schema.safeParse(query);
    return result.success ? JSON.stringify(result.data) : undefined;
  };
  const agrees =
    sent({}) === '{}' &&
    sent({ page: undefined }) === '{}' &&
    [1, 2, 17, Number.MAX_SAFE_INTEGER].every(
      (page) => sent({ page }) === JSON.stringify({ page: `${page}` }),
    ) &&
    [0, -1, 1.5, Number.NaN, 2 ** 53, '1', null].every((page) => sent({ page }) === undefined);
  if (!agrees) throw new Error(`${at}: the query schema does not send a page-only query as { page: "N" }`);
}

/** The text of src/resources/cold-checks.generated.ts for the operations given. */
export function coldChecksText(operations: readonly ColdOperation[]): string {
  const emitter = new Emitter();
  const exports: string[] = [];
  for (const operation of operations) {
    const response = emitter.expr(operation.response, 'v', operation.exportName);
    const check = /^(check\w+)\(v\)$/.exec(response)?.[1];
    if (check === undefined)
      throw new Error(`${operation.exportName}: the response is not an object or array`);
    if (operation.pageQuery !== undefined) sendsPageAlone(operation.pageQuery, operation.exportName);
    const fields = [operation.pageQuery === undefined ? '' : 'pageQuery: true, ', `response: ${check}`].join(
      '',
    );
    exports.push(
      `/** ${operation.doc} */\nexport const ${operation.exportName}: ColdChecks = { ${fields} };`,
    );
  }
  return `${[
    '/**',
    ' * Generated by `npm run generate` (scripts/cold-checks.ts) from the response schemas: do not edit;',
    ' * `npm test` fails while it is stale. Checks a cold process runs before zod is loaded',
    ' * (src/core/call/cold-call.ts): `true` only where the schema accepts the body and returns it unchanged.',
    ' */',
    "import type { ColdChecks } from '../core/call/call.js';",
    '',
    'function isObject(v: unknown): v is Record<string, unknown> {',
    "  return typeof v === 'object' && v !== null && !Array.isArray(v);",
    '}',
    '',
    ...emitter.functions.flatMap((text) => [text, '']),
    ...exports.flatMap((text) => [text, '']),
  ]
    .join('\n')
    .trimEnd()}\n`;
}
