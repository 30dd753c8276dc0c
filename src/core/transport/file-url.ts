/**
 * File links the API hands out (pre-signed PDF links): resolved against the base URL and
 * allowed only as `https:`, or `http:` when the API itself is plain http on loopback (a mock).
 * Anything else (`file:`, `data:`, `ftp:`) is refused before any request: it is not a download.
 */
import { ResponseValidationError } from '../errors.js';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** The absolute link to fetch, or {@link ResponseValidationError} on `field` when it is not allowed. */
export function checkFileURL(url: string, apiOrigin: string, basePath: string, field = 'pdf_url'): string {
  let resolved: URL;
  try {
    resolved = new URL(url, `${apiOrigin}${basePath}/`);
  } catch {
    resolved = new URL('invalid:');
  }
  const api = new URL(apiOrigin);
  const loopbackHttp = api.protocol === 'http:' && LOOPBACK.test(api.hostname);
  const allowed = resolved.protocol === 'https:' || (resolved.protocol === 'http:' && loopbackHttp);
  if (!allowed) {
    throw new ResponseValidationError(
      [
        {
          path: field,
          message: `Refused a ${field} with scheme "${resolved.protocol}": only https: links are downloaded${loopbackHttp ? ' (or http: from a loopback API)' : ''}`,
          code: 'unsafe_url',
        },
      ],
      undefined,
      `Refused the report's ${field}`,
    );
  }
  return resolved.href;
}
