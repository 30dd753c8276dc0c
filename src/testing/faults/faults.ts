/**
 * Fault injection: the next N matching requests misbehave in a chosen way, so tests can prove
 * what the client does on rate limits, server errors, slow answers, resets and broken bodies.
 * Faults are taken in arrival order from every request the mock receives (auth, API and PDF
 * downloads alike); narrow them with `match` when a test needs a specific route.
 */
import * as z from 'zod';
import { createFaultQueue } from './fault-queue.js';

/**
 * Answer with this status and a JSON error body. By default the request is not processed; with
 * `afterCommit: true` it is processed first (a group and its invitations really exist) and the
 * status replaces the normal answer, so the client sees a failure for work that was done.
 */
export interface StatusFault {
  /** HTTP status to answer with, e.g. 429 or 503. */
  status: number;
  /** Process the request first, then answer with the status instead of the result (default false). */
  afterCommit?: boolean;
  /** `Retry-After` header value in seconds. */
  retryAfter?: number;
  /** `retry-after-ms` header value. */
  retryAfterMs?: number;
  /** Replaces the default JSON error body. */
  body?: unknown;
  /** Wait this long (real time, ms) before the fault takes effect. */
  latencyMs?: number;
}

/** Wait this long (real time) before answering normally. Combine with other kinds. */
export interface LatencyFault {
  /** Milliseconds (real time) to wait before answering. */
  latencyMs: number;
}

/**
 * Destroy the socket. `before`: the request is not processed. `after`: the request is processed
 * (a group and its invitations really exist) and then the connection drops, so the client
 * cannot know whether it worked.
 */
export interface ResetFault {
  /** `before`: drop the connection unprocessed; `after`: process the request, then drop it. */
  reset: 'before' | 'after';
  /** Wait this long (real time, ms) before the fault takes effect. */
  latencyMs?: number;
}

/** Process the request, then hold the response this long (real time): a client timeout after the work was done. */
export interface DelayAfterFault {
  /** Milliseconds (real time) to hold the response after processing. */
  delayAfterMs: number;
  /** Wait this long (real time, ms) before the fault takes effect. */
  latencyMs?: number;
}

/**
 * Hold the request this long (real time), then process it and answer normally. The work is done
 * even when the client gave up meanwhile: a client timeout shorter than the hold fails before
 * the group exists, and the group appears afterwards.
 */
export interface CommitDelayFault {
  /** Milliseconds (real time) to hold the request before processing it. */
  commitDelayMs: number;
}

/**
 * The group a create makes stays out of list answers (`GET /api/v1/applicant_groups` and
 * `/api/v1/screening_groups`, `correlation_id` lookups included) for this long after it was
 * created, as a search index that lags behind writes. The lag runs in real time unless `clock` is
 * `'mock'`: then it ends only when the mock clock has moved on by `listLagMs` (`clock.advance()`,
 * or an SDK waiting on `createTestClock`), however slow the machine is. Only group creates
 * (`POST /api/v1/applicant_groups`, `POST /api/v1/screening_groups`) take this fault; other
 * requests pass it by. Reads by id and `mock.groups` see the group at once.
 */
export interface ListLagFault {
  /** Milliseconds the created group stays invisible to list queries. */
  listLagMs: number;
  /** The clock the lag runs on: `'real'` time (default) or the `'mock'` clock. */
  clock?: 'real' | 'mock';
}

/** Process the request, then answer 200 with a body that is not valid JSON. */
export interface MalformedJsonFault {
  /** Marks this kind of fault. */
  malformedJson: true;
  /** Wait this long (real time, ms) before the fault takes effect. */
  latencyMs?: number;
}

/**
 * Process the request, then send the headers with the full Content-Length, half the body, and
 * destroy the socket. Needs socket control: in pure msw mode it becomes a network error.
 */
export interface TruncatedFault {
  /** Marks this kind of fault. */
  truncated: true;
  /** Wait this long (real time, ms) before the fault takes effect. */
  latencyMs?: number;
}

/** One way a request can go wrong. */
export type Fault =
  | StatusFault
  | LatencyFault
  | CommitDelayFault
  | ListLagFault
  | ResetFault
  | DelayAfterFault
  | MalformedJsonFault
  | TruncatedFault;

