/**
 * `traceCall` on its own: the tracingChannel event order of a call that succeeds and one that
 * fails (Node's `tracePromise` order), the step events tied to the call by `callId`, the store
 * bound with `runStores` seen by nested calls, and nothing at all built without a subscriber.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type OperationTraceContext,
  retryReason,
  TRACE_STEP_CHANNELS,
  traceCall,
} from '../../src/core/observability/tracing.js';
import { APIConnectionTimeoutError, APIError, InternalServerError } from '../../src/index.js';
import { operationChannelName, type TracedOperation } from '../../src/resources/operations.js';

type Recorded = [string, Record<string, unknown>];

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Records every event of `operations` and the step channels, as [kind, snapshot] pairs. */
function record(operations: TracedOperation[]): Recorded[] {
  const events: Recorded[] = [];
  const snapshot = (context: OperationTraceContext) => {
    const { error, ...rest } = context;
    return structuredClone({ ...rest, ...(error === undefined ? {} : { error: (error as Error).name }) });
  };
  for (const operation of operations) {
    const channel = tracingChannel<unknown, OperationTraceContext>(operationChannelName(operation));
    const handlers = {
      start: (context: OperationTraceContext) => events.push([`${operation} start`, snapshot(context)]),
      end: (context: OperationTraceContext) => events.push([`${operation} end`, snapshot(context)]),
      asyncStart: (context: OperationTraceContext) =>
        events.push([`${operation} asyncStart`, snapshot(context)]),
      asyncEnd: (context: OperationTraceContext) => events.push([`${operation} asyncEnd`, snapshot(context)]),
      error: (context: OperationTraceContext) => events.push([`${operation} error`, snapshot(context)]),
    };
    channel.subscribe(handlers);
    cleanups.push(() => channel.unsubscribe(handlers));
  }
  for (const [kind, name] of Object.entries(TRACE_STEP_CHANNELS)) {
    const listener = (message: unknown) =>
      events.push([kind, structuredClone(message as Record<string, unknown>)]);
    subscribe(name, listener);
    cleanups.push(() => unsubscribe(name, listener));
  }
  return events;
}

const kinds = (events: Recorded[]) => events.map(([kind]) => kind);

