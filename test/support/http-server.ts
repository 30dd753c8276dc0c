/** A tiny programmable HTTP server on 127.0.0.1 that records what it received. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterEach } from 'vitest';
import { type ClientOptions, VerificationClient } from '../../src/index.js';
import { expose } from './exposure.js';
import { TEST_SECRET_KEY } from './secrets.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Destroy the socket instead of answering. */
  destroy?: boolean;
  /** Wait this long before answering (ms). */
  delayMs?: number;
}

export type Route = (request: ReceivedRequest, count: number) => Reply | Promise<Reply>;

export interface TestServer {
  url: string;
  requests: ReceivedRequest[];
  /** Requests to one path. */
  to(path: string): ReceivedRequest[];
  close(): Promise<void>;
}

export const CLIENT_ID = 'client_123';
export const SECRET_KEY = TEST_SECRET_KEY;
const signingKey = new TextEncoder().encode('server-side-signing-key-for-tests');

/** A JWT like the vendor's, valid `lifetimeSeconds` from now. */
export async function mintToken(lifetimeSeconds = 1800, subject = 'tenant'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: subject })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(now)
    .setExpirationTime(now + lifetimeSeconds)
    .setJti(Math.random().toString(36).slice(2))
    .sign(signingKey);
}

/** Starts a server whose routes are keyed `METHOD /path`; unknown routes get 404. */
export async function startServer(routes: Record<string, Route>): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const counts = new Map<string, number>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const received: ReceivedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(received);
    const key = `${received.method} ${received.path}`;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    const route = routes[key];
    const reply: Reply = route ? await route(received, count) : { status: 404, body: { error: 'not_found' } };
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.destroy) {
      req.socket.destroy();
      return;
    }
    const payload =
      reply.body === undefined
        ? ''
        : typeof reply.body === 'string'
          ? reply.body
          : JSON.stringify(reply.body);
    res.writeHead(reply.status ?? 200, {
      ...(payload ? { 'content-type': 'application/json' } : {}),
      ...reply.headers,
    });
    res.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    to: (path) => requests.filter((request) => request.path === path),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Listens on a free loopback port; the origin, `http://127.0.0.1:<port>`. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server and every connection it holds (keep-alive ones too). */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** An auth route that hands out fresh tokens in the Authorization header. */
export function authRoute(lifetimeSeconds = 1800, tokens: string[] = []): Route {
  return async (request) => {
    const body = JSON.parse(request.body) as { client_id?: string; secret_key?: string };
    if (body.client_id !== CLIENT_ID || body.secret_key !== SECRET_KEY) {
      return { status: 401, body: { error: 'unauthorized', message: 'Invalid credentials' } };
    }
    const token = await mintToken(lifetimeSeconds);
    tokens.push(token);
    return { status: 204, headers: { authorization: `Bearer ${token}` } };
  };
}

/** A logger that keeps every line, for redaction checks. */
export function capturingLogger() {
  const lines: string[] = [];
  const write = (level: string) => (message: string, data?: Record<string, unknown>) => {
    const line = `${level} ${message} ${data ? JSON.stringify(data) : ''}`;
    lines.push(line);
    expose(line);
  };
  return {
    lines,
    logger: { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') },
  };
}

/**
 * One loopback server (the auth route included) and one client against it per test, both closed
 * after each test. Call it at a test file's top level; `defaults` are the client options every
 * setup of that file shares, `options` a setup's own.
 */
export function serverWithClient(defaults: Partial<ClientOptions> = {}) {
  const track = closeAfterEach();
  return async (routes: Record<string, Route>, options: Partial<ClientOptions> = {}) => {
    const server = track(await startServer({ 'POST /api/v1/tenants/auth': authRoute(), ...routes }));
    const client = track(
      new VerificationClient({
        baseURL: server.url,
        clientId: CLIENT_ID,
        secretKey: SECRET_KEY,
        logLevel: 'off',
        ...defaults,
        ...options,
      }),
    );
    return { server, client };
  };
}

/**
 * Closes, after each test, every server or client passed to the returned `track` during it,
 * newest first. Call it at a test file's top level.
 */
export function closeAfterEach(): <T extends { close(): Promise<unknown> }>(resource: T) => T {
  const open: Array<{ close(): Promise<unknown> }> = [];
  afterEach(async () => {
    for (const resource of open.splice(0).reverse()) await resource.close();
  });
  return (resource) => {
    open.push(resource);
    return resource;
  };
}
