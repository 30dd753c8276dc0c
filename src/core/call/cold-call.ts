/**
 * Calls that run before zod is loaded (src/load/zod.ts). An operation may carry checks generated at
 * build time (`npm run generate`, src/resources/cold-checks.generated.ts): a response check, and
 * whether its query schema sends a query of `page` alone as `{ page: String(page) }`. A call they
 * cover (a token exchange, the first page of a list) is prepared and answered without zod, so a
 * cold process that makes only such calls never loads it (docs/benchmarks.md, "Cold start,
 * round 7"). Whatever they do not cover waits for zod, which then decides as always.
 */
import type * as z from 'zod';
import type { Call } from './call.js';

/**
 * The wire query of a query its cold checks cover: `{}`, or `{ page: "N" }` for a whole page
 * number from 1; `undefined` for any other query, which the query schema parses.
 */
export function coldQuery(call: Call<z.ZodType>): Record<string, string> | undefined {
  if (call.cold?.pageQuery !== true) return undefined;
  const query = call.query;
  if (query === undefined) return {};
  if (query === null || typeof query !== 'object') return undefined;
  // A plain record only (an array or a class instance is the schema's to refuse). Reflect's
  // getPrototypeOf throws on a primitive, where Object's would box it.
  const proto = Reflect.getPrototypeOf(query);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const keys = Object.keys(query);
  if (keys.length === 0) return {};
  if (keys.length !== 1 || keys[0] !== 'page') return undefined;
  const page: unknown = (query as { page?: unknown }).page;
  if (page === undefined) return {};
  return Number.isSafeInteger(page) && (page as number) >= 1 ? { page: String(page) } : undefined;
}

/**
 * Whether `call` can be prepared without zod: it has cold checks, and its query is absent or one
 * {@link coldQuery} covers. (Its response may still need zod: {@link ColdChecks.response}.)
 */
export function preparesCold(call: Call<z.ZodType>): boolean {
  return call.cold !== undefined && (call.query === undefined || coldQuery(call) !== undefined);
}
