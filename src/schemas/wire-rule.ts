/**
 * The JSON Schema of a rule zod cannot describe by itself: a `refine` or `superRefine` is code, so
 * the OpenAPI document (`npm run generate`) would say nothing of it. A schema carries the keywords
 * stating its rule as metadata; the generator merges them into the schema's JSON Schema. At run
 * time the metadata does nothing: the refinement itself still checks.
 */
import type * as z from 'zod';
import { zod } from '../load/zod.js';

/** JSON Schema keywords: `pattern`, `not`, `maximum`, `format`, ... */
export type WireRule = Readonly<Record<string, unknown>>;

/** `schema`, annotated with the JSON Schema `keywords` that state what its refinements check. */
export function withWireRule<T extends z.ZodType>(schema: T, keywords: WireRule): T {
  return schema.meta({ wireRule: keywords });
}

/** The keywords `schema` was annotated with by {@link withWireRule}, if any. */
export function wireRuleOf(schema: z.ZodType): WireRule | undefined {
  const z = zod();
  const rule = z.globalRegistry.get(schema)?.wireRule;
  return typeof rule === 'object' && rule !== null ? (rule as WireRule) : undefined;
}
