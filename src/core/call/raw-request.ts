/**
 * Raw requests: the escape hatch for endpoints and fields newer than the SDK. A raw request goes
 * through the same core as every resource method (auth, retries under the create policy,
 * timeouts, logging, redaction); only the path, query and body are the caller's, checked for
 * shape (not meaning) before any I/O. The response is validated when a schema is given, and is
 * `unknown` otherwise. A raw request to a path a descriptor declares is traced under that
 * operation's name and path template (no ids); any other under `request`.
 */
import type * as z from 'zod';
import { zod } from '../../load/zod.js';
import { RequestValidationError, type ValidationIssue } from '../errors.js';
import { RAW_REQUEST_OPERATION } from '../observability/tracing.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import type { Call, RequestOptions } from './http.js';
import type { OperationIndex } from './operation.js';

/** A query parameter value; arrays are sent comma-separated, `undefined` and `null` are left out. */
export type RawQueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | ReadonlyArray<string | number | boolean>;

/** A raw request, described by the caller. */
export interface RawRequest<S extends z.ZodType = z.ZodType<unknown>> {
  /** HTTP method. A POST is treated as a create: never resent after an ambiguous failure. */
  method: 'GET' | 'POST';
  /** Path under the base URL, starting with `/`; no query, no host. */
  path: string;
  /** Query parameters. */
  query?: Record<string, RawQueryValue> | undefined;
  /** JSON body (POST only), sent as given: not checked against any schema. */
  body?: unknown;
  /** Validates the response (per the client's `validation` mode); without one the result is `unknown`. */
  schema?: S | undefined;
  /**
   * For a POST: how to find out whether an attempt that failed ambiguously (a timeout or a reset
   * after the request was written, a 5xx) went through; it returns the created object, or
   * `undefined` when nothing was created. Without it, such a failure throws at once and the POST is
   * not sent again.
   */
  lookup?: (() => Promise<z.output<S> | undefined>) | undefined;
  /** Declares the POST free of side effects (a search, say), so it retries like a GET. Default false. */
  idempotent?: boolean | undefined;
  /** Per-call options: signal, timeout, maxRetries, headers. */
  options?: RequestOptions | undefined;
}

let rawQuery: z.ZodType<Record<string, string>> | undefined;

/**
 * Turns the caller's query into wire strings: arrays comma-separated, empty values dropped. Built
 * with the first raw request, not at import (docs/benchmarks.md, "Cold start, round 6").
 */
function rawQuerySchema(): z.ZodType<Record<string, string>> {
  rawQuery ??= buildRawQuerySchema();
  return rawQuery;
}

function buildRawQuerySchema(): z.ZodType<Record<string, string>> {
  const z = zod();
  const queryValue = z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.undefined(),
    z.array(z.union([z.string(), z.number(), z.boolean()])),
  ]);

  // `overwrite` rather than `transform`, as the SDK's list queries (src/schemas/common.ts, wireQuery).
  return z.record(z.string(), queryValue).overwrite((query) => {
    const wire: Record<string, string> = {};
    for (const [name, value] of Object.entries(query)) {
      if (value === null || value === undefined) continue;
      wire[name] = Array.isArray(value) ? value.map(String).join(',') : String(value);
    }
    return wire;
  }) as unknown as z.ZodType<Record<string, string>>;
}

// Control characters, whitespace, a query or a fragment have no place in the path itself.
const FORBIDDEN_IN_PATH = /[\s?#\\]|[^\x20-\x7e]/;

function pathIssues(path: unknown): ValidationIssue[] {
  const problem = (message: string): ValidationIssue[] => [{ path: 'path', message, code: 'invalid_path' }];
  if (typeof path !== 'string' || path.length === 0)
    return problem('Expected a path under the base URL, starting with "/"');
  if (!path.startsWith('/') || path.startsWith('//')) {
    return problem(
      'Expected a path under the base URL starting with a single "/" (no host: the token only goes to the API)',
    );
  }
  if (FORBIDDEN_IN_PATH.test(path)) {
    return problem(
      'Expected a path without spaces, control characters, "?" or "#" (pass parameters as query)',
    );
  }
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) {
    return problem('Expected a path without "." or ".." segments');
  }
  return [];
}

function bodyIssues(method: string, body: unknown): ValidationIssue[] {
  if (body === undefined) return [];
  if (method === 'GET') return [{ path: 'body', message: 'A GET request has no body', code: 'invalid_body' }];
  try {
    if (JSON.stringify(body) === undefined) throw new TypeError('not JSON');
    return [];
  } catch {
    return [{ path: 'body', message: 'Expected a JSON-serialisable body', code: 'invalid_body' }];
  }
}

/**
 * Checks a raw request's shape and describes it as a core call.
 *
 * @throws {RequestValidationError} naming `method`, `path` or `body` when one is unusable.
 */
