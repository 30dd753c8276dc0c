/**
 * Fast response validation: response schemas compiled, on first use, into plain checks.
 *
 * Most response schemas return their input unchanged on success: loose objects (unknown keys
 * kept), arrays, primitives, literals, open enums, nullable and optional fields, with no
 * transform, default or value-rewriting check. For those a valid body needs no copy, and checking
 * it is a walk. {@link safeParseFast} compiles such a schema into one small function per object
 * and array node (shared wherever the node is reused, leaves inlined), runs it, and returns the
 * body itself. Whatever the check does not accept goes to zod's `safeParse`, which then decides
 * and words the issues: a fast "no" is never final, and the fast path answers "yes" only where
 * zod would, with data equal to zod's.
 *
 * Why it exists and what it costs: docs/benchmarks.md. Where code generation is off
 * (`z.config({ jitless: true })`, a CSP without `unsafe-eval`), the same checks are built from
 * closures.
 */
import type * as z from 'zod';
import { zod } from '../../load/zod.js';

/** Checks one value: `true` only where zod's parse succeeds and returns the value unchanged. */
export type Check = (value: unknown) => boolean;

interface Def {
  type: string;
  check?: string;
  checks?: ReadonlyArray<{ _zod: { def: { check: string } } }>;
  [field: string]: unknown;
}

function defOf(schema: unknown): Def | undefined {
  const def = (schema as { _zod?: { def?: Def } } | null | undefined)?._zod?.def;
  return def !== undefined && typeof def.type === 'string' ? def : undefined;
}

/** Whether the zod instance was built by the constructor named (`$ZodExactOptional`, ...). */
function is(schema: z.ZodType, trait: string): boolean {
  return (schema._zod as { traits?: Set<string> }).traits?.has(trait) === true;
}

/**
 * `schema.safeParse(value)`, with a fast path for schemas whose output is their input: a body
 * the compiled check accepts is returned as is (zod would return an equal copy). Same verdict,
 * same issues, same data.
 */
export function safeParseFast<S extends z.ZodType>(
  schema: S,
  value: unknown,
): z.ZodSafeParseResult<z.output<S>> {
  const check = fastCheck(schema);
  if (check?.(value) === true) return { success: true, data: value as z.output<S> };
  return schema.safeParse(value) as z.ZodSafeParseResult<z.output<S>>;
}

/** The compiled check of `schema`, built on first use; `undefined` when it has none. */
export function fastCheck(schema: z.ZodType): Check | undefined {
  const generateCode = canGenerate();
  const known = built[generateCode ? 'generated' : 'closures'].get(schema);
  if (known !== undefined) return known ?? undefined;
  try {
    return new Compiler(generateCode).check(schema);
  } catch {
    // A schema shape this module does not know: zod alone decides, from now on.
    built[generateCode ? 'generated' : 'closures'].set(schema, null);
    return undefined;
  }
}

/**
 * Key under which a dispatching schema (src/schemas/lazy/reports.ts) exposes its pick,
 * `(value) => schema`, promising that its output is the picked schema's output for that value.
 * Read through `Symbol.for` so that the schemas need not import this module.
 */
const SCHEMA_PICK = Symbol.for('applicant-verification.schema-pick');

/** The pick a dispatching schema exposes, if it exposes one. */
function pickOf(schema: z.ZodType): ((value: unknown) => unknown) | undefined {
  const pick: unknown = Reflect.get(schema, SCHEMA_PICK);
  return typeof pick === 'function' ? (value) => Reflect.apply(pick, undefined, [value]) : undefined;
}

function isZodType(value: unknown): value is z.ZodType {
  const z = zod();
  return value instanceof z.ZodType;
}

let generate: boolean | undefined;

/** Whether checks may be generated with `new Function` (not under jitless zod or a strict CSP). */
function canGenerate(): boolean {
  const z = zod();
  if (z.config().jitless === true) return false;
  if (generate === undefined) {
    try {
      generate = new Function('return true')() === true;
    } catch {
      generate = false;
    }
  }
  return generate;
}

