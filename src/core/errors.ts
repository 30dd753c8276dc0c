/**
 * The error hierarchy. Every error the SDK throws is a {@link VerificationError}, so a caller can
 * catch one class; subclasses say what went wrong. No error ever carries a token, a secret key,
 * an Authorization header or a request body.
 */
import type * as z from 'zod';
import { INSPECT, type InspectFunction } from './observability/inspect.js';
import { capText, maskText, redact } from './observability/redact.js';

/** Response headers as a plain lower-cased record; Authorization-like headers are never kept. */
export type ResponseHeaders = Record<string, string>;

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Drops headers that may carry credentials, so an error can be logged or serialised safely. */
export function safeHeaders(headers: ResponseHeaders): ResponseHeaders {
  // Most responses carry none of them: then the record (fresh per response) is returned as is,
  // saving a copy on every call (docs/benchmarks.md, round 3).
  if (!Object.keys(headers).some((name) => SECRET_HEADERS.has(name.toLowerCase()))) return headers;
  const kept: ResponseHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADERS.has(name.toLowerCase())) kept[name] = value;
  }
  return kept;
}

/** Base class of every error thrown by the SDK. */
export class VerificationError extends Error {
  /** The class name, e.g. `NotFoundError`: each subclass sets its own. */
  override name = 'VerificationError';

  /** Messages are capped (2 KB, size noted) and masked at the source: they end up in logs and bug reports. */
  constructor(message?: string, options?: { cause?: unknown }) {
    super(message === undefined ? undefined : maskText(capText(message)), options);
  }

  /** A plain, secret-free object for structured logs. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message };
  }

  /** @internal `util.inspect` shows the redacted JSON form, never raw bodies or causes. */
  [INSPECT](_depth?: number, _options?: unknown, inspect?: InspectFunction): string {
    const shown = redact(this.toJSON());
    const details =
      typeof inspect === 'function'
        ? inspect(shown, { depth: 4, breakLength: 100 })
        : JSON.stringify(shown, null, 2);
    // The stack's first line was written before the subclass set its name.
    const frames = (this.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
    return [`${this.name}: ${this.message}`, ...frames, details].join('\n');
  }
}

/** What an {@link APIError} is built from. */
export interface APIErrorInit {
  /** HTTP status code of the response. */
  status: number;
  /** Response headers, lower-cased. */
  headers: ResponseHeaders;
  /** The parsed JSON error body, or its text when it was not JSON. */
  body: unknown;
  /** HTTP method of the failed request. */
  method: string;
  /** Path (with query) of the failed request. */
  path: string;
  /** Replaces the detail the message would take from the body. */
  message?: string;
  /** Where and how the call went, appended in parentheses: `api.example.com, attempt 2 of 3, 1.2 s`. */
  context?: string;
  /** Advice appended to the message, e.g. what to check in the configuration. */
  hint?: string;
}

function messageFromBody(body: unknown): string | undefined {
  if (typeof body === 'string') return body.length > 0 ? capText(body, 300) : undefined;
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['message', 'error', 'detail', 'errors']) {
      const value = record[key];
      if (typeof value === 'string') return capText(value, 500);
      if (value !== undefined) return capText(JSON.stringify(value), 300);
    }
  }
  return undefined;
}

/** The server answered with a non-success status. */
export class APIError extends VerificationError {
  override name = 'APIError';
  /** HTTP status code. */
  readonly status: number;
  /** Response headers, lower-cased, without credential headers. */
  readonly headers: ResponseHeaders;
  /** The parsed JSON error body, or its text when it was not JSON. */
  readonly body: unknown;
  /** The `x-request-id` response header, when the server sent one. */
  readonly requestId: string | undefined;
  /** HTTP method of the failed request. */
  readonly method: string;
  /** Path (with query) of the failed request. */
  readonly path: string;

  /**
   * Builds the error from the failed response; the message is
   * `<status> <method> <path>: <detail> (<context>). <hint>`, the detail capped at 500 characters.
   */
  constructor(init: APIErrorInit) {
    const detail = init.message ?? messageFromBody(init.body);
    const context = init.context ? ` (${init.context})` : '';
    const hint = init.hint ? `. ${init.hint}` : '';
    super(
      `${init.status} ${init.method} ${init.path}${detail ? `: ${capText(detail, 500)}` : ''}${context}${hint}`,
    );
    this.status = init.status;
    this.headers = safeHeaders(init.headers);
    this.body = init.body;
    this.requestId = init.headers['x-request-id'];
    this.method = init.method;
    this.path = init.path;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      status: this.status,
      requestId: this.requestId,
      method: this.method,
      path: this.path,
      body: redact(this.body),
    };
  }

  /** Builds the subclass that matches `init.status`. */
  static from(init: APIErrorInit): APIError {
    const Class = statusClasses[init.status] ?? (init.status >= 500 ? InternalServerError : APIError);
    return new Class(init);
  }
}

