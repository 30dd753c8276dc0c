/**
 * Response builders shared by the routes: JSON bodies and the JSON error shape
 * `{ error, message, fields? }` used for every 4xx and 5xx the mock sends.
 */
/** One invalid field of a request body or query. */
export interface FieldError {
  /** Path in the request, e.g. `applicants[0].email`. */
  field: string;
  /** What is wrong with the field. */
  message: string;
}

/** Body of every error response. */
export interface ErrorBody {
  /** Machine-readable code, e.g. `invalid_request`, `unauthorized`, `not_found`, `report_expired`. */
  error: string;
  /** Human-readable explanation. */
  message: string;
  /** Present on 400 responses: each invalid field. */
  fields?: FieldError[];
}

const CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  425: 'too_early',
  429: 'rate_limited',
  431: 'headers_too_large',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** The default error code for a status. */
export function errorCodeFor(status: number): string {
  return CODES[status] ?? (status >= 500 ? 'server_error' : 'error');
}

/** A JSON error response. */
export function errorResponse(
  status: number,
  message: string,
  options: { code?: string; fields?: FieldError[]; headers?: Record<string, string> } = {},
): Response {
  const body: ErrorBody = { error: options.code ?? errorCodeFor(status), message };
  if (options.fields) body.fields = options.fields;
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...options.headers, 'content-type': 'application/json' },
  });
}

/** A JSON success response. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