/** Compiled checks by schema, for each way of building them; `null` marks "no fast path". */
const built: Record<'generated' | 'closures', WeakMap<z.ZodType, Check | null>> = {
  generated: new WeakMap(),
  closures: new WeakMap(),
};

/** Node kinds that keep their value (whatever their checks judge): zod judges them. */
const VALUE_KINDS = new Set([
  'bigint',
  'symbol',
  'undefined',
  'void',
  'never',
  'enum',
  'nan',
  'template_literal',
  'date',
]);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Defers to zod for one node this module does not check itself: "yes" only when zod accepts the
 * value and returns that very value (`Object.is`), so the node's output is provably its input.
 * Any copy (zod copies every object and array) or rewrite is a "no": the whole body goes to zod.
 */
function viaZod(schema: z.ZodType): Check {
  return (value) => {
    const result = schema.safeParse(value);
    return result.success && Object.is(result.data, value);
  };
}

/** Functions a generated check calls, passed in as arguments `c0`, `c1`, ... */
class Constants {
  readonly values: unknown[] = [];

  ref(value: unknown): string {
    let index = this.values.indexOf(value);
    if (index === -1) index = this.values.push(value) - 1;
    return `c${index}`;
  }
}

class Compiler {
  readonly #generate: boolean;
  readonly #memo: WeakMap<z.ZodType, Check | null>;
  readonly #visiting = new Set<z.ZodType>();

  constructor(generateCode: boolean) {
    this.#generate = generateCode;
    this.#memo = built[generateCode ? 'generated' : 'closures'];
  }

  /** The check of `schema`, or `undefined` when its output may differ from its input. */
  check(schema: z.ZodType): Check | undefined {
    const known = this.#memo.get(schema);
    if (known !== undefined) return known ?? undefined;
    const pick = pickOf(schema);
    if (pick !== undefined) {
      const dispatched: Check = (value) => {
        const picked = pick(value);
        return isZodType(picked) && fastCheck(picked)?.(value) === true;
      };
      this.#memo.set(schema, dispatched);
      return dispatched;
    }
    const def = defOf(schema);
    // A cycle (recursive schema) or a coercing schema: no fast path.
    if (def === undefined || this.#visiting.has(schema) || def.coerce === true) return undefined;
    this.#visiting.add(schema);
    let check: Check | undefined;
    try {
      check = this.#build(schema, def);
    } finally {
      this.#visiting.delete(schema);
    }
    this.#memo.set(schema, check ?? null);
    return check;
  }

  #build(schema: z.ZodType, def: Def): Check | undefined {
    // `overwrite` checks (trim, toLowerCase, ...) rewrite the value; every other check only judges it.
    if (def.checks?.some((check) => check._zod.def.check === 'overwrite')) return undefined;
    // For formats (z.email(), z.int()) the node itself is a check (`def.check`).
    const judged = (def.checks !== undefined && def.checks.length > 0) || def.check !== undefined;
    switch (def.type) {
      case 'optional': {
        const inner = this.check(def.innerType as z.ZodType);
        // z.exactOptional: a present key must hold a value of the inner type, never `undefined`.
        if (inner === undefined || is(schema, '$ZodExactOptional')) return inner;
        return (value) => value === undefined || inner(value);
      }
      case 'nullable': {
        const inner = this.check(def.innerType as z.ZodType);
        return inner && ((value) => value === null || inner(value));
      }
      case 'array':
        return this.#array(schema, def, judged);
      case 'union':
        return this.#union(schema, def);
      case 'record':
        return this.#record(schema, def, judged);
      case 'object':
        return this.#object(schema, def, judged);
      default: {
        const leaf = leafTest(def);
        if (leaf !== undefined) return leaf.check;
        // Other kinds that keep their value go to zod; anything else (transform, pipe, default,
        // prefault, catch, readonly, lazy, ...) may change it: no fast path for the whole schema.
        return VALUE_KINDS.has(def.type) || isJudgedLeaf(def) ? viaZod(schema) : undefined;
      }
    }
  }

