/**
 * HttpCore: builds each request, sends it through the transport with auth, timeout, retries and
 * pacing, and validates what comes back. Everything resources share lives here, once.
 */
import type { z } from 'zod';
import { APIPromise, type ResponseInfo, type WithResponse } from './api-promise.js';
import type { TokenSource } from './auth.js';
import {
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  GroupMayHaveBeenCreatedError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  safeHeaders,
  type ValidationIssue,
} from './errors.js';
import type { Limiter } from './limiter.js';
import type { Logger } from './log.js';
import { maskText } from './redact.js';
import { BACKOFF, backoffMs, failureOf, type RetrySafety, retryAfterMs, retryVerdict } from './retry.js';
import { sleep } from './sleep.js';
import {
  type Transport,
  type TransportResponse,
  TransportTimeoutError,
  toConnectionError,
} from './transport.js';
import { parseRequest, parseResponse, type ValidationMode } from './validate.js';

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Cancels the call (all attempts and waits). */
  signal?: AbortSignal;
  /** Milliseconds per attempt, headers and body included. */
  timeout?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

/** Settings HttpCore runs with, resolved by the client. */
export interface HttpCoreConfig {
  origin: string;
  /** Path prefix of the base URL, without a trailing slash (often `''`). */
  basePath: string;
  transport: Transport;
  timeout: number;
  maxRetries: number;
  maxResponseBytes: number;
  validation: ValidationMode;
  logger: Logger;
  limiter: Limiter;
  defaultHeaders: Record<string, string>;
}

/** A create's way of finding out whether an ambiguous attempt went through. */
export interface CreateRecovery<T> {
  /** The caller's correlation id, quoted in the error when recovery is impossible. */
  correlationId: string | undefined;
  /** Looks the object up; `undefined` when it was not created. Absent when no lookup is possible. */
  lookup?: (() => Promise<T | undefined>) | undefined;
}

/** One call, as a resource describes it. */
export interface Call<S extends z.ZodType> {
  method: 'GET' | 'POST';
  /**
   * API path under the base URL, or an absolute URL (then sent without Authorization). `{name}`
   * placeholders are filled from `pathParams`, each checked non-empty and URL-encoded.
   */
  path: string;
  pathParams?: Record<string, unknown> | undefined;
  /** Query parameters as the caller gave them; `querySchema` turns them into strings. */
  query?: unknown;
  querySchema?: z.ZodType<Record<string, string>> | undefined;
  /** The request body as the caller gave it; `bodySchema` checks it before any I/O. */
  body?: unknown;
  bodySchema?: z.ZodType | undefined;
  /** The response schema. */
  schema: S;
  options?: RequestOptions | undefined;
  /** `read` retries freely; `create` only when a resend provably cannot duplicate. Default: read for GET. */
  safety?: RetrySafety;
  /** For creates: how to recover from an ambiguous failure. */
  recovery?: CreateRecovery<z.output<S>>;
  /** Whether to send the bearer token (default true for API paths). */
  auth?: boolean;
  /** `bytes` returns the raw body as a Uint8Array instead of parsing JSON. */
  responseType?: 'json' | 'bytes';
  /** Keep the response's Authorization header (only the token exchange needs it). */
  keepCredentialHeaders?: boolean;
}

/** A call after its inputs were checked: the query is wire-ready. */
type PreparedCall<S extends z.ZodType> = Omit<Call<S>, 'query'> & {
  query: Record<string, string> | undefined;
  /** The query string to send: `''` or `?name=value&...`, built once per call. */
  search: string;
};

const EMPTY_BODY = Symbol('empty body');

function fillPath(template: string, params: Record<string, unknown>): string {
  const issues: ValidationIssue[] = [];
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value.trim() === '') {
      issues.push({ path: name, message: 'Expected a non-empty string id', code: 'invalid_type' });
      return '';
    }
    return encodeURIComponent(value);
  });
  if (issues.length > 0) throw new RequestValidationError(issues, 'Invalid path parameter');
  return path;
}
const MAX_ERROR_TEXT = 2_000;

function isAbsolute(path: string): boolean {
  return path.startsWith('https://') || path.startsWith('http://');
}

function responseInfo(response: TransportResponse, keepCredentials: boolean): ResponseInfo {
  const headers = keepCredentials ? response.headers : safeHeaders(response.headers);
  return { status: response.status, headers, requestId: response.headers['x-request-id'] };
}

function decodeErrorBody(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  const text = body.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text.slice(0, MAX_ERROR_TEXT);
  }
}

