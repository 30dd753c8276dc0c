/**
 * Tracing on Node's `diagnostics_channel` (where the runtime has it), so any tracer (OpenTelemetry, Datadog, a test) can
 * watch the SDK without the SDK depending on it. Each operation has a `tracingChannel` named
 * `applicant-verification:<operation>` (the operation's descriptor names it, `<resource>.<method>`):
 * `start` when the call begins, `end` once it is under way, `asyncStart`/`asyncEnd` when it
 * settles (`error` first, when it fails). The steps inside a call are published on three plain
 * channels: `applicant-verification:attempt`, `:retry` and `:lookup`, each event carrying the
 * `callId` of its operation's context.
 *
 * Events carry names, counts, statuses and durations only: never a token, a secret key, a
 * request or response body, a header, or an applicant's contact details. Paths are the
 * operation's template (`/things/{thingId}`), not the ids. With no subscriber, nothing is
 * built or published.
 */
import type { Channel, TracingChannel } from 'node:diagnostics_channel';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  ResponseValidationError,
} from '../errors.js';

/** Prefix of every channel the SDK publishes on. */
export const TRACE_CHANNEL_PREFIX = 'applicant-verification';

/** The plain channels of the steps inside a call. */
export const TRACE_STEP_CHANNELS = {
  /** One HTTP attempt ended: {@link AttemptTraceEvent}. */
  attempt: `${TRACE_CHANNEL_PREFIX}:attempt`,
  /** The SDK waits, then sends again: {@link RetryTraceEvent}. */
  retry: `${TRACE_CHANNEL_PREFIX}:retry`,
  /** A create's recovery lookup (by correlation id) ended: {@link LookupTraceEvent}. */
  lookup: `${TRACE_CHANNEL_PREFIX}:lookup`,
  /**
   * The SDK found a problem no log level may hide (it is logged at error level too):
   * {@link AlertTraceEvent}. Published whether or not anyone logs.
   */
  alert: `${TRACE_CHANNEL_PREFIX}:alert`,
} as const;

/** Published on {@link TRACE_STEP_CHANNELS}.alert: a problem the caller must act on. */
export interface AlertTraceEvent {
  /** What kind of problem: `rent_unit_mismatch` (the client's `apiRentUnit` is wrong), ... */
  code: string;
  /** The operation that found it. */
  operation: OperationName;
  /** The same text as the error-level log line. */
  message: string;
  /** The figures behind it (ids, amounts, option values): never a secret or contact detail. */
  details: Record<string, string | number>;
}

/** Publishes an {@link AlertTraceEvent} (a no-op without subscribers, or without diagnostics_channel). */
export function publishAlert(event: AlertTraceEvent): void {
  if (stepChannels.alert.hasSubscribers) stepChannels.alert.publish(event);
}

/**
 * An operation's name: a descriptor's (`<resource>.<method>`, declared by its resource), the
 * core's own `auth.exchange` (the token exchange), or `request` (a raw request to a path no
 * descriptor declares). The public list is `TRACED_OPERATIONS` (`src/resources/operations.ts`).
 */
export type OperationName = string;

/** The operation of a raw request to a path no descriptor declares. */
export const RAW_REQUEST_OPERATION = 'request';

/** Name of the `tracingChannel` of `operation`, `applicant-verification:<operation>`. */
export function channelNameOf(operation: OperationName): string {
  return `${TRACE_CHANNEL_PREFIX}:${operation}`;
}

/** The context object of an operation's `tracingChannel` events; it is updated as the call goes. */
export interface OperationTraceContext {
  /** Identifies the call; step events carry it as `callId`. */
  id: number;
  /** The operation: its descriptor's name, `auth.exchange` or `request`. */
  operation: OperationName;
  /** HTTP method. */
  method: 'GET' | 'POST';
  /** The path template (ids not filled in), or the URL's path for a raw request or PDF link. */
  path: string;
  /** The account (client id) of a client derived with `withOptions`; absent for a root client. */
  clientId?: string;
  /** Attempts sent so far. */
  attempts: number;
  /** HTTP status of the last attempt that got an answer. */
  status?: number;
  /** Retries so far, in order. */
  retries: Array<{
    /** The attempt that failed (1-based). */
    attempt: number;
    /** Why it is retried: a status, `timeout` or `connection error`, never a message. */
    reason: string;
    /** Milliseconds waited before the next attempt. */
    delayMs: number;
  }>;
  /** Recovery lookups made (creates only). */
  lookups: number;
  /** Whether the result came from a recovery lookup rather than the create's own answer. */
  recovered: boolean;
  /** Milliseconds from start to settlement; set before `asyncStart`. */
  durationMs?: number;
  /** The error the call failed with (set before the `error` event). Its message is redacted. */
  error?: unknown;
}