  /** An expression checking `x` against `schema`: inline for leaves, else a call of its check. */
  #expr(schema: z.ZodType, x: string, constants?: Constants): string {
    const def = defOf(schema);
    const leaf = def && leafTest(def);
    if (leaf !== undefined) return leaf.inline(x, constants);
    if (def?.type === 'nullable' || (def?.type === 'optional' && !is(schema, '$ZodExactOptional'))) {
      const inner = this.#expr(def.innerType as z.ZodType, x, constants);
      return def.type === 'nullable' ? `(${x} === null || ${inner})` : `(${x} === undefined || ${inner})`;
    }
    const check = this.check(schema);
    if (check === undefined || constants === undefined) throw new Error('not inlinable');
    return `${constants.ref(check)}(${x})`;
  }

  #compile(body: string, constants: Constants): Check {
    const names = constants.values.map((_, index) => `c${index}`);
    return new Function('hasOwn', ...names, `"use strict";\nreturn function check(v) {\n${body}\n};`)(
      Object.hasOwn,
      ...constants.values,
    ) as Check;
  }

  #array(schema: z.ZodType, def: Def, judged: boolean): Check | undefined {
    const element = def.element as z.ZodType;
    const elementCheck = this.check(element);
    if (elementCheck === undefined) return undefined;
    if (judged) return viaZod(schema);
    if (this.#generate) {
      const constants = new Constants();
      const test = this.#expr(element, 'x', constants);
      return this.#compile(
        `if (!Array.isArray(v)) return false;\nfor (let i = 0; i < v.length; i++) {\n  const x = v[i];\n  if (!(${test})) return false;\n}\nreturn true;`,
        constants,
      );
    }
    return (value) => {
      if (!Array.isArray(value)) return false;
      for (let i = 0; i < value.length; i++) if (!elementCheck(value[i])) return false;
      return true;
    };
  }

  #union(schema: z.ZodType, def: Def): Check | undefined {
    if (!Array.isArray(def.options)) return undefined;
    const options: Check[] = [];
    for (const option of def.options as z.ZodType[]) {
      const check = this.check(option);
      if (check === undefined) return undefined;
      options.push(check);
    }
    // z.xor and z.discriminatedUnion have rules of their own: zod judges them.
    if (def.inclusive === false || is(schema, '$ZodDiscriminatedUnion')) return viaZod(schema);
    return (value) => options.some((option) => option(value));
  }

  #record(schema: z.ZodType, def: Def, judged: boolean): Check | undefined {
    const key = defOf(def.keyType);
    const entry = this.check(def.valueType as z.ZodType);
    if (key === undefined || this.check(def.keyType as z.ZodType) === undefined || entry === undefined) {
      return undefined;
    }
    if (judged || key.type !== 'string' || key.check !== undefined || (key.checks?.length ?? 0) > 0) {
      return viaZod(schema);
    }
    return (value) => {
      if (!isObject(value) || Object.hasOwn(value, '__proto__')) return false;
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      if (Object.getOwnPropertySymbols(value).length > 0) return false;
      for (const name of Object.keys(value)) if (!entry(value[name])) return false;
      return true;
    };
  }

  #object(schema: z.ZodType, def: Def, judged: boolean): Check | undefined {
    // A plain z.object strips unknown keys, so its output is not its input.
    if (def.catchall === undefined) return undefined;
    const catchall = defOf(def.catchall);
    const shape = def.shape;
    if (catchall === undefined || typeof shape !== 'object' || shape === null) return undefined;
    const names = Object.keys(shape);
    const fields: z.ZodType[] = [];
    const checks: Check[] = [];
    for (const name of names) {
      const field = (shape as Record<string, z.ZodType>)[name];
      const check = field && this.check(field);
      if (field === undefined || check === undefined) return undefined;
      fields.push(field);
      checks.push(check);
    }
    if (this.check(def.catchall as z.ZodType) === undefined) return undefined;
    // Unknown keys are kept by z.looseObject (catchall unknown); other catchalls and object-level
    // checks are zod's to judge.
    if (judged || (catchall.type !== 'unknown' && catchall.type !== 'any') || names.includes('__proto__')) {
      return viaZod(schema);
    }
    // An absent key passes only where zod lets it: optional fields (not z.unknown(), not z.any()).
    const optional = fields.map((field) => field._zod.optin === 'optional');
    if (this.#generate) {
      const constants = new Constants();
      const lines = [
        'if (typeof v !== "object" || v === null || Array.isArray(v)) return false;',
        // An own `__proto__` key (JSON.parse makes one) is copied differently by zod: zod decides.
        'if (hasOwn(v, "__proto__")) return false;',
        'let x;',
      ];
      names.forEach((name, i) => {
        const key = JSON.stringify(name);
        const test = this.#expr(fields[i] as z.ZodType, 'x', constants);
        lines.push(`x = v[${key}];`);
        lines.push(
          optional[i]
            ? `if ((x !== undefined || ${key} in v) && !(${test})) return false;`
            : `if (!(${test}) || (x === undefined && !(${key} in v))) return false;`,
        );
      });
      lines.push('return true;');
      return this.#compile(lines.join('\n'), constants);
    }
    const count = names.length;
    return (value) => {
      if (!isObject(value) || Object.hasOwn(value, '__proto__')) return false;
      for (let i = 0; i < count; i++) {
        const name = names[i] as string;
        const field = value[name];
        if (field === undefined && !(name in value)) {
          if (!optional[i]) return false;
        } else if (!(checks[i] as Check)(field)) {
          return false;
        }
      }
      return true;
    };
  }
}

