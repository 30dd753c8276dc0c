/**
 * `createMockApi`: one stateful fake of the whole API, as msw handlers plus the controls a test
 * uses to drive and inspect it (clock, outbox, faults, life cycle, reports, deliveries).
 */
import { setMaxListeners } from 'node:events';
import type { HttpHandler } from 'msw';
import { createTokenAuthority } from './auth.js';
import { createClock, type MockClock } from './clock.js';
import type { MockContext } from './context.js';
import {
  createGroupViews,
  createReportControls,
  type GroupViews,
  type ReadonlyMockState,
  type ReportControls,
} from './controls.js';
import { createFaults, type MockFaults } from './faults.js';
import { createHandlers } from './handlers.js';
import { type ApplicantControls, createApplicantControls } from './lifecycle.js';
import { createOutbox, type Outbox } from './outbox.js';
import { createRandom } from './random.js';
import { createStats, type RequestStats } from './stats.js';
import { MockStore } from './store.js';
import {
  createWebhookDeliverer,
  DEFAULT_WEBHOOK_RETRY,
  type Deliveries,
  type WebhookRetryOptions,
} from './webhooks.js';

/** Default base URL of in-process mocks. */
export const DEFAULT_BASE_URL = 'http://mock.verification.test';
/** Default (fake) client id of the mock. */
export const DEFAULT_CLIENT_ID = 'mock-client-id';
/** Default (fake) secret key of the mock; it also signs tokens, PDF links and webhooks. */
export const DEFAULT_SECRET_KEY = 'mock-secret-key';
/** Default page size of the applicant-group list (the spec leaves it open). */
export const DEFAULT_PAGE_SIZE = 25;

/** Options of {@link createMockApi}. */
export interface MockApiOptions {
  /** Origin the handlers answer on (default `http://mock.verification.test`). */
  baseUrl?: string;
  /** Seed of every generated id, token id and report figure (default 1). */
  seed?: number;
  /** Client id accepted by the auth endpoint (default `mock-client-id`). */
  clientId?: string;
  /** Secret key accepted by the auth endpoint (default `mock-secret-key`). */
  secretKey?: string;
  /** Applicant groups per list page (default 25). */
  pageSize?: number;
  /** Start of the mock clock (default 2026-01-15T12:00:00Z). */
  startTime?: number | Date;
  /** Webhook retry policy (default 3 attempts, 50 ms doubling). */
  webhookRetry?: Partial<WebhookRetryOptions>;
}

/** Everything a test drives and inspects the mock through, shared by the msw and server modes. */
export interface MockControls {
  /** Client id the auth endpoint accepts. */
  clientId: string;
  /** Secret key the auth endpoint accepts; also the webhook signing key. */
  secretKey: string;
  /** The mock clock: move time with `advance()` instead of sleeping. */
  clock: MockClock;
  /** Invitations "sent" by creates. */
  outbox: Outbox;
  /** Fault injection for the next requests. */
  faults: MockFaults;
  /** Life cycle of applicants and screenings: start, complete, reopen. */
  applicants: ApplicantControls;
  /** Reports held, and report expiry. */
  reports: ReportControls;
  /** Webhook deliveries; `await deliveries.settled()` before asserting on them. */
  deliveries: Deliveries;
  /** The groups held, in wire form. */
  groups: GroupViews;
  /** The raw records held (read-only). */
  state: ReadonlyMockState;
  /** Requests received, per route. */
  stats: RequestStats;
}

/** A mock API for in-process use with msw. */
export interface MockApi extends MockControls {
  /** msw handlers answering on absolute URLs under {@link MockApi.baseUrl}. */
  handlers: HttpHandler[];
  /** Origin of the handlers, without a trailing slash. */
  baseUrl: string;
  /** Stops webhook retries and releases their sockets. */
  close(): Promise<void>;
}

/** Internal wiring options, not part of the public API. */
export interface MockApiInternals {
  /** Set by the node:http adapter, which can truncate response bodies. */
  socketControl: boolean;
}

/** Builds a mock API; `internals` lets the node:http adapter enable socket-level faults. */
export function buildMockApi(
  options: MockApiOptions = {},
  internals: MockApiInternals = { socketControl: false },
): MockApi {
  const seed = options.seed ?? 1;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(`pageSize must be an integer >= 1, got ${pageSize}`);
  const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
  const secretKey = options.secretKey ?? DEFAULT_SECRET_KEY;
  const clock = createClock(options.startTime);
  const outbox = createOutbox();
  const faults = createFaults();
  const stats = createStats();
  const store = new MockStore();
  const deliveries = createWebhookDeliverer(secretKey, { ...DEFAULT_WEBHOOK_RETRY, ...options.webhookRetry });
  const closing = new AbortController();
  // Every delayed response listens for close; many concurrent latency faults are normal here.
  setMaxListeners(0, closing.signal);

  const context: MockContext = {
    baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    clientId,
    secretKey,
    pageSize,
    clock,
    // Separate streams, so extra requests (retries, auth) never shift the ids of later entities.
    ids: createRandom(seed, 0),
    reportRandom: createRandom(seed, 2),
    store,
    outbox,
    emit: (url, event) => {
      if (url) deliveries.enqueue(url, event);
    },
  };
  const tokens = createTokenAuthority({ clientId, secretKey, clock, random: createRandom(seed, 1) });
  const handlers = createHandlers(context, tokens, {
    clock,
    faults,
    stats,
    requestIds: createRandom(seed, 3),
    socketControl: internals.socketControl,
    closing: closing.signal,
  });

  return {
    handlers,
    baseUrl: context.baseUrl,
    clientId,
    secretKey,
    clock,
    outbox: { all: outbox.all, forGroup: outbox.forGroup, count: outbox.count, clear: outbox.clear },
    faults: { next: faults.next, clear: faults.clear, pending: faults.pending },
    applicants: createApplicantControls(context),
    reports: createReportControls(context),
    deliveries: { all: deliveries.all, settled: deliveries.settled, clear: deliveries.clear },
    groups: createGroupViews(context),
    state: store,
    stats: { count: stats.count, routes: stats.routes, log: stats.log, reset: stats.reset },
    async close() {
      closing.abort();
      await deliveries.close();
    },
  };
}

/**
 * Creates a stateful fake of the whole API as msw handlers, for in-process tests:
 *
 * ```ts
 * const mock = createMockApi({ seed: 1 });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * // point a client at mock.baseUrl with `fetch: globalThis.fetch`
 * ```
 */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  return buildMockApi(options);
}
