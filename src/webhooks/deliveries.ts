/**
 * Dropping repeated deliveries. Events carry no id and no timestamp, so a delivery is known by its
 * signed body: the same bytes with a valid signature are the same delivery, sent again (a sender's
 * retry after a lost answer). The window is minutes, not days: `VERIFICATION_COMPLETED` repeats
 * with the very same body when an applicant re-opens and completes again, and that one must be
 * handled. A delivery is recorded only once the handler succeeded, so a failed one is handled
 * again when it is resent.
 */
import type { WebhookBody } from './verify.js';

/** Default window in which a repeated delivery is dropped: 5 minutes. */
export const DEFAULT_WEBHOOK_DEDUPE_WINDOW_MS = 5 * 60_000;

/**
 * Where receivers remember handled deliveries. Methods may return promises (Redis, a database).
 * One store (one table) serves every account of a receiver whose `secret` function names accounts:
 * a record is known by the pair (`account`, `key`), where `account` is the client id the secret
 * function named (the same account a `GroupStore` gets), `undefined` for a receiver with a fixed
 * secret. A store written for one account that ignores `account` still works there.
 */
export interface WebhookDeliveryStore {
  /** Whether a delivery with this key was recorded for this account and its window has not ended. */
  has(key: string, account?: string): boolean | Promise<boolean>;
  /** Records a handled delivery of this account for `windowMs`. */
  add(key: string, windowMs: number, account?: string): void | Promise<void>;
}

/** One map key for the pair (account, delivery key): the account cannot forge a separator, keys are hex. */
function recordKey(key: string, account: string | undefined): string {
  return account === undefined ? key : `${key} ${JSON.stringify(account)}`;
}

/** Options of {@link MemoryDeliveryStore}. */
export interface MemoryDeliveryStoreOptions {
  /** The current time in epoch ms (default `Date.now`); tests pass a clock they move. */
  now?: () => number;
  /** Most deliveries kept; the oldest go first beyond it (default 10 000). */
  maxEntries?: number;
}

/** A {@link WebhookDeliveryStore} in memory: for one receiver process. */
export class MemoryDeliveryStore implements WebhookDeliveryStore {
  readonly #until = new Map<string, number>();
  readonly #now: () => number;
  readonly #max: number;

  /** See {@link MemoryDeliveryStoreOptions}. */
  constructor(options: MemoryDeliveryStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#max = options.maxEntries ?? 10_000;
  }

  /** Whether the key was recorded for the account within its window. */
  has(key: string, account?: string): boolean {
    const record = recordKey(key, account);
    const until = this.#until.get(record);
    if (until === undefined) return false;
    if (this.#now() < until) return true;
    this.#until.delete(record);
    return false;
  }

  /** Records the key for the account for `windowMs`. */
  add(key: string, windowMs: number, account?: string): void {
    const record = recordKey(key, account);
    this.#until.delete(record); // re-inserted last: the map's order is the eviction order
    this.#until.set(record, this.#now() + windowMs);
    while (this.#until.size > this.#max) {
      const oldest = this.#until.keys().next().value;
      if (oldest === undefined) break;
      this.#until.delete(oldest);
    }
  }
}

/** What receivers take to drop repeated deliveries. */
export interface WebhookDedupeOptions {
  /** Remembers handled deliveries; without it every delivery is handled. */
  deliveries?: WebhookDeliveryStore;
  /** How long a handled delivery is remembered, in ms. Default 5 minutes. */
  dedupeWindowMs?: number;
}

// Deliveries being handled right now, per store: a repeat arriving meanwhile waits for the first.
const inFlight = new WeakMap<WebhookDeliveryStore, Map<string, Promise<boolean>>>();

/**
 * The key of a delivery: the SHA-256 of its body (Web Crypto, so every runtime has it). Only
 * verified bodies get here, so the same key means the same signed body.
 */
export async function deliveryKey(rawBody: WebhookBody): Promise<string> {
  const bytes = typeof rawBody === 'string' ? new TextEncoder().encode(rawBody) : new Uint8Array(rawBody);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Runs `handle` unless the same signed body was handled for the same account within the window;
 * records it once `handle` succeeded. A repeat arriving while the first is still being handled
 * waits for it, and is dropped if it succeeded. Returns whether `handle` ran.
 */
export async function handleOnce(
  options: WebhookDedupeOptions,
  rawBody: WebhookBody,
  account: string | undefined,
  handle: () => unknown,
): Promise<boolean> {
  const store = options.deliveries;
  if (!store) {
    await handle();
    return true;
  }
  const key = await deliveryKey(rawBody);
  const record = recordKey(key, account);
  let running = inFlight.get(store);
  if (!running) {
    running = new Map();
    inFlight.set(store, running);
  }
  let waited: Promise<boolean> | undefined;
  for (let pending = running.get(record); pending && pending !== waited; pending = running.get(record)) {
    waited = pending;
    if (await pending.catch(() => false)) return false;
  }
  if (await (account === undefined ? store.has(key) : store.has(key, account))) return false;
  const work = (async () => {
    await handle();
    const windowMs = options.dedupeWindowMs ?? DEFAULT_WEBHOOK_DEDUPE_WINDOW_MS;
    await (account === undefined ? store.add(key, windowMs) : store.add(key, windowMs, account));
    return true;
  })();
  running.set(record, work);
  try {
    return await work;
  } finally {
    if (running.get(record) === work) running.delete(record);
  }
}
