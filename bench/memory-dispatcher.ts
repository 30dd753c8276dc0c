/**
 * An undici Dispatcher that answers from memory: the benchmark's list page, income report and
 * token, each delivered through the same handler calls a socket's response makes (connect,
 * headers as raw Buffers, one body chunk, complete) on the next turn of the event loop. With the
 * sockets gone, the CPU a call costs is the client's own work: bench/in-memory.ts times the SDK
 * and raw undici `request()` on it.
 */
import { Dispatcher } from 'undici';
import { benchToken, incomeReportBody, smallListBody } from './fixtures.js';

function rawHeaders(headers: Record<string, string>): Buffer[] {
  return Object.entries(headers).flatMap(([name, value]) => [Buffer.from(name), Buffer.from(value)]);
}

/** Builds the dispatcher and the token it hands out (a JWT valid for three hours). */
export async function memoryDispatcher(): Promise<{ dispatcher: Dispatcher; token: string }> {
  const token = await benchToken();
  const answer = (body: string) => {
    const bytes = Buffer.from(body);
    const headers = rawHeaders({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(bytes.length),
      'x-request-id': 'req_bench_0001',
      date: new Date().toUTCString(),
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
    });
    return { bytes, headers };
  };
  const list = answer(smallListBody());
  const report = answer(incomeReportBody());
  const auth = rawHeaders({ authorization: `Bearer ${token}`, 'content-length': '0' });

  class MemoryDispatcher extends Dispatcher {
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      setImmediate(() => {
        handler.onConnect?.(() => {});
        if (options.path.startsWith('/api/v1/tenants/auth')) {
          handler.onHeaders?.(204, auth, () => {}, 'No Content');
          handler.onComplete?.([]);
          return;
        }
        const { bytes, headers } = options.path.startsWith('/api/v1/reports/') ? report : list;
        handler.onHeaders?.(200, headers, () => {}, 'OK');
        handler.onData?.(bytes);
        handler.onComplete?.([]);
      });
      return true;
    }

    override async close(): Promise<void> {}

    override async destroy(): Promise<void> {}
  }
  return { dispatcher: new MemoryDispatcher(), token };
}