/** 400: the server rejected the request (for example an applicant email that does not exist). */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
/** 401: missing, invalid or expired token, or wrong client credentials. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/** 403: the credentials do not allow this call. */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
/** 404: the applicant group or report does not exist. */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/** 409: the request conflicts with the current state. */
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
/** 410: the report data has expired and is no longer available. */
export class ReportExpiredError extends APIError {
  override name = 'ReportExpiredError';
}
/** 422: the server could not process the body. */
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
}
function retryAfterSeconds(headers: ResponseHeaders): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const header = headers['retry-after'];
  if (header === undefined || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** 429: too many requests. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  /** Seconds the server asked to wait (`Retry-After` in seconds or as a date, or `retry-after-ms`), when it said. */
  readonly retryAfter: number | undefined;

  /** Builds the error from the 429 response, reading `Retry-After` / `retry-after-ms`. */
  constructor(init: APIErrorInit) {
    super(init);
    this.retryAfter = retryAfterSeconds(init.headers);
  }
}
/** 5xx: the server failed. */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

const statusClasses: Record<number, new (init: APIErrorInit) => APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  410: ReportExpiredError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The request could not be sent or the response could not be read (DNS, refused, reset, TLS). */
export class APIConnectionError extends VerificationError {
  override name = 'APIConnectionError';
  /** Whether the failure happened before any byte of the request left: a create is then safe to resend. */
  readonly requestNotSent: boolean;

  /** @param options `cause`: the underlying error; `requestNotSent`: whether no byte of the request left. */
  constructor(message = 'Connection error.', options: { cause?: unknown; requestNotSent?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.requestNotSent = options.requestNotSent ?? false;
  }
}

/**
 * The attempt took longer than the configured timeout (or an `AbortSignal.timeout()` fired).
 * `requestNotSent` is true when it timed out still queued, before anything was sent.
 */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';

  /** @param options `cause`: the underlying timeout; `requestNotSent`: whether it never left the queue. */
  constructor(message = 'Request timed out.', options: { cause?: unknown; requestNotSent?: boolean } = {}) {
    super(message, options);
  }
}

/** The caller's `AbortSignal` cancelled the request; the signal's reason is the `cause`. */
export class APIUserAbortError extends VerificationError {
  override name = 'APIUserAbortError';

  /** @param message Defaults to `Request was aborted.`; `options.cause` is the signal's reason. */
  constructor(message = 'Request was aborted.', options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** One problem found by a schema: where (`applicants[1].applicant_email`) and what. */
export interface ValidationIssue {
  /** Dotted path with bracketed indexes, `''` for the root. */
  path: string;
  /** What is wrong, in words. */
  message: string;
  /** The zod issue code. */
  code: string;
}

/** Turns a zod path into the API's field name, `applicants[1].applicant_email`; `''` for the root. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** Flattens zod issues into {@link ValidationIssue}s. */
export function issuesFromZod(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: formatPath(issue.path),
    message: issue.message,
    code: issue.code,
  }));
}

// Issue messages may quote what was rejected, and issues travel into logs with the error.
function maskIssues(issues: ValidationIssue[]): ValidationIssue[] {
  return issues.map((issue) => ({ ...issue, message: maskText(issue.message) }));
}

function describeIssues(issues: ValidationIssue[]): string {
  const shown = issues.slice(0, 5).map((issue) => `${issue.path || '(root)'}: ${issue.message}`);
  const more = issues.length > 5 ? `; and ${issues.length - 5} more` : '';
  return shown.join('; ') + more;
}

/** A request body or parameter was rejected before any network I/O. */
export class RequestValidationError extends VerificationError {
  override name = 'RequestValidationError';
  /** Every problem found, each naming its path. */
  readonly issues: ValidationIssue[];

  /** @param issues Every problem found; `context` starts the message. */
  constructor(issues: ValidationIssue[], context = 'Invalid request') {
    super(`${context}: ${describeIssues(issues)}`);
    this.issues = maskIssues(issues);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}

/** The server sent a body that the response schema rejects (or that is not JSON at all). */
export class ResponseValidationError extends VerificationError {
  override name = 'ResponseValidationError';
  /** Every problem found, each naming its path. */
  readonly issues: ValidationIssue[];
  /** The body as received: parsed JSON, or text when it was not JSON. */
  readonly body: unknown;

