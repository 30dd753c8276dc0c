/**
 * One contender of bench/in-memory.ts in its own process, on the in-memory dispatcher
 * (memory-dispatcher.ts): `sdk` is the bundled SDK's `applicantGroups.list()` /
 * `reports.retrieve()` with its defaults, `raw` is undici's `request()` + `JSON.parse`. Answers
 * each `{ kind, concurrency, calls }` with the client CPU (user + system) per call in µs.
 */
import { pathToFileURL } from 'node:url';
import type { Dispatcher } from 'undici';
import { CLIENT_ID, REPORT_ID, SECRET_KEY } from './fixtures.js';
import { BUNDLES, type Package, repeat, settle } from './harness.js';
import { memoryDispatcher } from './memory-dispatcher.js';

/** What the parent asks. */
export interface InMemoryRequest {
  kind: 'list' | 'report';
  concurrency: number;
  calls: number;
}

const ORIGIN = 'https://api.invalid';
const LIST_PATH = '/api/v1/applicant_groups?page=1';
const REPORT_PATH = `/api/v1/reports/${REPORT_ID}`;

function rawCalls(dispatcher: Dispatcher, token: string) {
  const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
  const get = async (path: string): Promise<unknown> => {
    const { statusCode, body } = await dispatcher.request({ origin: ORIGIN, path, method: 'GET', headers });
    if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
    return JSON.parse(await body.text());
  };
  return {
    list: async () => {
      const body = (await get(LIST_PATH)) as { applicant_groups: unknown[] };
      if (body.applicant_groups.length !== 2) throw new Error('Unexpected list body');
    },
    report: async () => {
      const body = (await get(REPORT_PATH)) as { report_id: string };
      if (body.report_id !== REPORT_ID) throw new Error('Unexpected report body');
    },
  };
}

function sdkCalls(pkg: Package, dispatcher: Dispatcher) {
  const client = new pkg.VerificationClient({
    baseURL: ORIGIN,
    clientId: CLIENT_ID,
    secretKey: SECRET_KEY,
    logLevel: 'off',
    dispatcher,
  });
  return {
    list: async () => {
      if ((await client.applicantGroups.list()).items.length !== 2) throw new Error('Unexpected page');
    },
    report: async () => {
      if ((await client.reports.retrieve(REPORT_ID)).report_id !== REPORT_ID)
        throw new Error('Unexpected report');
    },
  };
}

async function main(): Promise<void> {
  const contender = process.argv[2];
  if (!process.send || (contender !== 'sdk' && contender !== 'raw')) {
    throw new Error('usage: fork in-memory-worker.ts sdk|raw');
  }
  const { dispatcher, token } = await memoryDispatcher();
  const calls =
    contender === 'sdk'
      ? sdkCalls((await import(pathToFileURL(BUNDLES.sdk).href)) as Package, dispatcher)
      : rawCalls(dispatcher, token);
  // Warm-up: JIT, the token, the schemas' first checks.
  await repeat(calls.list, 16, 20_000);
  await repeat(calls.report, 16, 2_000);
  process.on('message', async (request: InMemoryRequest) => {
    await settle(20);
    const op = calls[request.kind];
    const before = process.cpuUsage();
    await repeat(op, request.concurrency, request.calls);
    const cpu = process.cpuUsage(before);
    process.send?.((cpu.user + cpu.system) / request.calls);
  });
  process.send({ ready: true });
}

await main();
