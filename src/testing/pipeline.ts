/**
 * The request pipeline around every route: counting, `x-request-id`, fault injection, and the
 * conversion of unexpected exceptions into JSON 500s. Routes stay plain functions from a request
 * to a response; everything that applies to all of them lives here, once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpResponse } from 'msw';
import type { MockClock } from './clock.js';
import type { Fault, FaultInjector } from './faults.js';
import type { Random } from './random.js';
import { errorCodeFor, errorResponse } from './responses.js';
import type { RecordingStats } from './stats.js';

/**
 * Internal marker from a handler to the node:http adapter: send half the body and destroy the
 * socket. The adapter strips it; msw alone cannot truncate, so without socket control the
 * pipeline answers with a network error instead.
 */
export const TRUNCATE_MARKER = 'x-mock-internal-truncate';

/** What a route receives. */
export interface RouteRequest {
  request: Request;
  url: URL;
  params: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The fault this request took, if any: routes that create groups apply a list lag. */
  fault?: Fault | undefined;
}

/** What the pipeline needs from the mock. */
export interface PipelineDeps {
  clock: MockClock;
  faults: FaultInjector;
  stats: RecordingStats;
  /** Seeded stream for request ids, separate from entity ids. */
  requestIds: Random;
  /** Whether a node:http adapter serves the responses (it can truncate bodies). */
  socketControl: boolean;
  /** Aborted when the mock closes, cutting fault delays short. */
  closing: AbortSignal;
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

/** Wraps a route with the pipeline; `key` names the route in stats, e.g. `GET /api/v1/reports/:id`. */
export function pipeline(
  deps: PipelineDeps,
  key: string,
  route: (input: RouteRequest) => Promise<Response> | Response,
): (info: { request: Request; params: RouteRequest['params'] }) => Promise<Response> {
  const wait = async (ms: number): Promise<boolean> => {
    try {
      await sleep(ms, undefined, { signal: deps.closing });
      return true;
    } catch {
      return false;
    }
  };

  return async ({ request, params }) => {
    const url = new URL(request.url);
    const requestId = `req_${deps.requestIds.hex(12)}`;
    deps.stats.record({
      route: key,
      method: request.method,
      url: `${url.pathname}${url.search}`,
      authorized: request.headers.has('authorization'),
      at: deps.clock.now(),
    });
    const fault = deps.faults.take(request.method, url.pathname);
    const tag = (response: Response): Response => {
      response.headers.set('x-request-id', requestId);
      return response;
    };

    if (fault && 'latencyMs' in fault && fault.latencyMs) {
      if (!(await wait(fault.latencyMs))) return HttpResponse.error();
    }
    if (fault && 'commitDelayMs' in fault) {
      if (!(await wait(fault.commitDelayMs))) return HttpResponse.error();
    }
    if (fault && 'status' in fault && fault.afterCommit !== true) return tag(faultStatusResponse(fault));
    if (fault && 'reset' in fault && fault.reset === 'before') return HttpResponse.error();

    let response: Response;
    try {
      response = await route({ request, url, params, fault });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      response = errorResponse(500, `The mock failed to handle the request: ${message}`);
    }
    if (!fault) return tag(response);

    if ('status' in fault) return tag(faultStatusResponse(fault));
    if ('reset' in fault) return HttpResponse.error();
    if ('delayAfterMs' in fault && !(await wait(fault.delayAfterMs))) return HttpResponse.error();
    if ('malformedJson' in fault) return tag(await malformed(response));
    if ('truncated' in fault) {
      if (!deps.socketControl) return HttpResponse.error();
      response.headers.set(TRUNCATE_MARKER, '1');
    }
    return tag(response);
  };
}
