/**
 * `applicant-verification/testing/msw`: the mock as msw request handlers, for suites that use
 * msw's `setupServer`. The only module of the testing kit that imports msw (an optional peer
 * dependency), so `createMockServer`, the bin and `mock.fetch` work without msw installed.
 * @packageDocumentation
 * @module applicant-verification/testing/msw
 */
import { type HttpHandler, HttpResponse, http } from 'msw';
import { createMockApi as createCoreMockApi, type MockApi, type MockApiOptions } from './server/api.js';
import { TRUNCATE_MARKER } from './server/pipeline.js';

/** A mock API with msw handlers. */
export interface MswMockApi extends MockApi {
  /** msw handlers answering every request under {@link MockApi.baseUrl}. */
  handlers: HttpHandler[];
}

/**
 * msw handlers over a mock's core: one catch-all handler under the mock's base URL. Injected
 * resets and truncations become `HttpResponse.error()`, msw's network error.
 */
export function mockHandlers(mock: Pick<MockApi, 'baseUrl' | 'handle'>): HttpHandler[] {
  const answer = async ({ request }: { request: Request }): Promise<Response> => {
    const response = await mock.handle(request);
    if (response.type === 'error' || response.headers.has(TRUNCATE_MARKER)) return HttpResponse.error();
    return response;
  };
  return [http.all(`${mock.baseUrl}/*`, answer), http.all(mock.baseUrl, answer)];
}

/**
 * Creates a mock API with msw handlers, for in-process tests with msw:
 *
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockApi } from 'applicant-verification/testing/msw';
 * const mock = createMockApi({ seed: 1 });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * // point a client at mock.baseUrl (https://mock.verification.test) with `fetch: globalThis.fetch`
 * ```
 *
 * `mock.client()` works here too, but sends through `mock.fetch`, around msw.
 *
 * Webhook deliveries go through `globalThis.fetch`, read at each attempt, so msw intercepts them:
 * the receiver is an msw handler (`http.post('https://receiver.example.test/hooks', ...)`), or a
 * host your `onUnhandledRequest` lets through. `webhookFetch` overrides it.
 */
export function createMockApi(options: MockApiOptions = {}): MswMockApi {
  const mock = createCoreMockApi({
    webhookFetch: (input, init) => globalThis.fetch(input, init),
    ...options,
  });
  return Object.assign(mock, { handlers: mockHandlers(mock) });
}

export type { MockApi, MockApiOptions } from './server/api.js';
