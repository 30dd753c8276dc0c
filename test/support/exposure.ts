/**
 * One place that collects everything the suite shows to a person: log lines, error messages,
 * `toJSON` and `util.inspect` output. Each test file's collection is written to the run's
 * folder under `.tmp/exposure/` when the file ends; the global teardown scans it all for secrets.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';

const collected: string[] = [];

/** Records a log line or any text shown to a person. */
export function expose(text: string): void {
  collected.push(text);
}

/** Records an error as a person would see it: message, JSON form and inspect output. */
export function exposeError(error: unknown): void {
  if (error instanceof Error) collected.push(error.message);
  collected.push(JSON.stringify(error) ?? '', inspect(error, { depth: 8 }));
}

/** Records an object's inspect and JSON forms. */
export function exposeObject(value: unknown): void {
  collected.push(inspect(value, { depth: 8, showHidden: true }), JSON.stringify(value) ?? '');
}

/** Writes this file's collection into `dir` (called once per test file by the setup file). */
export function flushExposure(dir: string, file: string): void {
  if (collected.length === 0) return;
  mkdirSync(dir, { recursive: true });
  const name = `${file.replace(/[^\w.-]+/g, '_')}-${process.pid}-${Date.now()}.log`;
  writeFileSync(join(dir, name), collected.join('\n'));
  collected.length = 0;
}

/** Awaits `promise` expecting a rejection; records and returns the error (or the value, if it resolved). */
export async function caught(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    return await promise;
  } catch (error) {
    exposeError(error);
    return error;
  }
}

/** Removes and returns what was exposed since the last call (the mutation run's per-test scan). */
export function takeExposure(): string[] {
  return collected.splice(0);
}
