/**
 * The mock's framework-free core: one stateful fake of the whole API as a function from a
 * web-standard `Request` to a `Response`, plus the controls a test drives and inspects it with
 * (clock, outbox, faults, life cycle, reports, deliveries, reset). The adapters are thin: the
 * node:http server (server.ts), the bin, `mock.fetch` (fetch.ts) and the msw handlers (msw.ts,
 * the only module that imports msw).
 */
import { setMaxListeners } from 'node:events';
import type { VerificationClient } from 'applicant-verification';
import { type MockAccount, resolveAccounts } from '../accounts/accounts.js';
import { AUTH_PATH, authBodyClientId, createTokenAuthority } from '../accounts/auth.js';
import { consoleRoutes } from '../console/console-routes.js';
import { CONTROL_PREFIX, createControlRoutes } from '../controls/control-api.js';
import { createGroupViews, createReportControls } from '../controls/controls.js';
import { createMockClients, type MockClientOptions } from '../controls/mock-clients.js';
import type { MockControls } from '../controls/mock-controls.js';
import { createFaults } from '../faults/faults.js';
import { mintPdfUrl } from '../reports/reports.js';
import { createClock, createTickingClock, wholeMilliseconds } from '../state/clock.js';
import type { MockContext } from '../state/context.js';
import { createApplicantControls } from '../state/lifecycle.js';
import { createOutbox } from '../state/outbox.js';
import { createRandom } from '../state/random.js';
import { createStats } from '../state/stats.js';
import { MockStore } from '../state/store.js';
import { createWebhookFaults } from '../webhooks/webhook-faults.js';
import {
  createWebhookDeliverer,
  DEFAULT_WEBHOOK_RETRY,
  type WebhookRetryOptions,
} from '../webhooks/webhooks.js';
import { MAX_BODY_BYTES, readLimitedBody } from './body.js';
import { createMockFetch } from './fetch.js';
import { type PipelineDeps, runPipeline } from './pipeline.js';
import { errorResponse } from './responses.js';
import { allowedMethods, createRouter } from './router.js';
import { createApiRoutes } from './routes.js';
import { methodNotAllowed } from './strict.js';

export type { MockControls } from '../controls/mock-controls.js';

/**
 * Default base URL of in-process mocks (`mock.fetch`, msw). `https:`, as the real API: the SDK
 * downloads a PDF link only over https (or http from a loopback API), and the mock mints its
 * links under this origin.
 */
export const DEFAULT_BASE_URL = 'https://mock.verification.test';
/** Default (fake) client id of the mock. */
export const DEFAULT_CLIENT_ID = 'mock-client-id';
/** Default (fake) secret key of the mock; it also signs its tokens, PDF links and webhooks. */
export const DEFAULT_SECRET_KEY = 'mock-secret-key';
/** Default page size of the applicant-group list (the vendor's documentation does not say; docs/wire-contract.md §4.1). */
export const DEFAULT_PAGE_SIZE = 25;

