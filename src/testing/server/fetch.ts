/**
 * `mock.fetch`: the core as a `fetch` function, for in-process tests without sockets. Injected
 * resets and truncations reject with a `TypeError`, as fetch rejects on a network error; an
 * aborted signal rejects with its reason while the mock goes on processing, as a server would.
 */
import { TRUNCATE_MARKER } from './pipeline.js';

function networkError(): TypeError {
  return new TypeError('fetch failed', { cause: new Error('mock: the connection was reset') });
}

// Resolves with `work`, or rejects with the signal's reason as soon as it aborts.
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Wraps the core's `handle` as a `fetch`. */
export function createMockFetch(handle: (request: Request) => Promise<Response>): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    request.signal.throwIfAborted();
    const response = await untilAborted(handle(request), request.signal);
    if (response.type === 'error' || response.headers.has(TRUNCATE_MARKER)) throw networkError();
    return response;
  };
}