  /** @param issues What the schema rejected; `body` is the body as received. */
  constructor(issues: ValidationIssue[], body: unknown, context = 'Unexpected response') {
    super(`${context}: ${describeIssues(issues)}`);
    this.issues = maskIssues(issues);
    this.body = body;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}

/** The response body exceeded `maxResponseBytes`; it was not buffered further. */
export class ResponseTooLargeError extends VerificationError {
  override name = 'ResponseTooLargeError';
  /** The configured cap in bytes. */
  readonly limit: number;

  /** @param limit The configured cap in bytes (`maxResponseBytes`). */
  constructor(limit: number) {
    super(`Response body exceeds the limit of ${limit} bytes (maxResponseBytes).`);
    this.limit = limit;
  }
}

/**
 * A request that is not safe to resend failed after it may have reached the server (a timeout or
 * reset after it was written, a 5xx, an unreadable body): nobody knows whether the server acted on
 * it, and the SDK did not send it again. A raw `client.post` throws this; pass `lookup` to have
 * the SDK look for its result, or `idempotent: true` when a resend is harmless.
 */
export class RequestOutcomeUnknownError extends VerificationError {
  override name = 'RequestOutcomeUnknownError';
  /** The path that was posted to. */
  readonly path: string;

  /**
   * @param path The path that was posted to.
   * @param cause The ambiguous failure that stopped the request.
   * @param message What happened, as a sentence.
   */
  constructor(path: string, cause: unknown, message?: string) {
    super(
      message ??
        `The request to ${path} failed after it may have reached the server, so the server may have acted on it; it was not resent.`,
      { cause },
    );
    this.path = path;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), path: this.path };
  }
}

/**
 * A call on a client after `close()`: it is refused before any I/O, and nothing is reopened (a
 * pool opened again after close would keep the process alive, with nobody left to close it).
 */
export class ClientClosedError extends VerificationError {
  override name = 'ClientClosedError';

  /** @param what Names the refused call (method and path). */
  constructor(what = 'This call') {
    super(`${what} was made on a closed VerificationClient (close() was called); make a new client.`);
  }
}

/**
 * A list kept yielding pages past the walk's page cap (twice what the first page's `total_count`
 * promised, plus 10; 10,000 pages without one): the server's paging is broken (for example a
 * `total_count` that grows page after page). Narrow the query, raise the cap with the list's
 * `maxPages` option, or walk pages by hand.
 */
export class PaginationLimitError extends VerificationError {
  override name = 'PaginationLimitError';
  /** The page cap that was reached. */
  readonly limit: number;

  /** @param limit The page cap; `path` names the list. */
  constructor(limit: number, path: string) {
    super(
      `Stopped listing ${path} after ${limit} pages: the server kept promising more (its total_count or page links are not consistent). Narrow the query, raise the cap with the list's maxPages option (list(params, { maxPages })), or walk the pages with getNextPage().`,
    );
    this.limit = limit;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), limit: this.limit };
  }
}

/**
 * Local coordination state that cannot be trusted as it is, so the creates it concerns are refused
 * (nothing is sent): a damaged line inside a `FileCoordination` shard (a torn last line, left by a
 * process killed while writing, is not damage), a folder written by a newer version of the SDK,
 * or a folder an older version's process is still using. The message names the file, the line and
 * the repair (docs/safe-creates.md, "Coordination").
 */
export class CoordinationStateError extends VerificationError {
  override name = 'CoordinationStateError';
  /** The file (or folder) that cannot be trusted. */
  readonly path: string;
  /** The 1-based line of a damaged shard, when the problem is one line. */
  readonly line: number | undefined;

  /**
   * @param path The file or folder.
   * @param line The damaged line, if one.
   * @param message What is wrong, what is refused, and the repair.
   */
  constructor(path: string, line: number | undefined, message: string) {
    super(message);
    this.path = path;
    this.line = line;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), path: this.path, line: this.line };
  }
}

/** A webhook failed verification: which check failed is in `reason`. */
export class WebhookVerificationError extends VerificationError {
  override name = 'WebhookVerificationError';
  /** Which check failed. */
  readonly reason:
    | 'missing_signature'
    | 'bad_signature'
    | 'missing_secret'
    | 'invalid_json'
    | 'invalid_payload';

  /** @param reason Which check failed; `message` explains it without quoting the body or the secret. */
  constructor(reason: WebhookVerificationError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason };
  }
}
