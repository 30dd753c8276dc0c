/**
 * Masking of personal data and secrets. Applicants are real people: their emails and phone
 * numbers never reach a log line or an error message in clear, and credentials never at all.
 */

// Also as URL-encoded in a query string (`%40`).
const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*?(@|%40)([A-Za-z0-9-]+\.[A-Za-z0-9.-]*[A-Za-z])/gi;
// International numbers as the API carries them (+ and 7-15 digits), possibly URL-encoded.
const PHONE = /(\+|%2B)(\d{1,3})\d{4,10}(\d{2})\b/gi;
const BEARER = /Bearer\s+[A-Za-z0-9._~+/=-]+/gi;
const JWT = /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const SECRET_KEYS = /authorization|secret|token|password|api[-_]?key|cookie/i;

/** `jane.doe@example.com` → `j***@example.com`. */
export function maskEmail(email: string): string {
  return email.replace(EMAIL, '$1***$2$3');
}

/** Masks emails, phone numbers, bearer tokens and JWTs wherever they appear in a string. */
export function maskText(text: string): string {
  return text
    .replace(BEARER, 'Bearer [REDACTED]')
    .replace(JWT, '[REDACTED]')
    .replace(EMAIL, '$1***$2$3')
    .replace(PHONE, '$1$2******$3');
}

/**
 * A deep copy of `value` fit for a log: values under secret-looking keys are replaced, strings
 * are masked. Depth-limited so a cyclic or huge object cannot stall logging.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // Keys too: a body keyed by email address is as personal as one holding it.
    out[maskText(key)] = SECRET_KEYS.test(key) ? '[REDACTED]' : redact(item, depth + 1);
  }
  return out;
}
