/**
 * A cold process: the SDK imported by a fresh process, which has not loaded zod (src/load/zod.ts).
 * The calls the build-time checks cover (the token exchange, pages of a list, webhook deliveries)
 * run without loading it, and give what zod would; whatever they do not cover loads zod first and
 * is judged by it as always: a page the check refuses, a create's body (refused before any I/O),
 * a filtered list. The process is a bundle of test/seams/cold-process-worker.ts; the server is
 * this test's, and says what it received.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture, withValue } from '../fixtures/load.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { expose } from '../support/exposure.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let worker: string;
let server: Server;
let baseURL: string;
const received: Array<{ method: string; url: string }> = [];

/** A list body: the fixture's groups, with ids of this page. */
function page(number: number): unknown {
  const body = loadFixture('applicant-group-list') as { applicant_groups: Array<{ id: string }> };
  body.applicant_groups = body.applicant_groups.map((group, index) => ({
    ...group,
    id: `p${number}-g${index}`,
  }));
  // Page 3 is one the build-time check refuses: a rent that is no whole number of cents.
  return number === 3 ? withValue(body, ['applicant_groups', 0, 'monthly_rent_cents'], 'lots') : body;
}

function answer(request: IncomingMessage): {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
} {
  const url = new URL(request.url ?? '/', 'http://x');
  if (request.method === 'POST' && url.pathname === '/api/v1/tenants/auth') {
    return { status: 204, headers: { authorization: 'Bearer cold-token' } };
  }
  if (request.method === 'GET' && url.pathname === '/api/v1/applicant_groups') {
    return { status: 200, body: page(Number(url.searchParams.get('page') ?? '1')) };
  }
  return { status: 404, body: { error: 'not_found', message: 'No such route' } };
}

beforeAll(async () => {
  worker = await bundleForNode(
    fileURLToPath(new URL('./cold-process-worker.ts', import.meta.url)),
    'cold-process',
  );
  server = createServer((request, response) => {
    received.push({ method: request.method ?? '', url: request.url ?? '' });
    request.resume();
    const { status, headers = {}, body } = answer(request);
    response.writeHead(
      status,
      body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    );
    response.end(body === undefined ? undefined : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (worker) removeBundle(worker);
  await new Promise((resolve) => server?.close(resolve));
});

/** Runs the worker in `mode` and returns its steps by name. */
async function run(mode: string): Promise<Record<string, Record<string, unknown>>> {
  received.length = 0;
  const child = spawn(process.execPath, [worker], {
    cwd: root,
    env: { ...process.env, MODE: mode, VERIFICATION_BASE_URL: baseURL },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expose(stdout);
  expose(stderr);
  expect(code, stderr).toBe(0);
  const steps = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { step: string });
  return Object.fromEntries(steps.map(({ step, ...rest }) => [step, rest]));
}

describe('a cold process', () => {
  it('lists pages and unwraps deliveries without loading zod, and loads it for a page the check refuses', async () => {
    const steps = await run('reads');
    expect(steps.imported).toEqual({ zodLoaded: false });
    expect(steps['first page']).toEqual({ zodLoaded: false, ids: ['p1-g0', 'p1-g1'] });
    expect(steps['page 2']).toEqual({ zodLoaded: false, ids: ['p2-g0', 'p2-g1'] });
    expect(steps['valid delivery']).toEqual({
      zodLoaded: false,
      event: { code: 'REPORT_READY', applicant_group_id: 'g1', report_id: 'r1', report_type: 'income' },
    });
    expect(steps['invalid delivery']).toEqual({
      zodLoaded: false,
      error: 'WebhookVerificationError',
      reason: 'invalid_payload',
      message:
        'Invalid REPORT_READY webhook payload: report_id: Invalid input: expected string, received undefined',
    });
    // The body the check refuses goes to zod, which names the field.
    expect(steps['refused page']).toEqual({
      zodLoaded: true,
      error: 'ResponseValidationError',
      fields: ['applicant_groups[0].monthly_rent_cents'],
    });
    expect(received.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'POST /api/v1/tenants/auth',
      'GET /api/v1/applicant_groups?page=1',
      'GET /api/v1/applicant_groups?page=2',
      'GET /api/v1/applicant_groups?page=3',
    ]);
  });

  it('loads zod for a create, refuses its bad body before any request, then sends a filtered list', async () => {
    const steps = await run('create');
    expect(steps.imported).toEqual({ zodLoaded: false });
    expect(steps['invalid create']).toEqual({
      zodLoaded: true,
      error: 'RequestValidationError',
      fields: ['applicants[0].email'],
    });
    expect(steps['filtered list']).toEqual({ zodLoaded: true, ids: ['p1-g0', 'p1-g1'] });
    // No create reached the server; the filter did.
    expect(received.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'POST /api/v1/tenants/auth',
      'GET /api/v1/applicant_groups?search=Ruiz&page=1',
    ]);
  });
});
