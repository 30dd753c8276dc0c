/**
 * What the redaction scans look for in what the suite exposed: the suite's secrets, an email with a
 * readable local part (masked ones read `j***@`), a JWT, an E.164 number. `npm test` scans once after
 * the run (global-redaction.ts); the mutation run scans after each test (setup-exposure-per-test.ts).
 */
import { SECRETS_THAT_MUST_NOT_LEAK } from './secrets.js';

const LEAKS: Array<[string, RegExp]> = [
  ['email', /[A-Za-z0-9._%+-]{2,}(?<!\*\*\*)@[A-Za-z0-9-]+\.[A-Za-z0-9.-]*[A-Za-z]/],
  ['jwt', /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}/],
  ['phone', /\+\d{8,15}\b/],
];

/** Each leak in one exposed line, as `kind: line` (cut to 200 characters); empty when the line is clean. */
export function leaksIn(line: string): string[] {
  const found: string[] = [];
  for (const secret of SECRETS_THAT_MUST_NOT_LEAK) {
    if (line.includes(secret)) found.push(`a secret: ${line.slice(0, 200)}`);
  }
  for (const [kind, pattern] of LEAKS) {
    if (pattern.test(line)) found.push(`${kind}: ${line.slice(0, 200)}`);
  }
  return found;
}
