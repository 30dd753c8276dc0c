/**
 * Operation descriptors: a throwaway GET declared here (schema, resource, route, test, nothing
 * else) is traced on its own channel and callable both through a resource method and as a raw
 * request; raw requests to the SDK's declared paths are traced under their operation with the
 * path template; and `src/core` names no operation and no resource path.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HttpCore } from '../../src/core/call/http.js';
import {
  defineOperation,
  indexOperations,
  operationCall,
  pathParamsOf,
} from '../../src/core/call/operation.js';
import { type RawSend, rawRequestMethods } from '../../src/core/call/raw-request.js';
import { channelNameOf, type OperationTraceContext } from '../../src/core/observability/tracing.js';
import { fetchTransport } from '../../src/core/transport/transport.js';
import { ResponseValidationError, TRACED_OPERATIONS } from '../../src/index.js';
import { OPERATIONS } from '../../src/resources/operations.js';
import { APIResource } from '../../src/resources/resource.js';
import { createMockServer } from '../../src/testing/index.js';
import { bareCore } from '../support/core.js';
import { closeAfterEach, startServer } from '../support/http-server.js';
import { clientFor } from '../support/mock-client.js';

// --- The throwaway endpoint: its schema, its resource, its route. ---
const widgetSchema = z.object({ id: z.string(), size: z.number().int() });
const widgetRetrieve = defineOperation({
  name: 'widgets.retrieve',
  method: 'GET',
  path: '/api/v1/widgets/{widgetId}',
  response: widgetSchema,
  doc: 'One widget.',
});
class Widgets extends APIResource {
  retrieve(widgetId: string) {
    return this.core.request(operationCall(widgetRetrieve, { pathParams: { widgetId } }));
  }
}
const widgetRoutes = () => ({
  'GET /api/v1/widgets/w%201': () => ({ body: { id: 'w 1', size: 3 } }),
  'GET /api/v1/widgets/broken': () => ({ body: { id: 'broken', size: 'large' } }),
});

const track = closeAfterEach();
const unsubscribes: Array<() => void> = [];
afterEach(() => {
  for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
});

/** Records the `asyncEnd` context of every call traced as `operation`. */
function traced(operation: string): OperationTraceContext[] {
  const seen: OperationTraceContext[] = [];
  const channel = tracingChannel<unknown, OperationTraceContext>(channelNameOf(operation));
  const handlers = {
    start() {},
    end() {},
    asyncStart() {},
    error() {},
    asyncEnd: (context: OperationTraceContext) =>
      void seen.push(structuredClone({ ...context, error: undefined })),
  };
  channel.subscribe(handlers);
  unsubscribes.push(() => channel.unsubscribe(handlers));
  return seen;
}

function coreAt(baseURL: string): HttpCore {
  return bareCore('token-for-the-widget-tests', new URL(baseURL).origin, {
    transport: fetchTransport(() => fetch),
    sdkHeaders: { accept: 'application/json' },
  });
}

describe('a throwaway operation', () => {
  it('is callable through a resource method, traced on its own channel with its template', async () => {
    const server = track(await startServer(widgetRoutes()));
    const widgets = new Widgets(coreAt(server.url));
    const events = traced('widgets.retrieve');

    await expect(widgets.retrieve('w 1')).resolves.toEqual({ id: 'w 1', size: 3 });
    await expect(widgets.retrieve('broken')).rejects.toBeInstanceOf(ResponseValidationError);

    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /api/v1/widgets/w%201',
      'GET /api/v1/widgets/broken',
    ]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer token-for-the-widget-tests');
    expect(
      events.map(({ operation, method, path, status }) => ({ operation, method, path, status })),
    ).toEqual([
      { operation: 'widgets.retrieve', method: 'GET', path: '/api/v1/widgets/{widgetId}', status: 200 },
      { operation: 'widgets.retrieve', method: 'GET', path: '/api/v1/widgets/{widgetId}', status: 200 },
    ]);
  });

  it('is callable as a raw request, traced under its name once an index knows it', async () => {
    const server = track(await startServer(widgetRoutes()));
    const core = coreAt(server.url);
    const events = traced('widgets.retrieve');
    const raw = traced('request');
    // GETs only: the core sends them itself (a POST would go through the creates layer).
    const send: RawSend = (call) => core.execute(call);
    const known = rawRequestMethods(send, indexOperations([widgetRetrieve]));
    const unknown = rawRequestMethods(send);

    await expect(known.get('/api/v1/widgets/w%201', { schema: widgetSchema })).resolves.toEqual({
      id: 'w 1',
      size: 3,
    });
    await expect(unknown.get('/api/v1/widgets/w%201')).resolves.toEqual({ id: 'w 1', size: 3 });

    expect(events.map(({ path }) => path)).toEqual(['/api/v1/widgets/{widgetId}']);
    expect(raw.map(({ path }) => path)).toEqual(['/api/v1/widgets/w%201']);
  });

  it('refuses a bad path parameter before any request', async () => {
    const server = track(await startServer(widgetRoutes()));
    const widgets = new Widgets(coreAt(server.url));
    await expect(widgets.retrieve('..')).rejects.toMatchObject({ name: 'RequestValidationError' });
    expect(server.requests).toEqual([]);
  });
});

