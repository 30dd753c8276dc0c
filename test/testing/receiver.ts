/** A real HTTP webhook receiver for tests: records each delivery and can fail the first ones. */
import { createServer, type IncomingMessage } from 'node:http';

/** One request the receiver got. */
export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  status: number;
}

/** A running receiver. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Answer the next `count` requests with `status` (500 by default). */
  failNext(count: number, status?: number): void;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let failures = 0;
  let failStatus = 500;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk));
    const status = failures > 0 ? failStatus : 204;
    if (failures > 0) failures -= 1;
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}/hooks`,
    received,
    failNext(count, status = 500) {
      failures = count;
      failStatus = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
