/**
 * Masking of personal data and secrets. Applicants are real people: their emails and phone
 * numbers never reach a log line or an error message in clear, and credentials never at all.
 *
 * Every scan here is linear in the length of the text: error messages and bodies come from
 * servers, and a hostile one can send a megabyte built to make a backtracking regex crawl.
 * Emails and JWTs are therefore found by hand-written scanners, and the remaining regexes can
 * only start at a fixed literal (`+`, `%2B`, `Bearer`).
 */

// International numbers as the API carries them (+ and 7-15 digits), possibly URL-encoded.
const PHONE = /(\+|%2B)(\d{1,3})\d{4,10}(\d{2})\b/gi;
const BEARER = /Bearer\s+[A-Za-z0-9._~+/=-]+/gi;
// Runs of characters a JWT is made of; each run is checked once (see maskJwtRuns).
const JWT_RUN = /[A-Za-z0-9_.-]{10,}/g;
const SECRET_KEYS = /authorization|secret|token|password|api[-_]?key|cookie/i;

/** Characters longer than this are cut from messages and body excerpts, with the size noted. */
export const MAX_TEXT_LENGTH = 2_000;

function isLocalChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 65 && code <= 90) || // A-Z
    (code >= 48 && code <= 57) || // 0-9
    code === 46 || // .
    code === 95 || // _
    code === 37 || // %
    code === 43 || // +
    code === 45 // -
  );
}

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

function isDomainChar(code: number): boolean {
  return isLetter(code) || (code >= 48 && code <= 57) || code === 45 || code === 46;
}

/** Length of the domain that starts at `from` (a label, a dot, more, ending in a letter), or 0. */
function domainLength(text: string, from: number): number {
  let end = from;
  let firstDot = -1;
  let lastLetter = -1;
  // Stryker disable next-line ConditionalExpression: equivalent, charCodeAt past the end is NaN, which is no domain character
  while (end < text.length && isDomainChar(text.charCodeAt(end))) {
    const code = text.charCodeAt(end);
    if (code === 46 && firstDot === -1) firstDot = end;
    if (isLetter(code)) lastLetter = end;
    end++;
  }
  // Stryker disable next-line EqualityOperator: equivalent, a dot is not a letter, so lastLetter never equals firstDot here
  if (firstDot <= from || lastLetter <= firstDot) return 0;
  return lastLetter + 1 - from;
}

/**
 * `jane.doe@example.com` → `j***@example.com`, also with `%40` for `@` (URL-encoded queries).
 * One pass: the local part is the run of local characters before the separator (tracked as the
 * scan goes); a domain is read from each separator up to the next `@` or `%` at the latest, so
 * the domain reads never overlap.
 */
function maskEmails(text: string): string {
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, a shortcut: the scan below finds no email in such text either
  if (!text.includes('@') && !text.includes('%40')) return text;
  let out = '';
  let copiedUpTo = 0;
  let runStart = 0; // start of the current run of local characters
  let i = 0;
  // Stryker disable next-line EqualityOperator: equivalent, a step past the end reads NaN, which is neither a separator nor a local character
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const separator = code === 64 ? 1 : code === 37 && text.startsWith('%40', i) ? 3 : 0;
    const localStart = Math.max(runStart, copiedUpTo);
    if (separator > 0 && localStart < i) {
      const domain = domainLength(text, i + separator);
      if (domain > 0) {
        const end = i + separator + domain;
        out += `${text.slice(copiedUpTo, localStart + 1)}***${text.slice(i, end)}`;
        copiedUpTo = end;
        runStart = end;
        i = end;
        continue;
      }
    }
    if (!isLocalChar(code)) runStart = i + 1;
    i++;
  }
  // Stryker disable next-line ConditionalExpression: equivalent, with nothing masked out is '' and the slice is the whole text
  return copiedUpTo === 0 ? text : out + text.slice(copiedUpTo);
}

/** `jane.doe@example.com` → `j***@example.com`. */
export function maskEmail(email: string): string {
  return maskEmails(email);
}

function isWordChar(code: number): boolean {
  return isLetter(code) || (code >= 48 && code <= 57) || code === 95;
}

/** Within one run of JWT characters: from an `eyJ` that starts a word, with two dots after it, to the run's end. */
function maskJwtRun(run: string): string {
  let firstDot = -1;
  // Stryker disable next-line UnaryOperator: equivalent, the first eyJ is past firstDot (-1), so secondDot is set before it is read
  let secondDot = -1;
  for (let at = run.indexOf('eyJ'); at !== -1; at = run.indexOf('eyJ', at + 1)) {
    // The dots after `at` are found again only once `at` has passed them: the scan stays linear.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent in result (at is never a dot); it keeps the scan linear
    if (at > firstDot) {
      firstDot = run.indexOf('.', at);
      if (firstDot === -1) return run;
      secondDot = run.indexOf('.', firstDot + 1);
      // Stryker disable next-line ConditionalExpression,UnaryOperator: equivalent, without a second dot the check below never masks, and no later eyJ finds one
      if (secondDot === -1) return run;
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, at 0 charCodeAt(-1) is NaN, no word character
    if (at > 0 && isWordChar(run.charCodeAt(at - 1))) continue;
    if (secondDot > firstDot + 1) return `${run.slice(0, at)}[REDACTED]`;
  }
  return run;
}

/** One run of JWT characters, its JWT masked; a run without `eyJ` holds none and is skipped cheaply. */
// Stryker disable next-line StringLiteral: equivalent, maskJwtRun returns a run without eyJ as it is
const maskJwtsIn = (run: string): string => (run.includes('eyJ') ? maskJwtRun(run) : run);

/** Masks emails, phone numbers, bearer tokens and JWTs wherever they appear in a string. */
export function maskText(text: string): string {
  return maskEmails(text.replace(BEARER, 'Bearer [REDACTED]').replace(JWT_RUN, maskJwtsIn)).replace(
    PHONE,
    '$1$2******$3',
  );
}

/** Cuts `text` to {@link MAX_TEXT_LENGTH} characters, noting how long it was. */
export function capText(text: string, limit = MAX_TEXT_LENGTH): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}… [truncated: ${text.length} characters in all]`;
}

/** Replaces each of `secrets` (the client's own key and token) wherever `text` repeats them. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Short values would match by accident; real keys and tokens are long.
    if (secret.length >= 8 && out.includes(secret)) out = out.split(secret).join('[REDACTED]');
  }
  return out;
}

/** A deep copy of `value` with every string passed through `scrubSecrets` (depth-limited). */
function safeJson(value: object): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[unserializable]';
  }
}

export function scrubDeep(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return scrubSecrets(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  // Too deep to copy: flattened to scrubbed text, so a secret buried in it does not slip through.
  if (depth > 8) return scrubSecrets(safeJson(value), secrets);
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[scrubSecrets(key, secrets)] = scrubDeep(item, secrets, depth + 1);
  }
  return out;
}

/**
 * A deep copy of `value` fit for a log: values under secret-looking keys are replaced, strings
 * are capped and masked. Depth-limited so a cyclic or huge object cannot stall logging.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskText(capText(value));
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const [key, item] of Object.entries(value)) {
    if (++kept > 100) {
      out['…'] = `${Object.keys(value).length - 100} more keys`;
      break;
    }
    // Keys too: a body keyed by email address is as personal as one holding it.
    out[maskText(capText(key, 200))] = SECRET_KEYS.test(key) ? '[REDACTED]' : redact(item, depth + 1);
  }
  return out;
}
