/**
 * OpenTelemetry spans from the SDK's `diagnostics_channel` events, end to end against the
 * embedded mock server:
 *
 *   npx tsx examples/opentelemetry.ts
 *
 * Each SDK operation becomes a span (a nested one, such as the token exchange or a recovery
 * lookup inside a create, becomes a child); attempts, retries and lookups become span events.
 * The SDK itself has no OpenTelemetry dependency: it publishes on Node's channels and this file
 * subscribes. Here the spans go to an in-memory exporter and are printed; in production register
 * your usual exporter (OTLP, ...) instead.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe, tracingChannel } from 'node:diagnostics_channel';
import { type Attributes, context, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  type AttemptTraceEvent,
  type LookupTraceEvent,
  type OperationTraceContext,
  operationChannelName,
  type RetryTraceEvent,
  TRACE_STEP_CHANNELS,
  TRACED_OPERATIONS,
  VerificationClient,
} from 'applicant-verification';
import { createMockServer } from 'applicant-verification/testing';

// --- OpenTelemetry set-up (yours will export to a collector) -----------------------------------
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(provider);
const tracer = trace.getTracer('applicant-verification');

// --- The bridge: SDK channels -> spans ----------------------------------------------------------
/** The span of the operation running in this async context: the parent of nested operations. */
const currentSpan = new AsyncLocalStorage<Span>();
const spans = new Map<number, Span>();

function finish(operation: OperationTraceContext): void {
  const span = spans.get(operation.id);
  if (!span) return;
  const attributes: Attributes = {
    'verification.attempts': operation.attempts,
    'verification.retries': operation.retries.length,
    'verification.lookups': operation.lookups,
    'verification.recovered': operation.recovered,
  };
  if (operation.status !== undefined) attributes['http.response.status_code'] = operation.status;
  span.setAttributes(attributes);
  span.end();
  spans.delete(operation.id);
}

for (const operation of TRACED_OPERATIONS) {
  const channel = tracingChannel<Span, OperationTraceContext>(operationChannelName(operation));
  // Runs as the operation starts; the store makes this span the parent of operations nested in it.
  channel.start.bindStore(currentSpan, (started) => {
    const parent = currentSpan.getStore();
    const span = tracer.startSpan(
      `applicant-verification ${started.operation}`,
      { attributes: { 'http.request.method': started.method, 'url.path': started.path } },
      parent ? trace.setSpan(context.active(), parent) : context.active(),
    );
    spans.set(started.id, span);
    return span;
  });
  channel.subscribe({
    start() {},
    end() {},
    asyncStart() {},
    asyncEnd: finish,
    error(failed) {
      const span = spans.get(failed.id);
      if (failed.error instanceof Error) span?.recordException(failed.error);
      span?.setStatus({
        code: SpanStatusCode.ERROR,
        message: failed.error instanceof Error ? failed.error.name : 'error',
      });
    },
  });
}
subscribe(TRACE_STEP_CHANNELS.attempt, (message) => {
  const event = message as AttemptTraceEvent;
  spans.get(event.callId)?.addEvent('attempt', {
    attempt: event.attempt,
    outcome: event.outcome,
    ...(event.status === undefined ? {} : { status: event.status }),
    duration_ms: event.durationMs,
  });
});
subscribe(TRACE_STEP_CHANNELS.retry, (message) => {
  const event = message as RetryTraceEvent;
  spans.get(event.callId)?.addEvent('retry', { attempt: event.attempt, reason: event.reason });
});
subscribe(TRACE_STEP_CHANNELS.lookup, (message) => {
  const event = message as LookupTraceEvent;
  spans.get(event.callId)?.addEvent('lookup', { lookup: event.lookup, found: event.found });
});

// --- The application -------------------------------------------------------------------------
const mock = await createMockServer({ seed: 3 });
const client = new VerificationClient({
  baseURL: mock.url,
  clientId: mock.clientId,
  secretKey: mock.secretKey,
  logLevel: 'error',
});

try {
  // The first create's connection drops after the server created the group: the SDK looks the
  // group up by correlation_id instead of sending the create again.
  mock.faults.next(1, { reset: 'after' }, { method: 'POST', path: '/api/v1/applicant_groups' });
  const group = await client.applicantGroups.create({
    applicants: [{ first_name: 'Ana', last_name: 'Silva', email: 'ana.silva@example.com' }],
    property: {
      name: 'Maple Court',
      street_address: '77 Maple Ave',
      city: 'Denver',
      state: 'Colorado',
      zip_code: '80203',
    },
    decision_maker_display_name: 'Maple Court Leasing',
    monthly_rent: 1950,
    correlation_id: 'otel-demo-1',
  });
  // A read that meets a 503 once and is retried.
  mock.faults.next(
    1,
    { status: 503, retryAfterMs: 20 },
    { method: 'GET', path: '/api/v1/applicant_groups/' },
  );
  await client.applicantGroups.listReports(group.id);
} finally {
  await client.close();
  await mock.close();
}

// --- What was exported ---------------------------------------------------------------------------
const finished = exporter.getFinishedSpans();
const byId = new Map(finished.map((span) => [span.spanContext().spanId, span]));
const depth = (span: ReadableSpan): number => {
  const parent = span.parentSpanContext?.spanId;
  const parentSpan = parent ? byId.get(parent) : undefined;
  return parentSpan ? depth(parentSpan) + 1 : 0;
};
const ordered = [...finished].sort((a, b) => {
  const [as, an] = a.startTime;
  const [bs, bn] = b.startTime;
  return as - bs || an - bn;
});
for (const span of ordered) {
  const attributes = span.attributes;
  console.log(
    `${'  '.repeat(depth(span))}${span.name} attempts=${attributes['verification.attempts']} status=${attributes['http.response.status_code'] ?? '-'} lookups=${attributes['verification.lookups']} recovered=${attributes['verification.recovered']}`,
  );
  for (const event of span.events) {
    const details = Object.entries(event.attributes ?? {})
      .filter(([name]) => name !== 'duration_ms')
      .map(([name, value]) => `${name}=${String(value)}`)
      .join(' ');
    console.log(`${'  '.repeat(depth(span) + 1)}- ${event.name} ${details}`);
  }
}
console.log(`${finished.length} spans exported`);
await provider.shutdown();
