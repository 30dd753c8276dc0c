/**
 * One cold start, in a fresh process: import, then the first calls, timed from process start.
 * Built into plain JavaScript before it runs (no TypeScript loader in the measurement).
 *
 *   node cold-child.mjs raw <origin>                         undici Pool + JSON.parse
 *   node cold-child.mjs raw-direct <origin>                  the same, only Pool's module and
 *                                                             request()'s (api-request.js) required
 *   node cold-child.mjs sdk <origin> <sdk.mjs>               the SDK bundle: first list, first report
 *   node cold-child.mjs schema-runtime|schema-fast|schema-zcompile <origin> <sdk.mjs>
 *                                            the income report schema alone: first parse or check
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** What a schema-only cold start reports (milliseconds). */
export interface SchemaColdResult {
  mode: string;
  /** Building the parser or check (0 where nothing is built ahead). */
  buildMs: number;
  /** The first parse or check of the 60 KB report. */
  firstMs: number;
  /** The mean of the next 20. */
  nextMs: number;
}

/** What one cold start reports (milliseconds; `*At` fields count from process start). */
export interface ColdResult {
  mode: string;
  /** Time spent in `import` of the package (and its dependencies). */
  importMs: number;
  /** From the start of `import` to the first list page parsed (token exchange included). */
  firstListMs: number;
  /** The first report retrieve after that (its schema's first parse included). */
  firstReportMs: number;
  /** Process start to the first list page. */
  listAt: number;
  /** CPU time (user + system) of the process from its start to the first list page: steadier than
   * wall clock on a loaded machine. */
  listCpuMs: number;
}

/** The process's CPU time so far, in milliseconds. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

type Sdk = typeof import('./cold-entry.js');

const CLIENT_ID = 'bench_client';
const SECRET_KEY = 'bench_secret_key_value';
const REPORT_ID = '7c0c1f3e-5a4d-4b8e-9f21-6d3a2b1c0e99';

/**
 * undici's index (everything undici has), or only the modules of `Pool` and of its `request()`:
 * the index is what adds `request()` and the other API methods (stream, pipeline, upgrade,
 * connect) to every dispatcher; here `request()` alone is added, from its own module.
 */
async function loadPool(direct: boolean): Promise<typeof import('undici').Pool> {
  if (!direct) return (await import('undici')).Pool;
  const load = createRequire(import.meta.url);
  const Pool = load('undici/lib/dispatcher/pool.js') as typeof import('undici').Pool;
  const Dispatcher = load('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
  Object.assign(Dispatcher.prototype, { request: load('undici/lib/api/api-request.js') });
  return Pool;
}

async function raw(origin: string, direct: boolean): Promise<ColdResult> {
  const started = performance.now();
  const Pool = await loadPool(direct);
  const imported = performance.now();
  const pool = new Pool(origin, { pipelining: 1 });
  const auth = await pool.request({
    origin,
    path: '/api/v1/tenants/auth',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: CLIENT_ID, secret_key: SECRET_KEY }),
  });
  await auth.body.dump();
  const token = String(auth.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
  const list = await pool.request({
    origin,
    path: '/api/v1/applicant_groups?page=1',
    method: 'GET',
    headers,
  });
  const page = JSON.parse(await list.body.text()) as { applicant_groups: unknown[] };
  if (page.applicant_groups.length !== 2) throw new Error('Unexpected list');
  const listed = performance.now();
  const listCpuMs = cpuMs();
  const report = await pool.request({ origin, path: `/api/v1/reports/${REPORT_ID}`, method: 'GET', headers });
  const detail = JSON.parse(await report.body.text()) as { report_id: string };
  if (detail.report_id !== REPORT_ID) throw new Error('Unexpected report');
  const reported = performance.now();
  await pool.close();
  return {
    mode: direct ? 'raw-direct' : 'raw',
    importMs: imported - started,
    firstListMs: listed - started,
    firstReportMs: reported - listed,
    listAt: listed,
    listCpuMs,
  };
}

async function sdk(origin: string, bundle: string): Promise<ColdResult> {
  const started = performance.now();
  const { VerificationClient } = (await import(pathToFileURL(bundle).href)) as Sdk;
  const imported = performance.now();
  const client = new VerificationClient({
    baseURL: origin,
    clientId: CLIENT_ID,
    secretKey: SECRET_KEY,
    logLevel: 'off',
  });
  const page = await client.applicantGroups.list();
  if (page.items.length !== 2) throw new Error('Unexpected list');
  const listed = performance.now();
  const listCpuMs = cpuMs();
  const detail = await client.reports.retrieve(REPORT_ID);
  if (detail.report_id !== REPORT_ID) throw new Error('Unexpected report');
  const reported = performance.now();
  await client.close();
  return {
    mode: 'sdk',
    importMs: imported - started,
    firstListMs: listed - started,
    firstReportMs: reported - listed,
    listAt: listed,
    listCpuMs,
  };
}

async function schema(mode: string, origin: string, bundle: string): Promise<SchemaColdResult> {
  const response = await fetch(`${origin}/api/v1/reports/${REPORT_ID}`);
  const text = await response.text();
  const { incomeReportDetailSchema, fastCheck } = (await import(pathToFileURL(bundle).href)) as Sdk;
  const { z } = await import('zod');
  let run: (value: unknown) => boolean;
  const built = performance.now();
  if (mode === 'schema-fast') {
    const check = fastCheck(incomeReportDetailSchema);
    if (!check) throw new Error('No fast check for the income report schema');
    run = check;
  } else if (mode === 'schema-zcompile') {
    const compiled = z.compile(incomeReportDetailSchema);
    run = (value) => compiled.safeParse(value).success;
  } else {
    run = (value) => incomeReportDetailSchema.safeParse(value).success;
  }
  const buildMs = performance.now() - built;
  const bodies = Array.from({ length: 21 }, () => JSON.parse(text) as unknown);
  const first = performance.now();
  if (!run(bodies[0])) throw new Error('The report did not validate');
  const next = performance.now();
  for (const body of bodies.slice(1)) run(body);
  const end = performance.now();
  return { mode, buildMs, firstMs: next - first, nextMs: (end - next) / 20 };
}

const [mode, origin, bundle] = process.argv.slice(2);
if (!mode || !origin) throw new Error('usage: cold-child <mode> <origin> [sdk.mjs]');
const result =
  mode === 'raw' || mode === 'raw-direct'
    ? await raw(origin, mode === 'raw-direct')
    : mode === 'sdk'
      ? await sdk(origin, bundle ?? '')
      : await schema(mode, origin, bundle ?? '');
process.stdout.write(`${JSON.stringify(result)}\n`);
