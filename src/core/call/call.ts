/**
 * What a call is, as a resource describes it, and its checks before any I/O: path parameters
 * (no empty or dot-segment ids), the escape hatch for fields newer than the SDK.
 */
import type * as z from 'zod';
import { RequestValidationError, type ValidationIssue } from '../errors.js';
import type { OperationName } from '../observability/tracing.js';
import type { RetrySafety } from './retry.js';

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Cancels the call (all attempts and waits). An `AbortSignal.timeout()` signal ends it as a timeout. */
  signal?: AbortSignal;
  /** Milliseconds per attempt, headers and body included. */
  timeout?: number;
  /** Retries after the first attempt; the token exchange's attempts count against them. */
  maxRetries?: number;
  /**
   * Milliseconds the whole call may take, every attempt and wait included; it also cuts the last
   * attempt short. Default: the client's `deadline`, else `timeout` × attempts plus the longest
   * backoff before each retry, which bounds the waits (each attempt keeps its full `timeout`). A
   * create's grace window (below) runs past the default deadline, but not past one given here or
   * on the client.
   */
  deadline?: number;
  /**
   * Creates with a `correlation_id`: after an ambiguous failure, how long (ms) to keep looking the
   * group up before giving up with `GroupMayHaveBeenCreatedError`. Default: the client's
   * `createGraceWindow` (30 000).
   */
  createGraceWindow?: number;
  /**
   * Extra request headers (sent to the API only, never to a PDF file host), over the client's
   * `defaultHeaders` whatever the case of either name. A header the SDK sets (`Authorization`,
   * `Content-Type`, `User-Agent`, ...), in any spelling, is a `RequestValidationError` before any
   * I/O: act for another account with `withOptions`, not an `Authorization` header.
   */
  headers?: Record<string, string>;
  /**
   * Body fields newer than this SDK, merged into the JSON body after validation (they are not
   * checked; a key the SDK already knows is refused: set it in the body itself).
   */
  extraBody?: Record<string, unknown>;
  /** Query parameters newer than this SDK, merged after validation (known names refused likewise). */
  extraQuery?: Record<string, string>;
}

/**
 * An operation's checks generated at build time, so that its calls can run before zod is loaded
 * (src/core/call/cold-call.ts). Only for operations whose body, if they send one, has no schema (the
 * token exchange's): a call with cold checks is prepared without reading a body schema.
 */
export interface ColdChecks {
  /**
   * The operation's query schema turns `{}` into `{}` and `{ page }` (a whole number from 1) into
   * `{ page: String(page) }`, as the generator verified: such a query, pagination's own, needs no
   * zod. Any other query is the schema's to parse.
   */
  readonly pageQuery?: boolean;
  /**
   * `true` only for a body the response schema accepts and returns unchanged (the body is then
   * returned as it is); `false` is not final: zod is loaded and decides, and words the issues.
   */
  readonly response: (value: unknown) => boolean;
}

/** What {@link Call.beforeAttempt} is told about the attempt about to leave. */
export interface AttemptStart {
  /** Milliseconds the attempt may still take (its timeout, cut by the call's deadline). */
  readonly timeoutMs: number;
}

/** A rejection of {@link Call.beforeAttempt}, carried through the attempt's failure handling unchanged. */
export class BeforeAttemptRefusal {
  /** What the hook rejected with. */
  readonly reason: unknown;

  constructor(reason: unknown) {
    this.reason = reason;
  }
}

/** One call, as a resource describes it. */
export interface Call<S extends z.ZodType> {
  method: 'GET' | 'POST';
  /**
   * API path under the base URL, or an absolute URL (then sent without Authorization or caller
   * headers). `{name}` placeholders are filled from `pathParams`, each checked and URL-encoded.
   */
  path: string;
  pathParams?: Record<string, unknown> | undefined;
  /** Query parameters as the caller gave them; `querySchema` turns them into strings. */
  query?: unknown;
  querySchema?: z.ZodType<Record<string, string>> | undefined;
  /** The request body as the caller gave it; `bodySchema` checks it before any I/O. */
  body?: unknown;
  bodySchema?: z.ZodType | undefined;
  /** The response schema. Read only once zod is loaded (a getter may build it). */
  schema: S;
  /** The operation's checks generated at build time, when it has some (src/core/call/cold-call.ts). */
  cold?: ColdChecks | undefined;
  /**
   * The response schema is the caller's (a raw request's): parsed by its own `safeParse`, never by
   * the compiled checks (`compiled.ts`), which are for the SDK's own schemas.
   */
  callerSchema?: boolean | undefined;
  options?: RequestOptions | undefined;
  /**
   * `read` retries freely; `create` only when a resend provably cannot duplicate, and hands an
   * attempt that may have reached the server back to the creates layer. Default: read for GET.
   */
  safety?: RetrySafety;
  /** Whether to send the bearer token (default true for API paths). */
  auth?: boolean;
  /** `bytes` returns the raw body as a Uint8Array instead of parsing JSON. */
  responseType?: 'json' | 'bytes';
  /** Keep the response's Authorization header (only the token exchange needs it). */
  keepCredentialHeaders?: boolean;
  /** Advice added to the error message for a status (e.g. a 404 that points at the base URL). */
  hints?: Partial<Record<number, string>>;
  /**
   * Runs in each attempt after every wait the core makes before it (the token exchange, a free
   * concurrency slot, a rate-limit pause, the backoff before a resend) and just before the request
   * is handed to the transport, with the time the attempt has left. A rejection stops the call
   * there, as it is, with nothing of this attempt sent. The creates layer checks its lease here.
   */
  beforeAttempt?: ((attempt: AttemptStart) => Promise<void>) | undefined;
  /** The operation the call is traced as (its descriptor's name); default `request`, a raw request. */
  operation?: OperationName | undefined;
  /** The path template traces show when `path` is concrete (a raw request to a declared operation). */
  pathTemplate?: string | undefined;
}

