/**
 * The edge entry (src/edge.ts) in process: the main entry's names, fetch instead of undici, and
 * clear errors for what needs Node. The same entry runs inside workerd and edge-runtime in
 * `npm run test:edge`; `npm run check:edge` proves its bundle imports no Node built-in.
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as edge from '../../src/edge.js';
import * as main from '../../src/index.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { backoffBefore, recordingClock } from '../support/clock.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ seed: 27 });
});
afterAll(async () => {
  await mock.close();
});

const GROUPS = '/api/v1/applicant_groups';

function credentials() {
  return { baseURL: mock.url, clientId: mock.clientId, secretKey: mock.secretKey };
}

/** An edge client on a recording clock, through a fetch that notes each request's method and path. */
function edgeClient() {
  const seen: string[] = [];
  const recordingFetch: typeof fetch = (input, init) => {
    seen.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
    return fetch(input, init);
  };
  const clock = recordingClock();
  const client = new edge.VerificationClient({
    ...credentials(),
    fetch: recordingFetch,
    clock,
    logLevel: 'off',
  });
  return { client, seen, clock };
}

describe('the edge entry', () => {
  it('exports the names the main entry exports', () => {
    expect(
      Object.keys(edge).sort(),
      'export it from src/edge.ts too, or give the edge entry a stand-in (src/client/edge-node-only.ts)',
    ).toEqual(Object.keys(main).sort());
  });

  it('sends every request through fetch, with the same retries, validation and errors', async () => {
    const { client, seen, clock } = edgeClient();
    const group = await client.applicantGroups.create(groupCreateBody('ana@example.com', 'edge-entry-1'));
    mock.faults.next(1, { status: 503 }, { method: 'GET', path: GROUPS });
    const page = await client.applicantGroups.list({ correlation_id: 'edge-entry-1' });
    expect(page.items.map((item) => item.id)).toEqual([group.id]);
    expect(seen).toEqual(['POST /api/v1/tenants/auth', `POST ${GROUPS}`, `GET ${GROUPS}`, `GET ${GROUPS}`]);
    expect(clock.waits).toEqual([backoffBefore(0)]);
    await expect(client.applicantGroups.listReports('not-a-group')).rejects.toBeInstanceOf(
      edge.NotFoundError,
    );
    await client.close();
  });

  it('ends a call within its 20 s default deadline, where the main entry keeps waiting', async () => {
    const retryAfter = { status: 503, retryAfter: 15 } as const;
    const { client, seen, clock } = edgeClient();
    await client.auth.getToken();
    seen.length = 0;
    mock.faults.next(3, retryAfter, { method: 'GET', path: GROUPS });
    const error = await client.applicantGroups.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(edge.InternalServerError);
    // 15 s waited once: a second wait would end past 20 s, so the call fails instead.
    expect(clock.waits).toEqual([15_000]);
    expect(seen).toEqual([`GET ${GROUPS}`, `GET ${GROUPS}`]);

    mock.faults.clear();
    const mainClock = recordingClock();
    const nodeClient = new main.VerificationClient({ ...credentials(), clock: mainClock, logLevel: 'off' });
    mock.faults.next(3, retryAfter, { method: 'GET', path: GROUPS });
    await expect(nodeClient.applicantGroups.list()).rejects.toBeInstanceOf(main.InternalServerError);
    expect(mainClock.waits).toEqual([15_000, 15_000]);
    await nodeClient.close();
  });

  it('names the runtime in the User-Agent: edge-light under Vercel Edge, workerd under Workers', async () => {
    const agents: string[] = [];
    const fetchNotingAgent: typeof fetch = (input, init) => {
      agents.push(new Headers(init?.headers).get('user-agent') ?? '');
      return fetch(input, init);
    };
    const clientUnder = (globals: Record<string, unknown>) => {
      try {
        for (const [name, value] of Object.entries(globals)) vi.stubGlobal(name, value);
        return new edge.VerificationClient({ ...credentials(), fetch: fetchNotingAgent, logLevel: 'off' });
      } finally {
        vi.unstubAllGlobals();
      }
    };
    await clientUnder({ EdgeRuntime: 'edge-runtime' }).auth.getToken();
    await clientUnder({ navigator: { userAgent: 'Cloudflare-Workers' } }).auth.getToken();
    await clientUnder({}).auth.getToken();
    expect(agents).toEqual([
      expect.stringMatching(/^applicant-verification\/\S+ edge-light$/),
      expect.stringMatching(/^applicant-verification\/\S+ workerd$/),
      expect.stringMatching(/^applicant-verification\/\S+ node\/v\d+/),
    ]);
  });

  it('refuses the dispatcher option, which needs undici, at construction', () => {
    const dispatcher = new Agent();
    expect(
      () => new edge.VerificationClient({ baseURL: mock.url, accessToken: 'token', dispatcher }),
    ).toThrow(/dispatcher option needs undici/);
    expect(
      () => new edge.VerificationClient({ baseURL: mock.url, accessToken: 'token', dispatcher }),
    ).toThrow(edge.ConfigurationError);
    return dispatcher.close();
  });

  it('has stand-ins that throw a clear error for what needs Node', () => {
    expect(() => new edge.FileTokenStore('/tmp/token.json')).toThrow(edge.ConfigurationError);
    expect(() => new edge.FileTokenStore('/tmp/token.json')).toThrow(
      /FileTokenStore needs Node's modules.*TokenStore/,
    );
    expect(() => edge.expressWebhook({ secret: 's', onEvent: () => {} })).toThrow(
      /expressWebhook.*webhookHandler/,
    );
    expect(() => edge.fastifyWebhook({ secret: 's', onEvent: () => {} })).toThrow(
      /fastifyWebhook.*webhookHandler/,
    );
  });
});
