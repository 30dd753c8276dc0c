/**
 * Request bodies within a limit: read chunk by chunk, counted, and abandoned as soon as the count
 * passes the limit, so an oversized body never sits in memory (a hostile 1 GB upload costs the
 * mock one chunk, not a gigabyte).
 */

/** Largest request body the mock reads: 1 MiB. Larger bodies get 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A body read within the limit, or the news that it was too large. */
export type LimitedBody = { ok: true; text: string } | { ok: false };

/** Reads `request`'s body up to `limit` bytes; stops and cancels the stream past it. */
export async function readLimitedBody(request: Request, limit = MAX_BODY_BYTES): Promise<LimitedBody> {
  const declared = Number(request.headers.get('content-length') ?? '');
  const stream = request.body;
  if (Number.isFinite(declared) && declared > limit) {
    stream?.cancel().catch(() => undefined);
    return { ok: false };
  }
  if (!stream) return { ok: true, text: '' };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      // Not awaited: cancelling one branch of a tee'd body (msw clones requests) settles only
      // once the other branch is cancelled too, which is not ours to do.
      reader.cancel().catch(() => undefined);
      return { ok: false };
    }
    chunks.push(value);
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}