/** Options of {@link createMockApi}. */
export interface MockApiOptions {
  /** Origin the mock answers on and mints PDF links under (default `https://mock.verification.test`). */
  baseUrl?: string;
  /** Seed of every generated id, token id and report figure (default 1). */
  seed?: number;
  /** Client id accepted by the auth endpoint (default `mock-client-id`): the mock's one account. Not with `accounts`. */
  clientId?: string;
  /** Secret key accepted by the auth endpoint (default `mock-secret-key`). Not with `accounts`. */
  secretKey?: string;
  /**
   * The accounts the mock serves, instead of `clientId` / `secretKey`: each sees only its own
   * groups, reports and screening groups (another account's id answers 404 as an unknown one
   * does), lists only its own, and its webhooks are signed with its `webhookSecret` (default: its
   * secret key). One clock serves them all. The first is the default account of `mock.clientId`,
   * `mock.secretKey` and `mock.client()`.
   */
  accounts?: readonly MockAccount[];
  /** Applicant groups per list page (default 25). */
  pageSize?: number;
  /**
   * Where the mock clock starts (epoch ms or a `Date`). Default: the real current time, so groups
   * it creates look as recent as they are to code comparing with today (create recovery does).
   * Pin it (`DEFAULT_START_TIME`, say) for output that is the same on every run.
   */
  now?: number | Date;
  /** @deprecated Use `now`. */
  startTime?: number | Date;
  /**
   * Whether the mock clock ticks with real time from `now` (default `false`: it moves only when a
   * test moves it, which `createTestClock` and `mock.client()` build on). `true` ticks with
   * `performance.now()`, as the bin does; a function is the monotonic milliseconds to tick with,
   * so a test can age a ticking mock by minutes without waiting them. `advance`/`set` shift a
   * ticking clock, which keeps ticking from there.
   */
  ticking?: boolean | (() => number);
  /** Webhook retry policy (default 3 attempts, 50 ms doubling). */
  webhookRetry?: Partial<WebhookRetryOptions>;
  /**
   * How webhook deliveries are sent: a `fetch` called for every attempt (a POST of the signed
   * body, redirects not followed). Default: undici on a private agent, over the real network even
   * while msw intercepts `fetch`; the msw entry's `createMockApi` defaults to `globalThis.fetch`,
   * read at each attempt, so an msw handler can be the receiver (docs/testing.md, "Webhooks
   * under msw"). An in-process receiver is a function: `(url, init) => receiver(new Request(url, init))`.
   */
  webhookFetch?: typeof fetch;
  /**
   * How the mock reads an applicant-group create's `monthly_rent`: `'dollars'` (default, the
   * interface spec) or `'cents'` (the service's own reference), to try a client's `apiRentUnit`
   * against either. Screening groups always take dollars.
   */
  apiRentUnit?: 'dollars' | 'cents';
  /**
   * Hold requests to the OpenAPI document (default `false`: tolerant, as the real service may be).
   * Strict, a body key the document does not name is 400 (with a did-you-mean), as are enum
   * violations, nulls in non-nullable fields and wrong types; a JSON body under another content
   * type is 415; a known path asked with a method it does not serve is 405 with `Allow`. Meant for
   * a test suite: a client that passes a strict mock sends nothing the contract does not describe.
   */
  strict?: boolean;
  /**
   * Serve the console, a page for people at `/__mock/console` (default `false`; the bin serves it
   * on a loopback host): the groups and applicants, the outbox, the webhook deliveries, the
   * reports and the clock, live, with buttons that call the control API (docs/testing.md, "The
   * console"). Off, the page answers 404; `GET /__mock/snapshot`, what it reads, is served either way.
   */
  console?: boolean;
}

/** A mock API: the core every adapter serves, with its controls. */
export interface MockApi extends MockControls {
  /** Origin the mock answers on and mints PDF links under, without a trailing slash. */
  baseUrl: string;
  /**
   * The core: answers one request. A network error (an injected reset or truncation) is
   * `Response.error()` (`type === 'error'`); adapters turn it into their transport's failure.
   */
  handle(request: Request): Promise<Response>;
  /**
   * An in-process `fetch` over the core, no sockets: pass it as the SDK's `fetch` option with
   * `baseURL: mock.baseUrl`. Injected resets and truncations reject with a `TypeError`, as
   * fetch does on a network error; an aborted signal rejects with its reason.
   */
  fetch: typeof fetch;
  /**
   * A `VerificationClient` wired to this mock: its URL and credentials, its `fetch` (in process),
   * the mock's clock as the client's `clock` (`createTestClock(mock.clock)`: the SDK's waits are
   * jumps of the mock clock; a ticking mock's clients wait in real time) and a coordination of
   * the mock's own on that clock, shared by the clients it makes (as the clients of one process
   * share theirs) and cleared by {@link MockApi.reset}. `options` override any of these;
   * `options.account` (a client id) gives a client of that account instead of the first.
   * {@link MockApi.close} closes the clients it made.
   *
   * ```ts
   * const mock = createMockApi();
   * const client = mock.client();
   * const group = await client.applicantGroups.create(body);
   * ```
   */
  client(options?: MockClientOptions): VerificationClient;
  /**
   * Back to the seeded state: no groups, reports, invitations, faults or counts; the clock at its
   * start (a ticking clock: at its start plus the real time since, as if never moved); the leases
   * and recorded create outcomes of the clients from {@link MockApi.client} forgotten.
   */
  reset(): void;
  /** Closes the clients from {@link MockApi.client}, stops webhook retries and releases their sockets. */
  close(): Promise<void>;
}

