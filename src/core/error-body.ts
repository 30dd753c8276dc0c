/**
 * Error bodies as an error may carry them: parsed when reasonably small, else a bounded excerpt
 * with the full size noted (a hostile server can send megabytes).
 */
import { capText } from './observability/redact.js';

/** Error bodies above this size are kept as a text excerpt, not parsed. */
const MAX_PARSED_ERROR_BODY = 64 * 1024;

const decoder = new TextDecoder();

/** Node's Buffer, where the runtime has one (the transports of the Node entry hand bodies over as Buffers). */
const NodeBuffer = (globalThis as { Buffer?: { isBuffer(value: unknown): boolean } }).Buffer;

/** A Buffer's own decoding (Uint8Array's `toString` takes no encoding). */
type DecodesItself = { toString(encoding: 'utf8'): string };

/**
 * `body` (its first `end` bytes, if given) as UTF-8 text, a leading byte order mark dropped (as
 * TextDecoder drops it). A Node Buffer decodes itself, at about two thirds of TextDecoder's cost
 * per call (docs/benchmarks.md, round 4); anything else goes through TextDecoder, which runs anywhere.
 */
export function utf8(body: Uint8Array, end = body.length): string {
  let part = end < body.length ? body.subarray(0, end) : body;
  if (NodeBuffer?.isBuffer(part)) {
    if (part[0] === 0xef && part[1] === 0xbb && part[2] === 0xbf) part = part.subarray(3);
    return (part as unknown as DecodesItself).toString('utf8');
  }
  return decoder.decode(part);
}

/** The first 2 000 bytes of `body` as text, with its full size noted when it was longer. */
export function excerpt(body: Uint8Array): string {
  const text = utf8(body, 2_000);
  return body.length > 2_000 ? `${text}… [truncated: ${body.length} bytes in all]` : text;
}

/** The message detail of an error body too big to parse: its start, and its size. */
export function oversizeDetail(body: Uint8Array): string | undefined {
  if (body.length <= MAX_PARSED_ERROR_BODY) return undefined;
  return `${utf8(body, 300)}… [truncated: ${body.length} bytes in all]`;
}

/** The body an APIError carries: parsed JSON, capped text, or an excerpt of a huge body. */
export function decodeErrorBody(body: Uint8Array): unknown {
  if (body.length === 0) return undefined;
  // A huge error body is a hostile or broken server: keep a bounded excerpt, don't parse it all.
  if (body.length > MAX_PARSED_ERROR_BODY) return excerpt(body);
  const text = utf8(body);
  try {
    return JSON.parse(text);
  } catch {
    return capText(text);
  }
}
