/**
 * Caller headers (`defaultHeaders`, a call's `headers`) checked before any I/O, and the names the
 * SDK keeps for itself. Header names are case-insensitive on the wire: `Authorization`,
 * `AUTHORIZATION` and `authorization` are one header, so a caller's header in any spelling that
 * names one the SDK sets would replace or double the SDK's (a caller's `Authorization` sent another
 * account's token: docs/platforms.md, "Isolation"). Such a header is refused here, and so is any
 * name or value undici would refuse mid-send (not an HTTP token; CR, LF or NUL in the value: header
 * injection), where the failure would look like a network error and a create would be reported as
 * possibly created. Here it is a {@link RequestValidationError} naming the header, nothing sent.
 */
import { RequestValidationError, type ValidationIssue } from '../errors.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FORBIDDEN_IN_VALUE = /[\r\n\0]/;

/** What a caller who sets Authorization should do instead (the message of every spelling). */
const AUTHORIZATION_ADVICE =
  'the SDK sends each account its own token and a caller may not replace it: to act for another account, derive a client with client.withOptions({ clientId, secretKey }), or build a client with the accessToken option';

/**
 * The headers the SDK sets or the connection owns, lowercased, with why a caller may not set them.
 * Every spelling of these names is refused in `defaultHeaders` and in a call's `headers`.
 */
const SDK_HEADERS: ReadonlyMap<string, string> = new Map([
  ['authorization', AUTHORIZATION_ADVICE],
  ['proxy-authorization', 'proxy credentials belong to the dispatcher (see the README, "Behind a proxy")'],
  ['content-type', 'the SDK sets it (application/json) on every request with a body'],
  ['content-length', 'the connection sets it from the body'],
  ['host', 'the connection sets it from the base URL'],
  ['user-agent', 'the SDK identifies itself and the runtime'],
  ['accept', 'the SDK asks for JSON and parses nothing else'],
  ['connection', 'the connection pool owns it'],
  ['keep-alive', 'the connection pool owns it'],
  ['transfer-encoding', 'the connection sets it from the body'],
  ['upgrade', 'the connection pool owns it'],
  ['expect', 'the connection pool owns it'],
]);

/**
 * The caller's headers checked, as a new record with lowercased names (the spelling the SDK's own
 * headers use, so a caller's header can never sit beside one of them under another case).
 * @throws {RequestValidationError} naming each header (`option.Name`, as the caller spelled it)
 *   that is not an HTTP token, whose value is not a string or holds CR, LF or NUL, that names a
 *   header the SDK sets (Authorization, Content-Type, User-Agent, ...), or that repeats another
 *   under another case. The value is never quoted.
 */
export function checkedHeaders(headers: Record<string, unknown>, option: string): Record<string, string> {
  const issues: ValidationIssue[] = [];
  const checked: Record<string, string> = {};
  const spelled = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const path = `${option}.${name}`;
    const lower = name.toLowerCase();
    const reserved = SDK_HEADERS.get(lower);
    if (!TOKEN.test(name)) {
      issues.push({ path, message: 'Not a valid header name', code: 'invalid_header' });
    } else if (reserved !== undefined) {
      issues.push({ path, message: `${name} is not the caller's to set: ${reserved}`, code: 'sdk_header' });
    } else if (typeof value !== 'string' || FORBIDDEN_IN_VALUE.test(value)) {
      issues.push({
        path,
        message:
          typeof value !== 'string'
            ? 'A header value must be a string'
            : 'A header value cannot contain CR, LF or NUL characters',
        code: 'invalid_header',
      });
    } else if (spelled.has(lower)) {
      issues.push({
        path,
        message: `${name} and ${spelled.get(lower)} are one header (names are case-insensitive): set it once`,
        code: 'duplicate_header',
      });
    } else {
      spelled.set(lower, name);
      checked[lower] = value;
    }
  }
  if (issues.length > 0) throw new RequestValidationError(issues, 'Invalid request header');
  return checked;
}