describe('the registry', () => {
  it('lists each declared operation once, with a unique method and path, placeholders named', () => {
    const names = OPERATIONS.map((operation) => operation.name);
    expect(new Set(names).size).toBe(names.length);
    const routes = OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    for (const operation of OPERATIONS) {
      expect(operation.name).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
      expect(operation.doc.length).toBeGreaterThan(0);
      expect(operation.create === undefined).toBe(operation.method === 'GET');
      expect(pathParamsOf(operation.path).every((name) => /^[a-z]\w*$/.test(name))).toBe(true);
    }
    // The traced names: the declared ones, then the PDF download, the token exchange and raw requests.
    expect(TRACED_OPERATIONS).toEqual([...names, 'reports.downloadPdf', 'auth.exchange', 'request']);
  });

  it('matches a concrete path to its template, method included', () => {
    const find = indexOperations(OPERATIONS);
    expect(find('GET', '/api/v1/applicant_groups')?.name).toBe('applicantGroups.list');
    expect(find('POST', '/api/v1/applicant_groups')?.name).toBe('applicantGroups.create');
    expect(find('GET', '/api/v1/applicant_groups/g-1/reports')?.name).toBe('applicantGroups.listReports');
    expect(find('GET', '/api/v1/reports/r-1')?.name).toBe('reports.retrieve');
    expect(find('GET', '/api/v1/reports/r-1/extra')).toBeUndefined();
    expect(find('GET', '/api/v1/reports/')).toBeUndefined();
    expect(find('POST', '/api/v1/reports/r-1')).toBeUndefined();
    expect(find('GET', '/api/v2/something-new')).toBeUndefined();
  });
});

describe('raw requests to declared paths', () => {
  it('are traced under the declared operation, ids hidden behind its template', async () => {
    const mock = track(await createMockServer({ seed: 7 }));
    const client = track(clientFor(mock));
    const lists = traced('applicantGroups.list');
    const reports = traced('reports.retrieve');
    const raw = traced('request');

    await client.get('/api/v1/applicant_groups', { query: { page: 1 } });
    await client.get('/api/v1/reports/00000000-0000-4000-8000-000000000000').catch(() => undefined);
    await client.get('/api/v1/undeclared').catch(() => undefined);

    expect(lists.map(({ path, status }) => ({ path, status }))).toEqual([
      { path: '/api/v1/applicant_groups', status: 200 },
    ]);
    expect(reports.map(({ path, status }) => ({ path, status }))).toEqual([
      { path: '/api/v1/reports/{reportId}', status: 404 },
    ]);
    expect(raw.map(({ path, status }) => ({ path, status }))).toEqual([
      { path: '/api/v1/undeclared', status: 404 },
    ]);
  });
});

describe('src/core', () => {
  const coreDir = join(import.meta.dirname, '../../src/core');
  const sources = readdirSync(coreDir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ file, text: readFileSync(join(coreDir, file), 'utf8') }));

  it('names no operation and no resource path (the token exchange, its own, aside)', () => {
    const own = new Set(['auth.exchange', 'request']);
    const names = TRACED_OPERATIONS.filter((name) => !own.has(name));
    // Snake-case path segments (applicant_groups) are resource names wherever they appear.
    const segments = [...new Set(OPERATIONS.flatMap((operation) => operation.path.split('/')))].filter(
      (segment) => segment.includes('_'),
    );
    const found: string[] = [];
    for (const { file, text } of sources) {
      for (const name of [...names, ...segments]) if (text.includes(name)) found.push(`${file}: ${name}`);
      for (const match of text.matchAll(/\/api\/v1\/(?!tenants\/auth\b)[\w{]/g))
        found.push(`${file}: ${match[0]}`);
    }
    expect(found).toEqual([]);
  });

  it('the check sees a name and a path where they are', () => {
    // The same patterns on a planted line: the check above cannot pass by never matching.
    const planted = "const path = '/api/v1/reports/{reportId}'; // reports.retrieve";
    expect(/\/api\/v1\/(?!tenants\/auth\b)[\w{]/.test(planted)).toBe(true);
    expect(TRACED_OPERATIONS.some((name) => planted.includes(name))).toBe(true);
    expect(/\/api\/v1\/(?!tenants\/auth\b)[\w{]/.test("const AUTH_PATH = '/api/v1/tenants/auth';")).toBe(
      false,
    );
  });
});
