/**
 * The SDK's tracing channels against the mock over loopback: the exact event sequence of a create
 * retried after a 429 (looked up before it is resent) and of a create recovered by its
 * correlation id after the connection dropped once the server had created the group; the nested
 * token exchange; and no secret, token or contact detail in any event.
 */
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type OperationTraceContext,
  operationChannelName,
  TRACE_STEP_CHANNELS,
  TRACED_OPERATIONS,
  type VerificationClient,
} from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { type RecordingClock, recordingClock } from '../support/clock.js';
import { expose } from '../support/exposure.js';
import { clientFor } from '../support/mock-client.js';

const GROUPS = '/api/v1/applicant_groups';

type Event = { kind: string } & Record<string, unknown>;

/** Subscribes to every operation and step channel; events are snapshots, durations dropped. */
function recordEvents(): { events: Event[]; stop(): void } {
  const events: Event[] = [];
  const stops: Array<() => void> = [];
  const snapshot = (kind: string, payload: Record<string, unknown>): Event => {
    const { durationMs: _durationMs, error, ...rest } = payload;
    const copy = structuredClone(rest);
    expose(JSON.stringify(copy));
    return { kind, ...copy, ...(error === undefined ? {} : { error: (error as Error).name }) };
  };
  for (const operation of TRACED_OPERATIONS) {
    const channel = tracingChannel<unknown, OperationTraceContext>(operationChannelName(operation));
    const on = (phase: string) => (context: OperationTraceContext) =>
      void events.push(snapshot(`${operation} ${phase}`, { ...context }));
    const handlers = {
      start: on('start'),
      end: on('end'),
      asyncStart: on('asyncStart'),
      asyncEnd: on('asyncEnd'),
      error: on('error'),
    };
    channel.subscribe(handlers);
    stops.push(() => channel.unsubscribe(handlers));
  }
  for (const [kind, name] of Object.entries(TRACE_STEP_CHANNELS)) {
    const listener = (message: unknown) =>
      void events.push(snapshot(kind, message as Record<string, unknown>));
    subscribe(name, listener);
    stops.push(() => unsubscribe(name, listener));
  }
  return {
    events,
    stop: () => {
      for (const stop of stops.splice(0)) stop();
    },
  };
}

/** The events with call ids replaced by the order their calls started in (1, 2, ...). */
function normalise(events: Event[]): Event[] {
  const order = new Map<unknown, number>();
  for (const event of events) {
    if (event.kind.endsWith(' start') && !order.has(event.id)) order.set(event.id, order.size + 1);
  }
  return events.map((event) => {
    const copy: Event = { ...event };
    if ('id' in copy) copy.id = order.get(copy.id);
    if ('callId' in copy) copy.callId = order.get(copy.callId);
    return copy;
  });
}

const body = (correlationId: string) => groupCreateBody('ana.silva@example.com', correlationId);

const createContext = (extra: Record<string, unknown>) => ({
  id: 1,
  operation: 'applicantGroups.create',
  method: 'POST',
  path: GROUPS,
  ...extra,
});

/** The create's synchronous start and end, before any attempt. */
const createOpened = () =>
  (['start', 'end'] as const).map((phase) => ({
    kind: `applicantGroups.create ${phase}`,
    ...createContext({ attempts: 0, retries: [], lookups: 0, recovered: false }),
  }));

/** The create's settling events, with its final context. */
const createSettled = (final: Record<string, unknown>) =>
  (['asyncStart', 'asyncEnd'] as const).map((phase) => ({
    kind: `applicantGroups.create ${phase}`,
    ...createContext(final),
  }));

/** An attempt event of the create (call 1). */
const createAttempt = (attempt: number, outcome: Record<string, unknown>) => ({
  kind: 'attempt',
  callId: 1,
  operation: 'applicantGroups.create',
  attempt,
  ...outcome,
});

const listCall = (id: number, found: boolean) => {
  const base = {
    id,
    operation: 'applicantGroups.list',
    method: 'GET',
    path: GROUPS,
    retries: [],
    lookups: 0,
    recovered: false,
  };
  return [
    { kind: 'applicantGroups.list start', ...base, attempts: 0 },
    { kind: 'applicantGroups.list end', ...base, attempts: 0 },
    {
      kind: 'attempt',
      callId: id,
      operation: 'applicantGroups.list',
      attempt: 1,
      status: 200,
      outcome: 'response',
    },
    { kind: 'applicantGroups.list asyncStart', ...base, attempts: 1, status: 200 },
    { kind: 'applicantGroups.list asyncEnd', ...base, attempts: 1, status: 200 },
    { kind: 'lookup', callId: 1, operation: 'applicantGroups.create', lookup: 1, found },
  ];
};