/** A leaf this module checks itself: as a function, and as an inline expression over `x`. */
interface LeafTest {
  check: Check;
  inline(x: string, constants?: Constants): string;
}

function isJudgedLeaf(def: Def): boolean {
  return ['string', 'boolean', 'number', 'literal', 'custom'].includes(def.type);
}

function leafTest(def: Def): LeafTest | undefined {
  const checks = def.checks?.length ?? 0;
  switch (def.type) {
    case 'string':
      if (checks > 0 || def.check !== undefined) return undefined;
      return { check: (value) => typeof value === 'string', inline: (x) => `typeof ${x} === "string"` };
    case 'boolean':
      if (checks > 0 || def.check !== undefined) return undefined;
      return { check: (value) => typeof value === 'boolean', inline: (x) => `typeof ${x} === "boolean"` };
    case 'null':
      return { check: (value) => value === null, inline: (x) => `${x} === null` };
    case 'unknown':
    case 'any':
      return { check: () => true, inline: () => 'true' };
    case 'number':
      if (checks > 0) return undefined;
      if (def.check === undefined) {
        return {
          check: (value) => typeof value === 'number' && Number.isFinite(value),
          inline: (x) => `(typeof ${x} === "number" && Number.isFinite(${x}))`,
        };
      }
      if (def.check === 'number_format' && def.format === 'safeint') {
        return { check: (value) => Number.isSafeInteger(value), inline: (x) => `Number.isSafeInteger(${x})` };
      }
      return undefined;
    case 'literal': {
      const values = def.values;
      if (checks > 0 || !Array.isArray(values) || values.length !== 1) return undefined;
      const only: unknown = values[0];
      if (typeof only !== 'string' && typeof only !== 'boolean' && only !== null) return undefined;
      return { check: (value) => value === only, inline: (x) => `${x} === ${JSON.stringify(only)}` };
    }
    case 'custom': {
      const fn = def.fn;
      if (checks > 0 || def.check !== 'custom' || typeof fn !== 'function') return undefined;
      const check: Check = (value) => fn(value) === true;
      return {
        check,
        inline: (x, constants) => {
          if (constants === undefined) throw new Error('not inlinable');
          return `${constants.ref(fn)}(${x}) === true`;
        },
      };
    }
    default:
      return undefined;
  }
}
