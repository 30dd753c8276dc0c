/** File writes that never leave a half-written file behind, even when the process is killed. */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';

/**
 * Writes `data` to a temporary file beside `path`, then renames it into place. A rename is atomic
 * on one file system, so `path` holds either nothing, the old content, or all of the new one:
 * a rerun that skips files "already there" can trust what it finds.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, data);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** A path as a person wants to read it: relative when under `cwd`, absolute otherwise. */
export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}
