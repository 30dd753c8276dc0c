/** Byte arrays read in parts (a response body, a webhook delivery) joined into one. */

/** `parts` as one array of `total` bytes; a single part is returned as is. */
export function concatBytes(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}