describe('tracing channels against the mock', () => {
  let mock: MockServer;
  let client: VerificationClient;
  let recorder: ReturnType<typeof recordEvents> | undefined;
  let clock: RecordingClock;

  beforeEach(async () => {
    mock = await createMockServer({ seed: 21 });
    clock = recordingClock();
    client = clientFor(mock, {
      clock,
    });
  });

  afterEach(async () => {
    recorder?.stop();
    recorder = undefined;
    await client.close();
    await mock.close();
  });

  it('traces a create retried after a 429: the lookup before the resend, then the second attempt', async () => {
    await client.auth.getToken();
    recorder = recordEvents();
    mock.faults.next(1, { status: 429, retryAfterMs: 300 }, { method: 'POST', path: GROUPS });
    await client.applicantGroups.create(body('trace-retried'));
    recorder.stop();

    const retry = { attempt: 1, reason: 'status 429', delayMs: 300 };
    const final = { attempts: 2, status: 200, retries: [retry], lookups: 1, recovered: false };
    expect(normalise(recorder.events)).toEqual([
      ...createOpened(),
      createAttempt(1, { status: 429, outcome: 'response' }),
      { kind: 'retry', callId: 1, operation: 'applicantGroups.create', ...retry },
      ...listCall(2, false),
      createAttempt(2, { status: 200, outcome: 'response' }),
      ...createSettled(final),
    ]);
    expect(mock.stats.count(`POST ${GROUPS}`)).toBe(2);
    // The traced delay is the wait taken: the server's 300 ms, once.
    expect(clock.waits).toEqual([retry.delayMs]);
  });

  it('traces a create recovered by correlation id after a reset: one attempt, one lookup, recovered', async () => {
    await client.auth.getToken();
    recorder = recordEvents();
    mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: GROUPS });
    const group = await client.applicantGroups.create(body('trace-recovered'));
    recorder.stop();

    expect(group.correlation_id).toBe('trace-recovered');
    const final = { attempts: 1, retries: [], lookups: 1, recovered: true };
    expect(normalise(recorder.events)).toEqual([
      ...createOpened(),
      createAttempt(1, { outcome: 'connection_error' }),
      ...listCall(2, true),
      ...createSettled(final),
    ]);
    expect(mock.stats.count(`POST ${GROUPS}`)).toBe(1);
  });

  it('nests the token exchange inside the first call, and reports a failure on the error event', async () => {
    recorder = recordEvents();
    await client.reports.retrieve('00000000-0000-4000-8000-000000000000').catch(() => undefined);
    recorder.stop();
    const kinds = normalise(recorder.events).map(
      (event) => `${event.kind}${'callId' in event ? ` #${event.callId}` : ''}`,
    );
    expect(kinds).toEqual([
      'reports.retrieve start',
      // The exchange starts in the synchronous part of the call, so before the call's own `end`.
      'auth.exchange start',
      'auth.exchange end',
      'reports.retrieve end',
      'attempt #2',
      'auth.exchange asyncStart',
      'auth.exchange asyncEnd',
      'attempt #1',
      'reports.retrieve error',
      'reports.retrieve asyncStart',
      'reports.retrieve asyncEnd',
    ]);
    const failed = recorder.events.find((event) => event.kind === 'reports.retrieve error');
    expect(failed).toMatchObject({ error: 'NotFoundError', status: 404, path: '/api/v1/reports/{reportId}' });
  });

  it('never puts a secret, a token or contact details in an event', async () => {
    recorder = recordEvents();
    mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: GROUPS });
    await client.applicantGroups.create(body('trace-clean'));
    recorder.stop();
    const text = JSON.stringify(recorder.events);
    const token = await client.auth.getToken();
    for (const secret of [
      mock.secretKey,
      mock.clientId,
      token,
      'ana.silva@example.com',
      '+14155550123',
      'Silva',
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
