/**
 * A PDF as a file host answers it. The links are pre-signed and the hosts are not the API: a link
 * past its life, a proxy's error page or a captive portal can answer 200 with HTML. The bytes are
 * taken for a PDF only when they carry the PDF header, `%PDF-`, within the first kilobyte (where
 * readers look for it; some generators put a byte-order mark or whitespace before it).
 */
import type * as z from 'zod';
import { zod } from '../load/zod.js';

/** How far into the file readers look for the `%PDF-` header. */
const HEADER_SEARCH_BYTES = 1024;
const HEADER = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

/** Whether `bytes` carry the PDF header within the first kilobyte. */
function hasPdfHeader(bytes: Uint8Array): boolean {
  const last = Math.min(bytes.length - HEADER.length, HEADER_SEARCH_BYTES - HEADER.length);
  for (let start = 0; start <= last; start++) {
    if (HEADER.every((byte, offset) => bytes[start + offset] === byte)) return true;
  }
  return false;
}

let pdfBytes: z.ZodType<Uint8Array> | undefined;

/**
 * The bytes of a downloaded PDF: refused (ResponseValidationError) when they are not one. Built
 * with the first download, not at import (docs/benchmarks.md, "Cold start, round 6").
 */
export function pdfBytesSchema(): z.ZodType<Uint8Array> {
  const z = zod();
  pdfBytes ??= z.instanceof(Uint8Array).refine(hasPdfHeader, {
    message:
      'Expected a PDF (bytes starting with %PDF-): the file host answered something else, such as an HTML or error page',
  });
  return pdfBytes;
}
