/**
 * The request pipeline around every API route: counting, `x-request-id`, fault injection, and the
 * conversion of unexpected exceptions into JSON 500s. Routes stay plain functions from a request
 * to a response; everything that applies to all of them lives here, once.
 *
 * A network error (a reset, or a truncation where no socket can be cut) is the web-standard
 * `Response.error()`: each adapter turns it into what its transport does (a destroyed socket, a
 * rejected `fetch`, msw's `HttpResponse.error()`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Fault, FaultInjector } from '../faults/faults.js';
import type { MockClock } from '../state/clock.js';
import type { Random } from '../state/random.js';
import { MOCK_TAG_HEADER, type RecordingStats } from '../state/stats.js';
import { errorCodeFor, errorResponse } from './responses.js';
import type { RouteDefinition, RouteParams } from './router.js';

/**
 * Internal marker from the core to the node:http adapter: send half the body and destroy the
 * socket. The adapter strips it; adapters without socket control get a network error instead.
 */
export const TRUNCATE_MARKER = 'x-mock-internal-truncate';

/** What a route receives. */
export interface RouteRequest {
  request: Request;
  url: URL;
  params: RouteParams;
  /** The request body, read (within the size limit) and decoded as UTF-8; `''` when none. */
  body: string;
  /** The fault this request took, if any: routes that create groups apply a list lag. */
  fault?: Fault | undefined;
  /**
   * Client id of the account the request's valid token belongs to: set for the routes behind a
   * token (routes.ts), which show that account's records only. Unset elsewhere.
   */
  account?: string | undefined;
}

/** A route's handler. */
export type RouteHandler = (input: RouteRequest) => Promise<Response> | Response;

/** One route of the mock. */
export type Route = RouteDefinition<RouteHandler>;

/** What the pipeline needs from the mock. */
export interface PipelineDeps {
  clock: MockClock;
  faults: FaultInjector;
  stats: RecordingStats;
  /** Seeded stream for request ids, separate from entity ids. */
  requestIds: Random;
  /** Aborted when the mock closes, cutting fault delays short. */
  closing: AbortSignal;
  /** The account a request names (its token's subject, or the auth body's client id), unverified. */
  accountOf: (input: Omit<RouteRequest, 'fault'>) => string | undefined;
}

function faultStatusResponse(fault: Extract<Fault, { status: number }>): Response {
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
  if (fault.body !== undefined) {
    return new Response(JSON.stringify(fault.body), {
      status: fault.status,
      headers: { ...headers, 'content-type': 'application/json' },
    });
  }
  return errorResponse(fault.status, `Injected fault: ${fault.status} ${errorCodeFor(fault.status)}`, {
    headers,
  });
}

// Valid JSON cut in half (plus a stray brace) can never parse, yet looks like a real body.
async function malformed(response: Response): Promise<Response> {
  const text = await response.text();
  const broken = `${text.slice(0, Math.floor(text.length / 2))}{"`;
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json');
  return new Response(broken, { status: 200, headers });
}

/** Runs one API request through the pipeline; `key` names the route in stats. */
export async function runPipeline(
  deps: PipelineDeps,
  key: string,
  input: Omit<RouteRequest, 'fault'>,
  route: RouteHandler,
): Promise<Response> {
  const wait = async (ms: number): Promise<boolean> => {
    try {
      await sleep(ms, undefined, { signal: deps.closing });
      return true;
    } catch {
      return false;
    }
  };
  const { request, url } = input;
  const requestId = `req_${deps.requestIds.hex(12)}`;
  const account = deps.accountOf(input);
  const tag = request.headers.get(MOCK_TAG_HEADER);
  deps.stats.record({
    route: key,
    method: request.method,
    url: `${url.pathname}${url.search}`,
    authorized: request.headers.has('authorization'),
    ...(account === undefined ? {} : { account }),
    ...(tag === null ? {} : { tag }),
    at: deps.clock.now(),
  });
  const fault = deps.faults.take(request.method, url.pathname, account);
  const tagged = (response: Response): Response => {
    response.headers.set('x-request-id', requestId);
    // The API's clock, as a real server's Date header tells it: the one its created_at uses.
    response.headers.set('date', new Date(deps.clock.now()).toUTCString());
    return response;
  };

  if (fault && 'latencyMs' in fault && fault.latencyMs) {
    if (!(await wait(fault.latencyMs))) return Response.error();
  }
  if (fault && 'commitDelayMs' in fault) {
    if (!(await wait(fault.commitDelayMs))) return Response.error();
  }
  if (fault && 'status' in fault && fault.afterCommit !== true) return tagged(faultStatusResponse(fault));
  if (fault && 'reset' in fault && fault.reset === 'before') return Response.error();

  let response: Response;
  try {
    response = await route({ ...input, fault });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    response = errorResponse(500, `The mock failed to handle the request: ${message}`);
  }
  if (!fault) return tagged(response);

  if ('status' in fault) return tagged(faultStatusResponse(fault));
  if ('reset' in fault) return Response.error();
  if ('delayAfterMs' in fault && !(await wait(fault.delayAfterMs))) return Response.error();
  if ('malformedJson' in fault) return tagged(await malformed(response));
  if ('truncated' in fault) response.headers.set(TRUNCATE_MARKER, '1');
  return tagged(response);
}
