/**
 * What the isolation suites share (test/integrations/platform-isolation*.test.ts): one token table
 * for every account, as a platform's database would keep it, and a bounded-concurrency runner.
 */
import type { StoredToken, TokenStore } from '../../src/index.js';

/** One table for every account's token, as a platform's database would keep them. */
export class TableTokenStore implements TokenStore {
  readonly rows = new Map<string, StoredToken>();
  /** Tokens the store handed out for another client id than the one asked for: must stay 0. */
  mixups = 0;

  async get(clientId: string): Promise<StoredToken | undefined> {
    const row = this.rows.get(clientId);
    if (row && row.clientId !== clientId) this.mixups++;
    return row;
  }

  async set(token: StoredToken): Promise<void> {
    this.rows.set(token.clientId, token);
  }

  /** Tokens dropped through {@link delete}, in order. */
  readonly deleted: string[] = [];

  /** Drops `clientId`'s row if it still holds `token` (what `TokenStore.delete` asks). */
  async delete(clientId: string, token: string): Promise<void> {
    if (this.rows.get(clientId)?.token !== token) return;
    this.rows.delete(clientId);
    this.deleted.push(token);
  }
}

/** Runs `run` over `items`, at most `size` at a time. */
export async function inBatches<T>(items: readonly T[], size: number, run: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await run(item);
      }
    }),
  );
}
