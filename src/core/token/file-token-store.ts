/**
 * A token store in one file, for scripts and batch jobs on one machine. The file holds the token
 * of every client id that saved one (`{ "tokens": { "<client id>": { token, expiresAt, clientId } } }`;
 * a file of the earlier one-token shape still reads as that client id's token). Each write goes to
 * a temporary file created with mode 0600 beside the target and is renamed over it, so a reader
 * sees the old tokens or the new ones, never half of them, and no token is ever readable by other
 * users, not even for a moment. Expired tokens are dropped on each write, so the file holds at
 * most the accounts active within a token's lifetime.
 */
import { dirname, resolve } from 'node:path';
import { INSPECT } from '../observability/inspect.js';
import { nodeBuiltin } from '../transport/node-builtins.js';
import { isStoredToken, type StoredToken, type TokenStore } from './token-store.js';

/** `node:fs/promises`, loaded with the first read or write, not at import (node-builtins.ts says why). */
const fs = () => nodeBuiltin('node:fs/promises');

/** File mode of the token file: owner read and write only. */
export const TOKEN_FILE_MODE = 0o600;

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/** The tokens a file's text holds, by client id; text that is not a token file holds none. */
function parseTokenFile(text: string): Map<string, StoredToken> {
  const tokens = new Map<string, StoredToken>();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return tokens;
  }
  // The earlier shape: one token.
  if (isStoredToken(value)) return tokens.set(value.clientId, value);
  const held =
    typeof value === 'object' && value !== null ? (value as { tokens?: unknown }).tokens : undefined;
  if (typeof held !== 'object' || held === null) return tokens;
  for (const [clientId, token] of Object.entries(held)) {
    if (isStoredToken(token) && token.clientId === clientId) tokens.set(clientId, token);
  }
  return tokens;
}

/**
 * Keeps the shared access tokens, one per client id, in a JSON file (mode 0600; its folder is
 * created with mode 0700 if missing). A missing, unreadable or corrupt file reads as "no token".
 * Two processes saving tokens of different client ids at the same moment may lose one of the two
 * writes: that account then exchanges once more, nothing worse.
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

  /** The stored token of `clientId`, or `undefined` when there is none (or the file is not a token file). */
  async get(clientId: string): Promise<StoredToken | undefined> {
    return (await this.#read()).get(clientId);
  }

  async #read(): Promise<Map<string, StoredToken>> {
    try {
      return parseTokenFile(await fs().readFile(this.path, 'utf8'));
    } catch (error) {
      if (isMissing(error)) return new Map();
      throw error;
    }
  }

  /**
   * Replaces the stored token of `token.clientId` atomically (temporary file of mode 0600, then
   * rename), keeping the other client ids' tokens that have not expired.
   */
  async set(token: StoredToken): Promise<void> {
    if (!isStoredToken(token)) throw new TypeError('FileTokenStore: set() takes a stored token.');
    const tokens = await this.#read();
    tokens.set(token.clientId, { token: token.token, expiresAt: token.expiresAt, clientId: token.clientId });
    await this.#write(tokens);
  }

  /**
   * Drops the stored token of `clientId` if it is still `token` (a newer one another process saved
   * stays), atomically as {@link set} writes. Nothing is written when the file does not hold it.
   */
  async delete(clientId: string, token: string): Promise<void> {
    const tokens = await this.#read();
    if (tokens.get(clientId)?.token !== token) return;
    tokens.delete(clientId);
    await this.#write(tokens);
  }

  /** Writes `tokens` (less the expired ones) over the file: a temporary file of mode 0600, then rename. */
  async #write(tokens: Map<string, StoredToken>): Promise<void> {
    const now = Date.now();
    for (const [clientId, held] of tokens) if (held.expiresAt <= now) tokens.delete(clientId);
    await fs().mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.${nodeBuiltin('node:crypto').randomUUID()}.tmp`;
    try {
      const text = JSON.stringify({ tokens: Object.fromEntries(tokens) });
      await fs().writeFile(temporary, text, { mode: TOKEN_FILE_MODE, flag: 'wx' });
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