/** How the clients of {@link buildMockApi}'s `client()` reach the mock (set by the adapter). */
export interface MockApiTransport {
  /** `'fetch'` (default): through `mock.fetch`, in process. `'http'`: over real HTTP to the base URL. */
  clientsOver: 'fetch' | 'http';
}

/** Builds a mock API (the core and its controls). */
export function buildMockApi(
  options: MockApiOptions = {},
  transport: MockApiTransport = { clientsOver: 'fetch' },
): MockApi {
  const seed = options.seed ?? 1;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(`pageSize must be an integer >= 1, got ${pageSize}`);
  const rentUnit = options.apiRentUnit ?? 'dollars';
  if (rentUnit !== 'dollars' && rentUnit !== 'cents')
    throw new RangeError(`apiRentUnit must be 'dollars' or 'cents', got ${String(rentUnit)}`);
  const accounts = resolveAccounts(options, { clientId: DEFAULT_CLIENT_ID, secretKey: DEFAULT_SECRET_KEY });
  const { clientId, secretKey } = accounts.first;
  const startTime = options.now ?? options.startTime ?? Date.now();
  const ticking = options.ticking ?? false;
  if (typeof ticking !== 'boolean' && typeof ticking !== 'function')
    throw new TypeError(`ticking must be a boolean or a function, got ${typeof ticking}`);
  const clock =
    ticking === false
      ? createClock(startTime)
      : createTickingClock(startTime, ticking === true ? undefined : ticking);
  // What the mock mints (link expiry, created_at, tokens) reads whole milliseconds.
  const mintingClock = wholeMilliseconds(clock);
  const outbox = createOutbox();
  const faults = createFaults();
  const stats = createStats();
  const store = new MockStore();
  const webhookFaults = createWebhookFaults();
  const deliveries = createWebhookDeliverer(
    (account) => accounts.webhookSecretOf(account),
    { ...DEFAULT_WEBHOOK_RETRY, ...options.webhookRetry },
    webhookFaults,
    options.webhookFetch,
  );
  const closing = new AbortController();
  // Every delayed response listens for close; many concurrent latency faults are normal here.
  setMaxListeners(0, closing.signal);
  // Separate streams, so extra requests (retries, auth) never shift the ids of later entities.
  const streams = {
    ids: createRandom(seed, 0),
    tokens: createRandom(seed, 1),
    reports: createRandom(seed, 2),
    requestIds: createRandom(seed, 3),
  };

  const context: MockContext = {
    baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    accounts,
    pageSize,
    rentUnit,
    clock: mintingClock,
    ids: streams.ids,
    reportRandom: streams.reports,
    store,
    outbox,
    emit: (group, event) => {
      if (group.webhookUrl) deliveries.enqueue(group.webhookUrl, event, group.account);
    },
  };
  const tokens = createTokenAuthority({ accounts, clock: mintingClock, random: streams.tokens });
  const deps: PipelineDeps = {
    clock: mintingClock,
    faults,
    stats,
    requestIds: streams.requestIds,
    closing: closing.signal,
    accountOf: ({ request, url, body }) =>
      url.pathname === AUTH_PATH
        ? authBodyClientId(body)
        : tokens.claimedAccount(request.headers.get('authorization')),
  };
  const fetchCore = createMockFetch(handle);
  const clients = createMockClients({
    clock,
    ticking: ticking !== false,
    accounts,
    connection: {
      baseURL: context.baseUrl,
      ...(transport.clientsOver === 'fetch'
        ? { fetch: fetchCore, allowInsecureHttp: new URL(context.baseUrl).protocol === 'http:' }
        : {}),
    },
  });

  const controls: MockControls & { reset(): void } = {
    clientId,
    secretKey,
    accounts: [...accounts.byId.values()].map((account) => ({ ...account })),
    clock,
    outbox: { all: outbox.all, forGroup: outbox.forGroup, count: outbox.count, clear: outbox.clear },
    faults: { next: faults.next, clear: faults.clear, pending: faults.pending },
    applicants: createApplicantControls(context),
    reports: createReportControls(context),
    deliveries: {
      all: deliveries.all,
      settled: deliveries.settled,
      clear: deliveries.clear,
      redeliver: deliveries.redeliver,
    },
    webhookFaults: { next: webhookFaults.next, clear: webhookFaults.clear, pending: webhookFaults.pending },
    groups: createGroupViews(context),
    state: store,
    stats: {
      count: stats.count,
      summary: stats.summary,
      routes: stats.routes,
      log: stats.log,
      reset: stats.reset,
    },
    reset() {
      store.clear();
      outbox.clear();
      faults.clear();
      webhookFaults.clear();
      stats.reset();
      deliveries.clear();
      clock.reset();
      clients.reset();
      for (const stream of Object.values(streams)) stream.reset();
    },
  };
  const strict = options.strict === true;
  const apiRoutes = createApiRoutes(context, tokens, strict);
  const apiRoute = createRouter(apiRoutes);
  const controlRoute = createRouter([
    ...consoleRoutes({
      controls,
      serve: options.console === true,
      pdfUrl: (reportId) => {
        const report = store.report(reportId);
        return report && mintPdfUrl(context, report.id, report.account);
      },
    }),
    ...createControlRoutes(controls),
  ]);

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const isControl = url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const body = hasBody ? await readLimitedBody(request) : { ok: true as const, text: '' };
    if (!body.ok) {
      return errorResponse(413, `Request bodies are limited to ${MAX_BODY_BYTES} bytes`, {
        code: 'payload_too_large',
      });
    }
    const match = (isControl ? controlRoute : apiRoute)(request.method, url.pathname);
    if (!match) return errorResponse(404, `No route for ${request.method} ${url.pathname}`);
    const input = { request, url, params: match.params, body: body.text };
    // Control requests bypass the pipeline: they take no fault and count in no stats.
    if (!isControl) {
      const allow = strict ? allowedMethods(apiRoutes, url.pathname) : [];
      if (allow.length > 0 && !allow.includes(request.method.toUpperCase())) {
        const refuse = () => methodNotAllowed(request.method, url.pathname, allow);
        return runPipeline(deps, match.key, input, refuse);
      }
      return runPipeline(deps, match.key, input, match.target);
    }
    try {
      return await match.target(input);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return errorResponse(500, `The mock failed to handle the control request: ${message}`);
    }
  }

  return {
    ...controls,
    baseUrl: context.baseUrl,
    handle,
    fetch: fetchCore,
    client: clients.client,
    async close() {
      closing.abort();
      await Promise.all([clients.close(), deliveries.close()]);
    },
  };
}

/**
 * Creates a stateful fake of the whole API for in-process tests, without sockets and without
 * msw: point the SDK at it with its `fetch` option.
 *
 * ```ts
 * const mock = createMockApi({ seed: 1 });
 * const client = mock.client(); // or by hand:
 * const same = new VerificationClient({
 *   baseURL: mock.baseUrl, clientId: mock.clientId, secretKey: mock.secretKey,
 *   fetch: mock.fetch, clock: createTestClock(mock.clock),
 * });
 * ```
 *
 * For msw's `setupServer`, `applicant-verification/testing/msw` adds `handlers`.
 */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  return buildMockApi(options);
}
