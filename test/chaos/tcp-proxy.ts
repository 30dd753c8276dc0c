/**
 * A TCP proxy between one process and Redis, for the partition scenario: bytes pass both ways
 * until `cut()`, then are held (neither side hears from the other, no connection is closed, as in
 * a network partition where packets go nowhere) until `heal()` delivers what was held, late.
 */
import { createConnection, createServer, type Socket } from 'node:net';

/** A running proxy owned by the test. */
export interface TcpProxy {
  readonly port: number;
  /** Holds every byte from now on, both ways. */
  cut(): void;
  /** Delivers what was held and lets bytes pass again. */
  heal(): void;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port forwarding to `targetPort`. */
export function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let cut = false;
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (cut) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    sockets.add(client).add(upstream);
    forward(client, upstream);
    forward(upstream, client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (typeof address !== 'object' || !address) return reject(new Error('tcp proxy: no port'));
      resolve({
        port: address.port,
        cut() {
          cut = true;
        },
        heal() {
          cut = false;
          for (const deliver of held.splice(0)) deliver();
        },
        close() {
          for (const socket of sockets) socket.destroy();
          return new Promise((done) => server.close(() => done()));
        },
      });
    });
  });
}
