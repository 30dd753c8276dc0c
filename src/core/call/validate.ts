/**
 * The one place where schemas meet data: request bodies are checked before any I/O, responses
 * before they reach the caller. Synchronous `safeParse` only: zod's JIT serves sync parsing.
 */
import type * as z from 'zod';
import { zod } from '../../load/zod.js';
import { issuesFromZod, RequestValidationError, ResponseValidationError } from '../errors.js';
import type { Logger } from '../observability/log.js';
import { safeParseFast } from './compiled.js';

/** How strictly responses are checked: `strict` throws, `warn` logs and returns the raw body. */
export type ValidationMode = 'strict' | 'warn';

/** The request schemas parsed once already: their later parses may use zod's generated fast path. */
const parsedBefore = new WeakSet<z.ZodType>();

/**
 * How a request schema is parsed: its first parse without zod's generated fast path, whose code
 * generation costs more than one parse saves (a cold start's first list call is one parse);
 * every later parse with it.
 */
function requestParseOptions(schema: z.ZodType): { jitless: true } | undefined {
  if (parsedBefore.has(schema)) return undefined;
  parsedBefore.add(schema);
  return FIRST_PARSE;
}

const FIRST_PARSE = Object.freeze({ jitless: true as const });

/** Parses a request body or parameters, or throws {@link RequestValidationError} naming each bad path. */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, context?: string): z.output<S> {
  const result = schema.safeParse(value, requestParseOptions(schema));
  if (result.success) return result.data;
  throw new RequestValidationError(issuesFromZod(keyedUnknownKeys(closestBranch(result.error))), context);
}

/**
 * A body that matches no branch of a union (a create states its rent in one of two ways) gets
 * zod's bare "Invalid input" at the root; the branch with the fewest problems is the one the
 * caller meant, so its issues, under the union's path, say what to fix.
 */
function closestBranch(error: z.ZodError): z.ZodError {
  const z = zod();
  if (!error.issues.some((issue) => issue.code === 'invalid_union')) return error;
  const issues = error.issues.flatMap((issue): z.core.$ZodIssue[] => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
    const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
    return closest.map((inner) => Object.assign({}, inner, { path: [...issue.path, ...inner.path] }));
  });
  return closestBranch(new z.ZodError(issues));
}

/**
 * zod reports unknown keys once per object, at the object's path; the path of the key itself
 * (`applicants[0].phone`) says better where the mistake is. One issue per key, same message.
 */
function keyedUnknownKeys(error: z.ZodError): z.ZodError {
  const z = zod();
  if (!error.issues.some((issue) => issue.code === 'unrecognized_keys')) return error;
  const issues = error.issues.flatMap((issue): z.core.$ZodIssue[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => Object.assign({}, issue, { path: [...issue.path, key] }))
      : [issue],
  );
  return new z.ZodError(issues);
}

/** How {@link parseResponse} treats a body its schema rejects. */
export interface ResponseParsing {
  /** `strict` (default) throws; `warn` logs and returns the body as received. */
  mode?: ValidationMode | undefined;
  /** Where `warn` mode logs. */
  logger?: Logger | undefined;
  /** Names the response in the error ("Unexpected response to GET /path"); built only on failure. */
  context?: string | (() => string) | undefined;
  /**
   * Whether the SDK's compiled check may answer first (default true). `false` parses with the
   * schema's own `safeParse`: for a caller's schema, because the compiled checks read zod's
   * internals, which a schema from another copy or version of zod may lay out otherwise; for the
   * SDK's own, once its compiled check has already rejected the body.
   */
  compiledCheckFirst?: boolean | undefined;
  /** Applied to the body the error carries (removes the client's secrets). */
  scrub?: ((value: unknown) => unknown) | undefined;
}

/**
 * Parses a response body. A mismatch throws {@link ResponseValidationError} carrying the issues
 * and the (scrubbed) body, or in `warn` mode is logged and the body returned unchanged.
 */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  body: unknown,
  { mode = 'strict', logger, context, compiledCheckFirst = true, scrub }: ResponseParsing = {},
): z.output<S> {
  const result = compiledCheckFirst
    ? safeParseFast(schema, body)
    : (schema.safeParse(body) as z.ZodSafeParseResult<z.output<S>>);
  if (result.success) return result.data;
  const error = new ResponseValidationError(
    issuesFromZod(result.error),
    scrub ? scrub(body) : body,
    typeof context === 'function' ? context() : context,
  );
  if (mode === 'strict') throw error;
  logger?.warn(`${error.message} (validation: 'warn', returning the body as received)`);
  // In 'warn' mode the caller asked for the body as received, whatever its shape.
  return body as z.output<S>;
}
