/**
 * What the library calls of zod at run time, loaded by src/load/zod.ts on first need. Named one
 * by one, not the whole namespace: a bundler then keeps only these and what they reach (zod's
 * locales other than English, its JSON Schema generator, its codecs stay out).
 */
import * as z from 'zod';

/** The members of zod the library's code calls; `import * as z from 'zod'` is one too. */
export const zodApi = {
  any: z.any,
  array: z.array,
  boolean: z.boolean,
  config: z.config,
  custom: z.custom,
  date: z.date,
  discriminatedUnion: z.discriminatedUnion,
  email: z.email,
  enum: z.enum,
  exactOptional: z.exactOptional,
  globalRegistry: z.globalRegistry,
  instanceof: z.instanceof,
  int: z.int,
  literal: z.literal,
  looseObject: z.looseObject,
  NEVER: z.NEVER,
  null: z.null,
  number: z.number,
  object: z.object,
  record: z.record,
  strictObject: z.strictObject,
  string: z.string,
  undefined: z.undefined,
  union: z.union,
  unknown: z.unknown,
  url: z.url,
  xor: z.xor,
  ZodError: z.ZodError,
  ZodType: z.ZodType,
};