/**
 * A call after its inputs were checked: what goes on the wire. It points at the call rather than
 * copying it: on Node 20, an object spread given keys its source lacks (`{ ...call, search }`)
 * costs about a microsecond and leaves garbage that outlives young collections
 * (docs/benchmarks.md, round 4).
 */
export interface PreparedCall<S extends z.ZodType> {
  /** The call as the resource described it. */
  readonly call: Call<S>;
  /** The path, its `{name}` placeholders filled in and encoded. */
  readonly path: string;
  /** The query string to send: `''` or `?name=value&...`. */
  readonly search: string;
  /** The body to send as JSON (checked, `extraBody` merged); `undefined` for none. */
  readonly body: unknown;
  /** The call's own `headers`, checked, names lowercased (src/core/headers.ts); `undefined` for none. */
  readonly headers: Record<string, string> | undefined;
}

/** Path segments that would walk the URL instead of naming a resource. */
const DOT_SEGMENTS = new Set(['.', '..']);

export function fillPath(template: string, params: Record<string, unknown>): string {
  const issues: ValidationIssue[] = [];
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value.trim() === '') {
      issues.push({ path: name, message: 'Expected a non-empty string id', code: 'invalid_type' });
      return '';
    }
    if (DOT_SEGMENTS.has(value.trim())) {
      issues.push({ path: name, message: `"${value}" is not an id (a dot segment)`, code: 'invalid_id' });
      return '';
    }
    return encodeURIComponent(value);
  });
  if (issues.length > 0) throw new RequestValidationError(issues, 'Invalid path parameter');
  return path;
}

/** Merges the caller's escape-hatch fields; a known name is refused so validated fields stay validated. */
export function mergeExtra<V>(
  base: Record<string, V> | undefined,
  extra: Record<string, V> | undefined,
  option: string,
): Record<string, V> | undefined {
  if (!extra || Object.keys(extra).length === 0) return base;
  const issues: ValidationIssue[] = Object.keys(extra)
    .filter((key) => base !== undefined && Object.hasOwn(base, key))
    .map((key) => ({
      path: `${option}.${key}`,
      message: `"${key}" is a field the SDK knows: set it in the request itself, not in ${option}`,
      code: 'duplicate_key',
    }));
  if (issues.length > 0) throw new RequestValidationError(issues, `Invalid ${option}`);
  return copyRecords(base, extra);
}

/**
 * One new record holding every key of `records`, later ones winning: what `{ ...a, ...b }` does,
 * without its cost on Node 20 when `b` adds keys `a` lacks (see {@link PreparedCall}).
 */
export function copyRecords<V>(...records: Array<Record<string, V> | undefined>): Record<string, V> {
  const copy: Record<string, V> = {};
  for (const record of records) {
    if (record === undefined) continue;
    for (const key of Object.keys(record)) {
      const value = record[key] as V;
      // Assigned, `__proto__` would set the prototype; spread syntax defines it as a key.
      if (key === '__proto__')
        Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
      else copy[key] = value;
    }
  }
  return copy;
}

/** Characters `application/x-www-form-urlencoded` leaves as they are (what URLSearchParams does). */
const FORM_SAFE = /^[A-Za-z0-9*\-._]*$/;

function formComponent(text: string): string {
  return FORM_SAFE.test(text) ? text : new URLSearchParams([['', text]]).toString().slice(1);
}

/**
 * The query string of `query`: `?name=value&...`, encoded exactly as `URLSearchParams` encodes it.
 * Plain names and values (page numbers, ids) are copied as they are, which skips building a
 * URLSearchParams per call.
 */
export function searchOf(query: Record<string, string>): string {
  let search = '';
  for (const [name, value] of Object.entries(query)) {
    search += `${search === '' ? '?' : '&'}${formComponent(name)}=${formComponent(value)}`;
  }
  return search;
}

export function isAbsolute(path: string): boolean {
  return path.startsWith('https://') || path.startsWith('http://');
}
