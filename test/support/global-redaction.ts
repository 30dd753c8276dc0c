/**
 * Global setup: clears the exposure folder before the run; after it, scans everything the suite
 * exposed (logs, errors, inspected objects) for credentials and applicants' contact details.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { leaksIn } from './leaks.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's test files write what they exposed. */
    exposureDir: string;
  }
}

// One folder per run, so concurrent runs in one checkout do not scan or wipe each other's files.
const dir = fileURLToPath(new URL(`../../.tmp/exposure/${process.pid}-${Date.now()}/`, import.meta.url));

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
      for (const leak of leaksIn(line)) problems.push(`${file}: ${leak}`);
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
