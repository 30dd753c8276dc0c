/**
 * A token store in one file, for scripts and batch jobs on one machine. Each write goes to a
 * temporary file created with mode 0600 beside the target and is renamed over it, so a reader
 * sees the old token or the new one, never half of one, and the token is never readable by other
 * users, not even for a moment.
 */
import { dirname, resolve } from 'node:path';
import { INSPECT } from './inspect.js';
import { nodeBuiltin } from './node-builtins.js';
import { parseStoredToken, type StoredToken, type TokenStore } from './token-store.js';

/** `node:fs/promises`, loaded with the first read or write, not at import (node-builtins.ts says why). */
const fs = () => nodeBuiltin('node:fs/promises');

/** File mode of the token file: owner read and write only. */
export const TOKEN_FILE_MODE = 0o600;

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * Keeps the shared access token in a JSON file (mode 0600; its folder is created with mode 0700
 * if missing). A missing, unreadable or corrupt file reads as "no token".
 *
 * ```ts
 * const client = new VerificationClient({ tokenStore: new FileTokenStore('/var/run/myjob/token.json') });
 * ```
 */
export class FileTokenStore implements TokenStore {
  /** Absolute path of the token file. */
  readonly path: string;

  /** @param path Where the token file lives; relative paths resolve against the working directory. */
  constructor(path: string) {
    if (typeof path !== 'string' || path.trim() === '') {
      throw new TypeError('FileTokenStore needs the path of its token file.');
    }
    this.path = resolve(path);
  }

  /** The stored token, or `undefined` when there is none (or the file is not a token file). */
  async get(): Promise<StoredToken | undefined> {
    let text: string;
    try {
      text = await fs().readFile(this.path, 'utf8');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    return parseStoredToken(text);
  }

  /** Replaces the stored token atomically (temporary file of mode 0600, then rename). */
  async set(token: StoredToken): Promise<void> {
    await fs().mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.${nodeBuiltin('node:crypto').randomUUID()}.tmp`;
    try {
      await fs().writeFile(temporary, JSON.stringify(token), { mode: TOKEN_FILE_MODE, flag: 'wx' });
      await fs().rename(temporary, this.path);
    } catch (error) {
      await fs()
        .rm(temporary, { force: true })
        .catch(() => {});
      throw error;
    }
  }

  /** @internal Shows the path only. */
  [INSPECT](): string {
    return `FileTokenStore { path: '${this.path}' }`;
  }

  /** @internal */
  toJSON(): Record<string, string> {
    return { path: this.path };
  }
}
