/**
 * File writes that never leave a half-written file behind, even when the process is killed, and
 * never replace what an earlier run wrote.
 */
import { randomBytes } from 'node:crypto';
import type { WriteStream } from 'node:fs';
import { access, open, rename, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, parse, relative } from 'node:path';
import { finished } from 'node:stream/promises';

/**
 * Writes `data` to a temporary file beside `path`, then renames it into place. A rename is atomic
 * on one file system, so `path` holds either nothing, the old content, or all of the new one:
 * a rerun that skips files "already there" can trust what it finds. `mode` applies from the
 * first byte (0600 for reports: nobody else on the machine may read them, even mid-write).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, data, { mode, flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Whether something exists at `path`. */
export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** `2026-11-23T12:37:14.120Z` → `20261123T123714.120Z`: sortable, and valid in file names everywhere. */
export function timestampTag(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '');
}

/**
 * `path` when nothing is there yet, else the same name with `.<timestamp>` (and `-2`, `-3`...)
 * before the extension: what an earlier run wrote is never replaced.
 */
export async function unusedPath(path: string, at: Date): Promise<string> {
  if (!(await exists(path))) return path;
  const { dir, name, ext } = parse(path);
  const base = `${dir}/${name}.${timestampTag(at)}`;
  for (let attempt = 1; ; attempt++) {
    const candidate = `${base}${attempt === 1 ? '' : `-${attempt}`}${ext}`;
    if (!(await exists(candidate))) return candidate;
  }
}

/**
 * Writes a new file at `path`, failing (`EEXIST`) rather than replacing one that appeared since
 * {@link unusedPath} looked.
 */
export async function writeNewFile(path: string, data: string, mode = 0o644): Promise<void> {
  await writeFile(path, data, { mode, flag: 'wx' });
}

/** A path as a person wants to read it: relative when under `cwd`, absolute otherwise. */
export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** A file being written through a stream, owner-only from the first byte, that appears whole or not at all. */
export interface PrivateFileStream {
  /** Where the data goes until {@link PrivateFileStream.commit}. */
  stream: WriteStream;
  /** Ends the stream and renames the temporary file to the path asked for (replacing a file there). */
  commit(): Promise<void>;
  /** Ends the stream and removes the temporary file: nothing appears at the path. */
  discard(): Promise<void>;
}

/**
 * Opens a temporary file beside `path`, mode 0600 from its first byte (it holds applicants' names
 * and emails), for a stream; {@link PrivateFileStream.commit} renames it into place, so a killed
 * run leaves no half file and nobody else on the machine can read it at any moment.
 */
export async function openPrivateFile(path: string): Promise<PrivateFileStream> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  // Opened first, so a folder that refuses it fails here, not as a stream's unhandled error.
  const handle = await open(temporary, 'wx', 0o600);
  const stream = handle.createWriteStream();
  const end = async () => {
    if (!stream.writableFinished && !stream.destroyed) stream.end();
    await finished(stream).catch(() => {});
  };
  return {
    stream,
    commit: async () => {
      stream.end();
      await finished(stream);
      await rename(temporary, path);
    },
    discard: async () => {
      await end();
      await rm(temporary, { force: true });
    },
  };
}