/** Published on {@link TRACE_STEP_CHANNELS}.attempt when one HTTP attempt ends. */
export interface AttemptTraceEvent {
  /** The operation's context `id`. */
  callId: number;
  /** The operation. */
  operation: OperationName;
  /** 1 for the first attempt. */
  attempt: number;
  /** HTTP status, when a response arrived. */
  status?: number;
  /** `response`, or what went wrong before one arrived. */
  outcome: 'response' | 'timeout' | 'connection_error' | 'aborted' | 'error';
  /** Milliseconds the attempt took. */
  durationMs: number;
}

/** Published on {@link TRACE_STEP_CHANNELS}.retry before the SDK waits and sends again. */
export interface RetryTraceEvent {
  /** The operation's context `id`. */
  callId: number;
  /** The operation. */
  operation: OperationName;
  /** The attempt that failed (1-based). */
  attempt: number;
  /** Why: `status 503`, `timeout`, `connection error`, `token exchange failed`, ... */
  reason: string;
  /** Milliseconds the SDK waits first. */
  delayMs: number;
}

/** Published on {@link TRACE_STEP_CHANNELS}.lookup when a create's recovery lookup ends. */
export interface LookupTraceEvent {
  /** The operation's context `id`. */
  callId: number;
  /** The operation (a create). */
  operation: OperationName;
  /** 1 for the first lookup of this call. */
  lookup: number;
  /** Whether the lookup found the object the create made. */
  found: boolean;
  /** Milliseconds the lookup took. */
  durationMs: number;
}

/** What HttpCore reports while a call runs; a no-op when nobody listens. */
export interface CallTrace {
  /** An attempt ended with a response (`status`) or an error. */
  attempt(attempt: number, result: { status: number } | { error: unknown }, durationMs: number): void;
  /** The call will wait `delayMs` and send again after `attempt` failed with `error`. */
  retry(attempt: number, error: unknown, delayMs: number): void;
  /** A recovery lookup ended. */
  lookup(found: boolean, durationMs: number): void;
  /** Reports attempt number `attempt` when `pending` (the attempt's response) settles; passes it through. */
  measure<R extends { status: number }>(attempt: number, pending: Promise<R>): Promise<R>;
}

const NO_TRACE: CallTrace = {
  attempt() {},
  retry() {},
  lookup() {},
  measure: (_attempt, pending) => pending,
};

/** Times each call of a create's recovery `lookup` and reports it on `trace`; `undefined` stays so. */
export function traceLookup<A extends unknown[], T>(
  lookup: (...args: A) => Promise<T | undefined>,
  trace: CallTrace,
): (...args: A) => Promise<T | undefined> {
  if (trace === NO_TRACE) return lookup;
  return async (...args) => {
    const started = performance.now();
    try {
      const found = await lookup(...args);
      trace.lookup(found !== undefined, performance.now() - started);
      return found;
    } catch (error) {
      trace.lookup(false, performance.now() - started);
      throw error;
    }
  };
}

type OperationChannel = TracingChannel<object, OperationTraceContext>;
type StepChannel = Pick<Channel, 'hasSubscribers' | 'publish'>;

interface Diagnostics {
  channel(name: string): Channel;
  tracingChannel?: (name: string) => OperationChannel;
}

// Reached through the runtime, not imported: where `node:diagnostics_channel` is absent (workerd,
// Vercel Edge) the core still loads, and publishes nothing.
function builtinDiagnostics(): Diagnostics | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const found = process?.getBuiltinModule?.('node:diagnostics_channel');
  return typeof (found as Partial<Diagnostics> | undefined)?.channel === 'function'
    ? (found as Diagnostics)
    : undefined;
}

const diagnostics = builtinDiagnostics();
const silent: StepChannel = { hasSubscribers: false, publish: () => {} };
const stepChannel = (name: string): StepChannel => diagnostics?.channel(name) ?? silent;
// Runtimes without tracingChannel (older ones) simply get no tracing.
const tracingChannel = diagnostics?.tracingChannel?.bind(diagnostics);
const operationChannels = new Map<OperationName, OperationChannel>();
const stepChannels = {
  attempt: stepChannel(TRACE_STEP_CHANNELS.attempt),
  retry: stepChannel(TRACE_STEP_CHANNELS.retry),
  lookup: stepChannel(TRACE_STEP_CHANNELS.lookup),
  alert: stepChannel(TRACE_STEP_CHANNELS.alert),
};
let nextId = 1;

function channelOf(operation: OperationName): OperationChannel | undefined {
  if (!tracingChannel) return undefined;
  let channel = operationChannels.get(operation);
  if (!channel) {
    channel = tracingChannel(channelNameOf(operation));
    operationChannels.set(operation, channel);
  }
  return channel;
}

