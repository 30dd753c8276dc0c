/**
 * The benchmark's API server: plain `node:http` on 127.0.0.1, run in a child process so that it
 * does not compete with the client for the client's CPU. Every body is serialized once at start;
 * a request costs the server only routing and a write. Tells the parent its port over IPC.
 *
 *   GET  /api/v1/applicant_groups             a small list page (2 groups)
 *   GET  /api/v1/applicant_groups?search=bulk  page `page` of 10,000 groups, 25 a page
 *   GET  /api/v1/reports/{REPORT_ID}          the ~60 KB income report detail
 *   POST /api/v1/tenants/auth                 204 with `Authorization: Bearer <jwt>`
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BULK_PAGE_SIZE,
  BULK_SEARCH,
  BULK_TOTAL,
  benchToken,
  bulkListBody,
  incomeReportBody,
  REPORT_ID,
  smallListBody,
} from './fixtures.js';

/** What the server sends its parent once it listens. */
export interface ServerReady {
  port: number;
  reportBytes: number;
  smallListBytes: number;
}

const LIST_PATH = '/api/v1/applicant_groups';
const REPORT_PATH = `/api/v1/reports/${REPORT_ID}`;
const AUTH_PATH = '/api/v1/tenants/auth';

function jsonHeaders(body: Buffer): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(body.length),
    'x-request-id': 'req_bench_0001',
  };
}

async function main(): Promise<void> {
  const token = await benchToken();

  const small = Buffer.from(smallListBody());
  const report = Buffer.from(incomeReportBody());
  const bulkPages: Buffer[] = [];
  for (let page = 1; (page - 1) * BULK_PAGE_SIZE < BULK_TOTAL; page++)
    bulkPages.push(Buffer.from(bulkListBody(page)));
  const bulkEnd = Buffer.from(bulkListBody(bulkPages.length + 1));
  const smallHeaders = jsonHeaders(small);
  const reportHeaders = jsonHeaders(report);
  const notFound = Buffer.from('{"error":"Not found"}');

  const send = (res: ServerResponse, status: number, headers: Record<string, string>, body?: Buffer) => {
    res.writeHead(status, headers);
    res.end(body);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    if (req.method === 'POST' && path === AUTH_PATH) {
      // Drain the credentials, then answer the way the vendor does: 204 and the token in a header.
      req.resume();
      req.on('end', () => send(res, 204, { authorization: `Bearer ${token}` }));
      return;
    }
    if (req.method === 'GET' && path === REPORT_PATH) return send(res, 200, reportHeaders, report);
    if (req.method === 'GET' && path === LIST_PATH) {
      const query = new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1));
      if (query.get('search') !== BULK_SEARCH) return send(res, 200, smallHeaders, small);
      const page = Number(query.get('page') ?? '1');
      const body = bulkPages[page - 1] ?? bulkEnd;
      return send(res, 200, jsonHeaders(body), body);
    }
    send(res, 404, jsonHeaders(notFound), notFound);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const ready: ServerReady = {
      port: (server.address() as AddressInfo).port,
      reportBytes: report.length,
      smallListBytes: small.length,
    };
    process.send?.(ready);
  });
  // The parent going away (or saying so) ends the server.
  process.on('disconnect', () => process.exit(0));
  process.on('message', (message) => {
    if (message === 'stop') server.close(() => process.exit(0));
  });
}

void main();
