/**
 * The contenders. Each does the same work per call: a GET with `Authorization` and `Accept`,
 * a 200 check, the whole body read and parsed; they differ in transport and validation.
 *
 *   A  the SDK: `client.applicantGroups.list()` (awaited page) / `client.reports.retrieve(id)`
 *   A' the SDK given an undici Agent instead of its own Pool (informational)
 *   B  raw undici `dispatcher.request()` + JSON.parse on a keep-alive Pool
 *   B' the same on an Agent (informational: the Pool-or-Agent question)
 *   C  `fetch` + JSON.parse
 *   D  `fetch` + the SDK's own zod schemas
 */
import { Agent, type Dispatcher, Pool } from 'undici';
import { CLIENT_ID, REPORT_ID, SECRET_KEY } from './fixtures.js';
import type { Package } from './harness.js';

/** The two calls every contender makes. */
export interface Contender {
  key: string;
  label: string;
  small(): Promise<unknown>;
  report(): Promise<unknown>;
  close(): Promise<void>;
}

const SMALL_PATH = '/api/v1/applicant_groups?page=1';
const REPORT_PATH = `/api/v1/reports/${REPORT_ID}`;

function expectList(body: unknown): void {
  if ((body as { applicant_groups?: unknown[] }).applicant_groups?.length !== 2) {
    throw new Error('Unexpected list body');
  }
}

function expectReport(body: unknown): void {
  if ((body as { report_id?: string }).report_id !== REPORT_ID) throw new Error('Unexpected report body');
}

/** Fetches a token the way any client must (POST, token in the response header). */
export async function fetchToken(origin: string): Promise<string> {
  const response = await fetch(`${origin}/api/v1/tenants/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: CLIENT_ID, secret_key: SECRET_KEY }),
  });
  const token = /^Bearer\s+(\S+)$/i.exec(response.headers.get('authorization') ?? '')?.[1];
  if (!token) throw new Error('The benchmark server sent no token');
  return token;
}

/** A: the SDK with its defaults (strict validation, retries, timeout, token manager); A' on an Agent. */
export function sdk(
  pkg: Package,
  origin: string,
  key = 'A',
  label = 'A  SDK',
  dispatcher?: Dispatcher,
): Contender {
  const client = new pkg.VerificationClient({
    baseURL: origin,
    clientId: CLIENT_ID,
    secretKey: SECRET_KEY,
    logLevel: 'off',
    dispatcher,
  });
  return {
    key,
    label,
    small: async () => {
      const page = await client.applicantGroups.list();
      if (page.items.length !== 2) throw new Error('Unexpected page');
    },
    report: async () => {
      const detail = await client.reports.retrieve(REPORT_ID);
      if (detail.report_id !== REPORT_ID) throw new Error('Unexpected report');
    },
    close: async () => {
      await client.close();
      await dispatcher?.close();
    },
  };
}

/** A': the SDK on an Agent (what a caller passing `dispatcher: new Agent()` gets). */
export function sdkOnAgent(pkg: Package, origin: string): Contender {
  return sdk(
    pkg,
    origin,
    'A_agent',
    "A' SDK on Agent",
    new Agent({ pipelining: 1, keepAliveTimeout: 30_000 }),
  );
}

function undiciContender(key: string, label: string, origin: string, token: string, dispatcher: Dispatcher) {
  const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
  const get = async (path: string): Promise<unknown> => {
    const { statusCode, body } = await dispatcher.request({ origin, path, method: 'GET', headers });
    if (statusCode !== 200) {
      await body.dump();
      throw new Error(`HTTP ${statusCode}`);
    }
    return JSON.parse(await body.text());
  };
  return {
    key,
    label,
    small: async () => expectList(await get(SMALL_PATH)),
    report: async () => expectReport(await get(REPORT_PATH)),
    close: () => dispatcher.close(),
  } satisfies Contender;
}

/** B: raw undici on a keep-alive Pool for the one origin. */
export function rawPool(origin: string, token: string): Contender {
  return undiciContender('B', 'B  undici Pool', origin, token, new Pool(origin, { pipelining: 1 }));
}

/** B': raw undici on an Agent. */
export function rawAgent(origin: string, token: string): Contender {
  return undiciContender('B_agent', "B' undici Agent", origin, token, new Agent({ pipelining: 1 }));
}

function fetchContender(
  key: string,
  label: string,
  origin: string,
  token: string,
  parseList: (body: unknown) => unknown,
  parseReport: (body: unknown) => unknown,
): Contender {
  const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
  const get = async (path: string): Promise<unknown> => {
    const response = await fetch(`${origin}${path}`, { headers });
    if (response.status !== 200) {
      await response.arrayBuffer();
      throw new Error(`HTTP ${response.status}`);
    }
    return response.json();
  };
  return {
    key,
    label,
    small: async () => expectList(parseList(await get(SMALL_PATH))),
    report: async () => expectReport(parseReport(await get(REPORT_PATH))),
    close: async () => {},
  };
}

/** C: global fetch + JSON.parse (response.json()). */
export function rawFetch(origin: string, token: string): Contender {
  const identity = (body: unknown) => body;
  return fetchContender('C', 'C  fetch', origin, token, identity, identity);
}

/** D: global fetch + the SDK's zod schemas, synchronous parse. */
export function zodFetch(pkg: Package, origin: string, token: string): Contender {
  return fetchContender(
    'D',
    'D  fetch + zod',
    origin,
    token,
    (body) => pkg.applicantGroupListResponseSchema.parse(body),
    (body) => pkg.reportDetailSchema.parse(body),
  );
}
