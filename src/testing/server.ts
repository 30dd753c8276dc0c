/**
 * `createMockServer`: the mock API on a real node:http server (127.0.0.1, port 0 by default),
 * serving the very msw handlers of `createMockApi` through msw's `getResponse`. The adapter adds
 * what only a socket owner can do: a network error (`HttpResponse.error()`) destroys the
 * socket, and the truncation marker sends half a body before destroying it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse } from 'msw';
import { buildMockApi, type MockApiOptions, type MockControls } from './api.js';
import { TRUNCATE_MARKER } from './pipeline.js';
import { errorResponse } from './responses.js';

/** Options of {@link createMockServer}. */
export interface MockServerOptions extends Omit<MockApiOptions, 'baseUrl'> {
  /** Port to listen on (default 0: any free port). */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
}

/** A running mock server. */
export interface MockServer extends MockControls {
  /** Origin of the server, e.g. `http://127.0.0.1:43121`; use it as the client's base URL. */
  url: string;
  /** Closes the server and every connection (keep-alive ones too) and stops webhook retries. */
  close(): Promise<void>;
}

// The origin clients should use: a wildcard bind is reached through loopback.
function originFor(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

function toRequest(req: IncomingMessage, origin: string, body: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  // The URL always uses the server's own origin, whatever Host header the client sent, so the
  // handlers (absolute URLs under that origin) match every request.
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(body),
  });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const truncate = response.headers.get(TRUNCATE_MARKER) === '1';
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== TRUNCATE_MARKER) headers[name] = value;
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (res.destroyed) return;
  if (response.status !== 204 && response.status !== 304) headers['content-length'] = String(bytes.length);
  res.writeHead(response.status, headers);
  if (truncate) {
    // Full Content-Length announced, half sent, then the connection dies mid-body.
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
    return;
  }
  res.end(bytes);
}

/**
 * Starts the mock API on a real HTTP server:
 *
 * ```ts
 * const mock = await createMockServer({ seed: 1 });
 * const client = new VerificationClient({ baseURL: mock.url, clientId: mock.clientId, secretKey: mock.secretKey });
 * // ... mock.applicants.complete(id); await mock.deliveries.settled();
 * await mock.close();
 * ```
 */
export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  let handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> = async (_req, res) => {
    res.destroy();
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The mock server has no TCP address');
  const origin = originFor(host, (address satisfies AddressInfo).port);
  // Built after listen: handlers need the real origin (port 0 is only known now).
  const {
    handlers,
    baseUrl,
    close: closeApi,
    ...controls
  } = buildMockApi({ ...options, baseUrl: origin }, { socketControl: true });

  handle = async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    const request = toRequest(req, baseUrl, Buffer.concat(chunks));
    const response =
      (await getResponse(handlers, request, { baseUrl })) ?? errorResponse(404, 'No such route');
    if (response.type === 'error') {
      req.socket.destroy();
      return;
    }
    await send(res, response);
  };

  let closed: Promise<void> | undefined;
  return {
    ...controls,
    url: baseUrl,
    close() {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await Promise.all([stopped, closeApi()]);
      })();
      return closed;
    },
  };
}
