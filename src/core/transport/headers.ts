/**
 * Caller headers checked before any I/O. undici refuses a header name that is not an HTTP token
 * and a value holding CR, LF or NUL (header injection); refused there, mid-send, the failure
 * would look like a network error, and a create would be reported as possibly created. Here it
 * is a {@link RequestValidationError} naming the header, and nothing was sent.
 */
import { RequestValidationError, type ValidationIssue } from '../errors.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FORBIDDEN_IN_VALUE = /[\r\n\0]/;

/** Throws {@link RequestValidationError} naming each header (`option.name`) undici would refuse; the value is never quoted. */
export function checkHeaderValues(headers: Record<string, unknown>, option: string): void {
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) {
      issues.push({ path: `${option}.${name}`, message: 'Not a valid header name', code: 'invalid_header' });
    } else if (typeof value !== 'string' || FORBIDDEN_IN_VALUE.test(value)) {
      issues.push({
        path: `${option}.${name}`,
        message:
          typeof value !== 'string'
            ? 'A header value must be a string'
            : 'A header value cannot contain CR, LF or NUL characters',
        code: 'invalid_header',
      });
    }
  }
  if (issues.length > 0) throw new RequestValidationError(issues, 'Invalid request header');
}
