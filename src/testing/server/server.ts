/**
 * `createMockServer`: the mock's core on a real node:http server (127.0.0.1, port 0 by default).
 * The adapter adds only what a socket owner can do: a network error (`Response.error()`)
 * destroys the socket, and the truncation marker sends half a body before destroying it.
 * Request bodies are streamed into the core, which stops reading past its limit (413).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONSOLE_PATH } from '../console/console-routes.js';
import { buildMockApi, type MockApi, type MockApiOptions } from './api.js';
import { answerClientError } from './client-errors.js';
import { TRUNCATE_MARKER } from './pipeline.js';

/** Options of {@link createMockServer}. */
export interface MockServerOptions extends Omit<MockApiOptions, 'baseUrl'> {
  /** Port to listen on (default 0: any free port). */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
}

/** A running mock server. */
export interface MockServer extends Omit<MockApi, 'baseUrl' | 'close'> {
  /** Origin of the server, e.g. `http://127.0.0.1:43121`; use it as the client's base URL. */
  url: string;
  /** Base URL of the control API, `${url}/__mock`. */
  controlUrl: string;
  /** Address of the console page, `${url}/__mock/console`, when `console: true`; else `undefined`. */
  consoleUrl: string | undefined;
  /** Closes the clients from `client()`, the server and every connection (keep-alive ones too), and stops webhook retries. */
  close(): Promise<void>;
}

// After a 413 the rest of an oversized upload is read and dropped (so the client can read the
// answer) up to this many bytes, then the connection is cut.
const DISCARD_LIMIT = 16 * 1024 * 1024;

// The origin clients should use: a wildcard bind is reached through loopback.
function originFor(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

// The request body as a web stream that reads from the socket only when the core pulls, so an
// upload the core stops reading is never buffered here.
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  // Set once the core stops reading: later socket events must not touch the closed stream.
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.pause();
      req.on('data', (chunk: Buffer) => {
        if (cancelled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once('end', () => {
        if (!cancelled) controller.close();
      });
      req.once('error', (error) => {
        if (!cancelled) controller.error(error);
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      cancelled = true;
      req.pause();
    },
  });
}

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // The URL always uses the server's own origin, whatever Host header the client sent.
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (hasBody) {
    init.body = bodyStream(req);
    init.duplex = 'half';
  }
  return new Request(new URL(req.url ?? '/', origin), init);
}

// Drops what is left of an upload the core did not read, then cuts the connection if the
// client keeps sending past the discard limit.
function discardRest(req: IncomingMessage): void {
  if (req.readableEnded) return;
  let dropped = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > DISCARD_LIMIT) req.socket.destroy();
  });
  req.resume();
}

async function send(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const truncate = response.headers.get(TRUNCATE_MARKER) === '1';
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== TRUNCATE_MARKER) headers[name] = value;
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (res.destroyed) return;
  if (response.status !== 204 && response.status !== 304) headers['content-length'] = String(bytes.length);
  // `complete`: the whole request arrived (a GET has no body, yet its stream has not ended unread).
  if (!req.readableEnded && !req.complete) headers.connection = 'close';
  res.writeHead(response.status, headers);
  discardRest(req);
  if (truncate) {
    // Full Content-Length announced, half sent, then the connection dies mid-body.
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
    return;
  }
  res.end(bytes);
}

/**
 * Starts the mock API on a real HTTP server (msw is not needed):
 *
 * ```ts
 * const mock = await createMockServer({ seed: 1 });
 * const client = mock.client(); // its URL, credentials and clock
 * // ... mock.applicants.complete(id); await mock.deliveries.settled();
 * await mock.close(); // closes the client too
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
  server.on('clientError', answerClientError);
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
  // Built after listen: PDF links need the real origin (port 0 is only known now). Bad options
  // (a duplicate account, say) then close the server before they throw.
  let built: MockApi;
  try {
    built = buildMockApi({ ...options, baseUrl: origin }, { clientsOver: 'http' });
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  const { baseUrl, close: closeApi, ...api } = built;

  handle = async (req, res) => {
    const response = await api.handle(toRequest(req, baseUrl));
    if (response.type === 'error') {
      req.socket.destroy();
      return;
    }
    await send(req, res, response);
  };

  let closed: Promise<void> | undefined;
  return {
    ...api,
    url: baseUrl,
    controlUrl: `${baseUrl}/__mock`,
    consoleUrl: options.console === true ? `${baseUrl}${CONSOLE_PATH}` : undefined,
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
