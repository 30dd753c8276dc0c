/**
 * Global setup: clears the exposure folder before the run; after it, scans everything the suite
 * exposed (logs, errors, inspected objects) for credentials and applicants' contact details.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { SECRETS_THAT_MUST_NOT_LEAK } from './secrets.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's test files write what they exposed. */
    exposureDir: string;
  }
}

// One folder per run, so concurrent runs in one checkout do not scan or wipe each other's files.
const dir = fileURLToPath(new URL(`../../.tmp/exposure/${process.pid}-${Date.now()}/`, import.meta.url));

// An email with a readable local part (masked ones read `j***@`), a JWT, an E.164 number.
const LEAKS: Array<[string, RegExp]> = [
  ['email', /[A-Za-z0-9._%+-]{2,}(?<!\*\*\*)@[A-Za-z0-9-]+\.[A-Za-z0-9.-]*[A-Za-z]/],
  ['jwt', /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}/],
  ['phone', /\+\d{8,15}\b/],
];

export function setup(project: TestProject): void {
  mkdirSync(dir, { recursive: true });
  project.provide('exposureDir', dir);
}

export function teardown(): void {
  if (!existsSync(dir)) return;
  const problems: string[] = [];
  let lines = 0;
  for (const file of readdirSync(dir)) {
    for (const line of readFileSync(`${dir}${file}`, 'utf8').split('\n')) {
      lines++;
      for (const secret of SECRETS_THAT_MUST_NOT_LEAK) {
        if (line.includes(secret)) problems.push(`${file}: a secret: ${line.slice(0, 200)}`);
      }
      for (const [kind, pattern] of LEAKS) {
        if (pattern.test(line)) problems.push(`${file}: ${kind}: ${line.slice(0, 200)}`);
      }
    }
  }
  if (problems.length > 0) {
    // vitest reports a throwing teardown but keeps exit code 0; the run must fail.
    process.exitCode = 1;
    throw new Error(
      `Redaction scan of ${lines} exposed lines found leaks:\n${problems.slice(0, 20).join('\n')}`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(`Redaction scan: ${lines} exposed lines, no secret, token, email or phone number.`);
}