describe('traceCall', () => {
  it('publishes start, end, then the steps, then asyncStart and asyncEnd with the final context', async () => {
    const events = record(['reports.retrieve']);
    const result = await traceCall(
      { operation: 'reports.retrieve', method: 'GET', path: '/api/v1/reports/{reportId}' },
      async (trace) => {
        await Promise.resolve();
        trace.attempt(
          1,
          {
            error: new InternalServerError({
              status: 502,
              headers: {},
              body: undefined,
              method: 'GET',
              path: '/x',
            }),
          },
          12.4,
        );
        trace.retry(
          1,
          new InternalServerError({ status: 502, headers: {}, body: undefined, method: 'GET', path: '/x' }),
          480.2,
        );
        trace.attempt(2, { status: 200 }, 8.6);
        return 'data';
      },
    );
    expect(result).toBe('data');
    expect(kinds(events)).toEqual([
      'reports.retrieve start',
      'reports.retrieve end',
      'attempt',
      'retry',
      'attempt',
      'reports.retrieve asyncStart',
      'reports.retrieve asyncEnd',
    ]);
    const id = events[0]?.[1].id;
    expect(events[0]?.[1]).toEqual({
      id,
      operation: 'reports.retrieve',
      method: 'GET',
      path: '/api/v1/reports/{reportId}',
      attempts: 0,
      retries: [],
      lookups: 0,
      recovered: false,
    });
    expect(events.slice(2, 5).map(([, event]) => event)).toEqual([
      {
        callId: id,
        operation: 'reports.retrieve',
        attempt: 1,
        status: 502,
        outcome: 'response',
        durationMs: 12,
      },
      { callId: id, operation: 'reports.retrieve', attempt: 1, reason: 'status 502', delayMs: 480 },
      {
        callId: id,
        operation: 'reports.retrieve',
        attempt: 2,
        status: 200,
        outcome: 'response',
        durationMs: 9,
      },
    ]);
    const final = events[6]?.[1];
    expect(final).toMatchObject({
      id,
      attempts: 2,
      status: 200,
      retries: [{ attempt: 1, reason: 'status 502', delayMs: 480 }],
      lookups: 0,
      recovered: false,
    });
    expect(typeof final?.durationMs).toBe('number');
  });

  it('publishes error before asyncStart and asyncEnd when the call fails, and rethrows', async () => {
    const events = record(['applicantGroups.create']);
    const failure = new APIConnectionTimeoutError('Request timed out');
    await expect(
      traceCall(
        { operation: 'applicantGroups.create', method: 'POST', path: '/api/v1/applicant_groups' },
        async (trace) => {
          await Promise.resolve();
          trace.attempt(1, { error: failure }, 100);
          trace.lookup(false, 3);
          throw failure;
        },
      ),
    ).rejects.toBe(failure);
    expect(kinds(events)).toEqual([
      'applicantGroups.create start',
      'applicantGroups.create end',
      'attempt',
      'lookup',
      'applicantGroups.create error',
      'applicantGroups.create asyncStart',
      'applicantGroups.create asyncEnd',
    ]);
    expect(events[2]?.[1]).toMatchObject({ attempt: 1, outcome: 'timeout' });
    expect(events[2]?.[1]).not.toHaveProperty('status');
    expect(events[3]?.[1]).toMatchObject({ lookup: 1, found: false, durationMs: 3 });
    expect(events[4]?.[1]).toMatchObject({ error: 'APIConnectionTimeoutError', attempts: 1, lookups: 1 });
  });

  it('runs the call inside the stores bound to start, so nested calls see their parent', async () => {
    const parent = new AsyncLocalStorage<string>();
    const create = tracingChannel<string, OperationTraceContext>(
      operationChannelName('applicantGroups.create'),
    );
    create.start.bindStore(parent, (context) => `parent-${context.id}`);
    cleanups.push(() => create.start.unbindStore(parent));
    const seen: Array<string | undefined> = [];
    const nested = tracingChannel<unknown, OperationTraceContext>(operationChannelName('auth.exchange'));
    const ignore = () => {};
    const handlers = {
      start: () => void seen.push(parent.getStore()),
      end: ignore,
      asyncStart: ignore,
      asyncEnd: ignore,
      error: ignore,
    };
    nested.subscribe(handlers);
    cleanups.push(() => nested.unsubscribe(handlers));

    await traceCall(
      { operation: 'applicantGroups.create', method: 'POST', path: '/api/v1/applicant_groups' },
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return traceCall(
          { operation: 'auth.exchange', method: 'POST', path: '/api/v1/tenants/auth' },
          async () => 'token',
        );
      },
    );
    expect(seen).toEqual([expect.stringMatching(/^parent-\d+$/)]);
  });

  it('calls straight through, building nothing, when nobody subscribes', async () => {
    let traced: unknown;
    await traceCall(
      { operation: 'reports.downloadPdf', method: 'GET', path: 'https://files.test/r.pdf?sig=1' },
      async (trace) => {
        traced = trace;
        trace.attempt(1, { status: 200 }, 1);
      },
    );
    const again: unknown[] = [];
    await traceCall(
      { operation: 'reports.downloadPdf', method: 'GET', path: 'https://files.test/r.pdf?sig=2' },
      async (trace) => {
        again.push(trace);
      },
    );
    // The shared no-op: no context, no event objects.
    expect(again[0]).toBe(traced);
  });

  it('keeps a signed link to its path', async () => {
    const events = record(['reports.downloadPdf']);
    await traceCall(
      { operation: 'reports.downloadPdf', method: 'GET', path: 'https://files.test/r.pdf?signature=abc' },
      async () => {},
    );
    expect(events[0]?.[1].path).toBe('/r.pdf');
  });

  it('gives retry reasons without messages', () => {
    expect(
      retryReason(
        APIError.from({
          status: 429,
          headers: {},
          body: { message: 'slow down, ada@example.com' },
          method: 'GET',
          path: '/',
        }),
      ),
    ).toBe('status 429');
    expect(retryReason(new APIConnectionTimeoutError('x'))).toBe('timeout');
  });
});