// TracingChannel.hasSubscribers is missing on some runtimes (Bun): ask its five channels.
function watched(channel: OperationChannel): boolean {
  return (
    channel.start.hasSubscribers ||
    channel.end.hasSubscribers ||
    channel.asyncStart.hasSubscribers ||
    channel.asyncEnd.hasSubscribers ||
    channel.error.hasSubscribers
  );
}

/** A short reason for a failed attempt: a status, `timeout`, `connection error`, never a message. */
export function retryReason(error: unknown): string {
  if (error instanceof APIError) return `status ${error.status}`;
  if (error instanceof APIConnectionTimeoutError) return 'timeout';
  if (error instanceof APIConnectionError)
    return error.requestNotSent ? 'connection error (not sent)' : 'connection error';
  if (error instanceof ResponseValidationError) return 'unreadable response';
  return error instanceof Error ? error.name : 'error';
}

function outcomeOf(error: unknown): AttemptTraceEvent['outcome'] {
  if (error instanceof APIConnectionTimeoutError) return 'timeout';
  if (error instanceof APIConnectionError) return 'connection_error';
  if (error instanceof APIUserAbortError) return 'aborted';
  return 'error';
}

function templateOf(path: string): string {
  // An absolute URL (a pre-signed PDF link) keeps only its path: its query is the signature.
  if (/^https?:\/\//.test(path)) return new URL(path).pathname;
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}

/**
 * Runs one call under its operation's tracing channel. `run` gets the {@link CallTrace} to report
 * attempts, retries and lookups on. With no subscriber anywhere, `run` is called directly.
 */
export function traceCall<T>(
  call: { operation: OperationName; method: 'GET' | 'POST'; path: string; clientId?: string | undefined },
  run: (trace: CallTrace) => Promise<T>,
): Promise<T> {
  const channel = channelOf(call.operation);
  const stepsWatched =
    stepChannels.attempt.hasSubscribers ||
    stepChannels.retry.hasSubscribers ||
    stepChannels.lookup.hasSubscribers;
  if (!(channel && watched(channel)) && !stepsWatched) return run(NO_TRACE);

  const context: OperationTraceContext = {
    id: nextId++,
    operation: call.operation,
    method: call.method,
    path: templateOf(call.path),
    attempts: 0,
    retries: [],
    lookups: 0,
    recovered: false,
  };
  if (call.clientId !== undefined) context.clientId = call.clientId;
  const started = performance.now();
  const trace: CallTrace = {
    attempt(attempt, result, durationMs) {
      context.attempts = attempt;
      const event: AttemptTraceEvent = {
        callId: context.id,
        operation: context.operation,
        attempt,
        outcome: 'status' in result ? 'response' : outcomeOf(result.error),
        durationMs: Math.round(durationMs),
      };
      if ('status' in result) {
        context.status = result.status;
        event.status = result.status;
      } else if (result.error instanceof APIError) {
        context.status = result.error.status;
        event.status = result.error.status;
        event.outcome = 'response';
      }
      if (stepChannels.attempt.hasSubscribers) stepChannels.attempt.publish(event);
    },
    retry(attempt, error, delayMs) {
      const entry = { attempt, reason: retryReason(error), delayMs: Math.round(delayMs) };
      context.retries.push(entry);
      if (stepChannels.retry.hasSubscribers) {
        const event: RetryTraceEvent = { callId: context.id, operation: context.operation, ...entry };
        stepChannels.retry.publish(event);
      }
    },
    measure(attempt, pending) {
      const sent = performance.now();
      return pending.then(
        (response) => {
          trace.attempt(attempt, { status: response.status }, performance.now() - sent);
          return response;
        },
        (error: unknown) => {
          trace.attempt(attempt, { error }, performance.now() - sent);
          throw error;
        },
      );
    },
    lookup(found, durationMs) {
      context.lookups += 1;
      if (found) context.recovered = true;
      if (stepChannels.lookup.hasSubscribers) {
        const event: LookupTraceEvent = {
          callId: context.id,
          operation: context.operation,
          lookup: context.lookups,
          found,
          durationMs: Math.round(durationMs),
        };
        stepChannels.lookup.publish(event);
      }
    },
  };
  if (!channel) return run(trace);

  const settle = () => {
    context.durationMs = Math.round(performance.now() - started);
    channel.asyncStart.publish(context);
    channel.asyncEnd.publish(context);
  };
  return channel.start.runStores(context, () => {
    let pending: Promise<T>;
    try {
      pending = run(trace);
    } catch (error) {
      context.error = error;
      context.durationMs = Math.round(performance.now() - started);
      channel.error.publish(context);
      throw error;
    } finally {
      channel.end.publish(context);
    }
    return pending.then(
      (result) => {
        settle();
        return result;
      },
      (error: unknown) => {
        context.error = error;
        context.durationMs = Math.round(performance.now() - started);
        channel.error.publish(context);
        settle();
        throw error;
      },
    );
  });
}