/** Which requests a fault applies to; omitted fields match anything. */
export interface FaultMatch {
  /** HTTP method, case-insensitive. */
  method?: string;
  /** Path prefix (e.g. `/api/v1/applicant_groups`) or a RegExp tested against the path. */
  path?: string | RegExp;
  /**
   * Client id of an account: only requests naming it (by their token, or an auth request's
   * `client_id`) match, so one account's calls fail while the others' go through.
   */
  account?: string;
}

/** A fault still waiting for requests. */
export interface PendingFault {
  /** What happens to the affected requests. */
  fault: Fault;
  /** Which requests it applies to; `undefined` for any. */
  match: FaultMatch | undefined;
  /** Requests it will still affect. */
  remaining: number;
}

const nonNegative = z.number().finite().nonnegative();
const optionalLatency = { latencyMs: nonNegative.optional() };

/** The fault kinds as JSON (the control API's `POST /__mock/faults` takes the same specs). */
export const faultSchema: z.ZodType<Fault> = z.union([
  z.strictObject({
    status: z.number().int().min(100).max(599),
    afterCommit: z.boolean().optional(),
    retryAfter: nonNegative.optional(),
    retryAfterMs: nonNegative.optional(),
    body: z.unknown().optional(),
    ...optionalLatency,
  }),
  z.strictObject({ reset: z.enum(['before', 'after']), ...optionalLatency }),
  z.strictObject({ delayAfterMs: nonNegative, ...optionalLatency }),
  z.strictObject({ malformedJson: z.literal(true), ...optionalLatency }),
  z.strictObject({ truncated: z.literal(true), ...optionalLatency }),
  z.strictObject({ commitDelayMs: nonNegative }),
  z.strictObject({ listLagMs: nonNegative, clock: z.enum(['real', 'mock']).optional() }),
  z.strictObject({ latencyMs: nonNegative }),
]);

/** A fault match as JSON: `path` is a prefix (a RegExp cannot travel in JSON). */
export const faultMatchSchema = z
  .strictObject({
    method: z.string().min(1).optional(),
    path: z.string().min(1).optional(),
    account: z.string().min(1).optional(),
  })
  .optional();

/** Public fault controls of a mock. */
export interface MockFaults {
  /** The next `count` requests matching `match` suffer `fault`. Earlier registrations are served first. */
  next(count: number, fault: Fault, match?: FaultMatch): void;
  /** Drops every pending fault. */
  clear(): void;
  /** Faults still pending (copies). */
  pending(): PendingFault[];
}

/** Fault controls plus the hook the request pipeline uses. */
export interface FaultInjector extends MockFaults {
  /** Takes the fault for one request (of the account it names, if any), if any is pending and matches. */
  take(method: string, path: string, account?: string): Fault | undefined;
}

const GROUP_CREATE_PATHS = new Set(['/api/v1/applicant_groups', '/api/v1/screening_groups']);

/** Whether a request creates a group (the only requests a list-lag fault applies to). */
export function isGroupCreate(method: string, path: string): boolean {
  return method.toUpperCase() === 'POST' && GROUP_CREATE_PATHS.has(path.replace(/\/+$/, ''));
}

function matches(entry: PendingFault, method: string, path: string, account: string | undefined): boolean {
  if ('listLagMs' in entry.fault && !isGroupCreate(method, path)) return false;
  const { match } = entry;
  if (!match) return true;
  if (match.account !== undefined && match.account !== account) return false;
  if (match.method && match.method.toUpperCase() !== method.toUpperCase()) return false;
  if (match.path === undefined) return true;
  return typeof match.path === 'string' ? path.startsWith(match.path) : match.path.test(path);
}

/** Creates an empty fault queue. */
export function createFaults(): FaultInjector {
  const queue = createFaultQueue<Fault, FaultMatch>('faults');
  return {
    next: queue.next,
    clear: queue.clear,
    pending: queue.pending,
    take: (method, path, account) => queue.take((entry) => matches(entry, method, path, account)),
  };
}
