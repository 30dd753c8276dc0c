/**
 * The node:http server's answer to a request it cannot parse (headers past the size limit, a
 * malformed request line, a request that took too long): the mock's JSON error body, not Node's
 * default bare status line, so every 4xx a client can meet has the documented shape.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorCodeFor } from './responses.js';

// Node's own choice of status for each parser failure (lib/_http_server.js), with the reason.
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'The chunk extensions of the request body are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive'],
};

// A response already on its way cannot be replaced: only its socket can be cut.
function responseStarted(socket: Duplex): boolean {
  const inFlight: unknown = Reflect.get(socket, '_httpMessage');
  return typeof inFlight === 'object' && inFlight !== null && Reflect.get(inFlight, 'headersSent') === true;
}

/** The `clientError` listener of the mock's server: a JSON error, then the connection closes. */
export function answerClientError(error: Error, socket: Duplex): void {
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
    socket.destroy();
    return;
  }
  const [status, message] = CLIENT_ERRORS[code] ?? [400, 'The request could not be parsed as HTTP/1.1'];
  const body = JSON.stringify({ error: errorCodeFor(status), message });
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