/** Sends calls described by resources. */
export class HttpCore {
  readonly #config: HttpCoreConfig;
  /** Whether debug lines are written: they are built (paths masked) only then. */
  readonly #debug: boolean;
  #tokens: TokenSource | undefined;

  constructor(config: HttpCoreConfig) {
    this.#config = config;
    const level = (config.logger as { level?: unknown }).level;
    this.#debug = level === undefined || level === 'debug';
  }

  /** The logger, for resources and helpers that report through the same channel. */
  get logger(): Logger {
    return this.#config.logger;
  }

  /** Installs the token source (it is built after the core, since it calls the core itself). */
  useTokens(tokens: TokenSource): void {
    this.#tokens = tokens;
  }

  /** Runs a call: the request starts at once; the result is an {@link APIPromise}. */
  request<S extends z.ZodType>(call: Call<S>): APIPromise<z.output<S>> {
    return new APIPromise(this.execute(call));
  }

  /** Like {@link request}, resolving to `{ data, response }` directly. */
  async execute<S extends z.ZodType>(input: Call<S>): Promise<WithResponse<z.output<S>>> {
    const call = this.#prepare(input);
    const safety = call.safety ?? (call.method === 'GET' ? 'read' : 'create');
    const maxRetries = call.options?.maxRetries ?? this.#config.maxRetries;
    const signal = call.options?.signal;
    let replayedAfter401 = false;
    for (let retry = 0; ; ) {
      let token: string | undefined;
      try {
        token = this.#wantsAuth(call) ? await this.#token(signal) : undefined;
        const response = await this.#attempt(call, token, retry);
        if (response.status >= 200 && response.status < 300) return this.#accept(call, response);
        throw APIError.from({
          status: response.status,
          headers: response.headers,
          body: decodeErrorBody(response.body),
          method: call.method,
          path: this.#displayPath(call),
        });
      } catch (error) {
        if (error instanceof APIUserAbortError) throw error;
        if (
          error instanceof AuthenticationError &&
          token !== undefined &&
          !replayedAfter401 &&
          this.#tokens?.canRefresh
        ) {
          // One refresh and one replay: the token may have expired in flight.
          this.#tokens.invalidate(token);
          replayedAfter401 = true;
          continue;
        }
        const failure = failureOf(error);
        if (!failure) throw error;
        const verdict = retryVerdict(failure, safety);
        if (verdict === 'fail') throw error;
        if (verdict === 'ambiguous') {
          const recovered = await this.#recover(call, error);
          if (recovered) return recovered;
        }
        if (retry >= maxRetries) throw error;
        const headers = failure.kind === 'status' ? failure.headers : {};
        const delay = backoffMs(retry, headers);
        this.#config.logger.warn(
          `Retrying ${call.method} ${this.#displayPath(call)} in ${Math.round(delay)} ms (retry ${retry + 1} of ${maxRetries}): ${error instanceof Error ? error.message : String(error)}`,
        );
        await sleep(delay, signal);
        retry++;
      }
    }
  }

  /** Checks path parameters, query and body before any I/O; the prepared call carries wire values. */
  #prepare<S extends z.ZodType>(call: Call<S>): PreparedCall<S> {
    const path = call.pathParams ? fillPath(call.path, call.pathParams) : call.path;
    const query = call.querySchema
      ? parseRequest(call.querySchema, call.query ?? {}, 'Invalid parameters')
      : undefined;
    const body = call.bodySchema
      ? parseRequest(call.bodySchema, call.body, 'Invalid request body')
      : call.body;
    const wireQuery = query && Object.keys(query).length > 0 ? query : undefined;
    const search = wireQuery ? `?${new URLSearchParams(wireQuery).toString()}` : '';
    return { ...call, path, query: wireQuery, search, body };
  }

  /** Resolves a URL the API handed out (a PDF link) against the base URL. */
  resolveURL(url: string): string {
    return new URL(url, `${this.#config.origin}${this.#config.basePath}/`).href;
  }

  #wantsAuth(call: Call<z.ZodType>): boolean {
    return call.auth ?? !isAbsolute(call.path);
  }

  /** The token for a call; a cancelled call stops waiting, while the shared refresh goes on for others. */
  async #token(signal: AbortSignal | undefined): Promise<string> {
    if (!this.#tokens) throw new Error('HttpCore has no token source');
    const pending = this.#tokens.get();
    if (!signal) return pending;
    if (signal.aborted) throw new APIUserAbortError();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new APIUserAbortError());
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([pending, aborted]);
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  #displayPath(call: PreparedCall<z.ZodType>): string {
    const path = isAbsolute(call.path) ? new URL(call.path).pathname : call.path;
    return maskText(`${path}${call.search}`);
  }

  async #attempt(
    call: PreparedCall<z.ZodType>,
    token: string | undefined,
    retry: number,
  ): Promise<TransportResponse> {
    const config = this.#config;
    let origin = config.origin;
    let path: string;
    if (isAbsolute(call.path)) {
      const url = new URL(call.path);
      origin = url.origin;
      path = `${url.pathname}${url.search}`;
    } else {
      path = `${config.basePath}${call.path}${call.search}`;
    }
    const headers: Record<string, string> = { ...config.defaultHeaders, ...call.options?.headers };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }

    const timeoutMs = call.options?.timeout ?? config.timeout;
    const userSignal = call.options?.signal;
    if (userSignal?.aborted) throw new APIUserAbortError();
    // The transport enforces the deadline (no AbortController and timer of our own per attempt);
    // time spent waiting for a limiter slot counts against it, as before.
    const started = performance.now();
    const deadline = started + timeoutMs;
    try {
      const response = await config.limiter.run(async () => {
        const answer = await config.transport({
          method: call.method,
          origin,
          path,
          headers,
          body,
          signal: userSignal,
          timeout: deadline - performance.now(),
          maxResponseBytes: config.maxResponseBytes,
        });
        // Pause the whole client before this slot frees, so no queued request slips through.
        if (answer.status === 429) config.limiter.pauseFor(retryAfterMs(answer.headers) ?? BACKOFF.initialMs);
        return answer;
      }, userSignal);
      if (this.#debug) {
        config.logger.debug(`${call.method} ${this.#displayPath(call)} → ${response.status}`, {
          attempt: retry + 1,
          durationMs: Math.round(performance.now() - started),
          requestId: response.headers['x-request-id'],
        });
      }
      return response;
    } catch (error) {
      if (userSignal?.aborted) throw new APIUserAbortError();
      if (error instanceof TransportTimeoutError) {
        throw new APIConnectionTimeoutError(`Request timed out after ${timeoutMs} ms (timeout).`, {
          cause: error,
        });
      }
      if (error instanceof APIUserAbortError || error instanceof ResponseTooLargeError) throw error;
      const connectionError = toConnectionError(error);
      if (this.#debug) {
        config.logger.debug(`${call.method} ${this.#displayPath(call)} failed: ${connectionError.message}`, {
          attempt: retry + 1,
          durationMs: Math.round(performance.now() - started),
        });
      }
      throw connectionError;
    }
  }

  #accept<S extends z.ZodType>(
    call: PreparedCall<S>,
    response: TransportResponse,
  ): WithResponse<z.output<S>> {
    const info = responseInfo(response, call.keepCredentialHeaders === true);
    if (call.responseType === 'bytes') {
      return { data: parseResponse(call.schema, new Uint8Array(response.body), 'strict'), response: info };
    }
    let json: unknown = EMPTY_BODY;
    if (response.body.length > 0) {
      try {
        json = JSON.parse(response.body.toString('utf8'));
      } catch {
        throw new ResponseValidationError(
          [{ path: '', message: 'Response body is not valid JSON', code: 'invalid_json' }],
          response.body.toString('utf8', 0, MAX_ERROR_TEXT),
          `Unexpected response to ${call.method} ${this.#displayPath(call)}`,
        );
      }
    }
    const value = json === EMPTY_BODY ? undefined : json;
    const data = parseResponse(
      call.schema,
      value,
      this.#config.validation,
      this.#config.logger,
      () => `Unexpected response to ${call.method} ${this.#displayPath(call)}`,
    );
    return { data, response: info };
  }

  async #recover<S extends z.ZodType>(
    call: PreparedCall<S>,
    cause: unknown,
  ): Promise<WithResponse<z.output<S>> | undefined> {
    const recovery = call.recovery;
    const path = this.#displayPath(call);
    if (!recovery?.lookup) throw new GroupMayHaveBeenCreatedError(path, recovery?.correlationId, cause);
    let found: z.output<S> | undefined;
    try {
      found = await recovery.lookup();
    } catch (lookupError) {
      throw new GroupMayHaveBeenCreatedError(path, recovery.correlationId, lookupError);
    }
    if (found === undefined) {
      this.#config.logger.warn(
        `${call.method} ${path} failed ambiguously; the lookup shows nothing was created, resending.`,
      );
      return undefined;
    }
    this.#config.logger.warn(
      `${call.method} ${path} failed ambiguously; recovered the object created by the first attempt.`,
    );
    return { data: found, response: { status: 200, headers: {}, requestId: undefined } };
  }
}