export function rawCall<S extends z.ZodType>(
  request: RawRequest<S>,
  operations?: OperationIndex,
): Call<S | z.ZodUnknown> {
  const method: unknown = request.method;
  const issues: ValidationIssue[] = [];
  if (method !== 'GET' && method !== 'POST') {
    issues.push({ path: 'method', message: 'Expected GET or POST', code: 'invalid_value' });
  }
  issues.push(...pathIssues(request.path), ...bodyIssues(String(method), request.body));
  if (issues.length > 0) throw new RequestValidationError(issues, 'Invalid raw request');
  const isGet = method === 'GET';
  const declared = operations?.(String(method), request.path);
  return {
    method: isGet ? 'GET' : 'POST',
    path: request.path,
    query: request.query ?? {},
    // Getters: the core reads them once zod is loaded.
    get querySchema() {
      return rawQuerySchema();
    },
    body: request.body,
    get schema(): S | z.ZodUnknown {
      return request.schema ?? zod().unknown();
    },
    callerSchema: request.schema !== undefined,
    options: request.options,
    safety: isGet || request.idempotent === true ? 'read' : 'create',
    operation: declared?.name ?? RAW_REQUEST_OPERATION,
    pathTemplate: declared?.path,
  };
}

/** Options of `client.get(path, options)`: a raw GET. */
export type RawGetOptions<S extends z.ZodType = z.ZodType<unknown>> = Omit<
  RawRequest<S>,
  'method' | 'path' | 'body' | 'lookup' | 'idempotent'
>;

/** Options of `client.post(path, options)`: a raw POST. */
export type RawPostOptions<S extends z.ZodType = z.ZodType<unknown>> = Omit<RawRequest<S>, 'method' | 'path'>;

/** `client.request`: a raw request; typed by its schema when given, `unknown` otherwise. */
export interface RawRequestMethod {
  /** Sends `request`; the result is what `schema` parses. */
  <S extends z.ZodType>(request: RawRequest<S> & { schema: S }): APIPromise<z.output<S>>;
  /** Sends `request`; the result is the JSON body, unchecked. */
  (request: RawRequest): APIPromise<unknown>;
}

/** `client.get`: a raw GET of `path`. */
export interface RawGetMethod {
  /** GETs `path`; the result is what `schema` parses. */
  <S extends z.ZodType>(path: string, options: RawGetOptions<S> & { schema: S }): APIPromise<z.output<S>>;
  /** GETs `path`; the result is the JSON body, unchecked. */
  (path: string, options?: RawGetOptions): APIPromise<unknown>;
}

/** `client.post`: a raw POST to `path`, under the create policy unless `idempotent`. */
export interface RawPostMethod {
  /** POSTs to `path`; the result is what `schema` parses. */
  <S extends z.ZodType>(path: string, options: RawPostOptions<S> & { schema: S }): APIPromise<z.output<S>>;
  /** POSTs to `path`; the result is the JSON body, unchecked. */
  (path: string, options?: RawPostOptions): APIPromise<unknown>;
}

/**
 * Sends a checked raw call: a read through the core, a POST through the creates layer, where
 * `lookup` (the caller's) settles a failure that may have reached the server.
 */
export type RawSend = <S extends z.ZodType>(
  call: Call<S>,
  lookup: (() => Promise<z.output<S> | undefined>) | undefined,
) => Promise<WithResponse<z.output<S>>>;

/** The client's raw-request methods, sending through `send`; `operations` names the declared ones in traces. */
export function rawRequestMethods(
  send: RawSend,
  operations?: OperationIndex,
): {
  request: RawRequestMethod;
  get: RawGetMethod;
  post: RawPostMethod;
} {
  function request<S extends z.ZodType>(raw: RawRequest<S> & { schema: S }): APIPromise<z.output<S>>;
  function request(raw: RawRequest): APIPromise<unknown>;
  function request(raw: RawRequest): APIPromise<unknown> {
    return new APIPromise(send(rawCall(raw, operations), raw.lookup));
  }
  function get<S extends z.ZodType>(
    path: string,
    options: RawGetOptions<S> & { schema: S },
  ): APIPromise<z.output<S>>;
  function get(path: string, options?: RawGetOptions): APIPromise<unknown>;
  function get(path: string, options: RawGetOptions = {}): APIPromise<unknown> {
    // Object.assign, not `{ ...options, method, path }`: see PreparedCall (src/core/call/call.ts).
    return request(Object.assign({}, options, { method: 'GET' as const, path }));
  }
  function post<S extends z.ZodType>(
    path: string,
    options: RawPostOptions<S> & { schema: S },
  ): APIPromise<z.output<S>>;
  function post(path: string, options?: RawPostOptions): APIPromise<unknown>;
  function post(path: string, options: RawPostOptions = {}): APIPromise<unknown> {
    return request(Object.assign({}, options, { method: 'POST' as const, path }));
  }
  return { request, get, post };
}
