/**
 * Pre-signed links that expire: when each response carrying one was received, and a download
 * that refreshes a stale or refused link once.
 */
import { APIError } from '../errors.js';
import type { Logger } from '../observability/log.js';

/** Statuses a file host answers a stale or tampered pre-signed link with. */
const STALE_LINK_STATUSES = new Set([400, 401, 403, 410]);

/** Remembers when objects carrying a link were received, without keeping them alive. */
export class LinkFreshness {
  readonly #receivedAt = new WeakMap<object, number>();
  readonly #lifetimeMs: number;
  readonly #now: () => number;

  /**
   * @param lifetimeMs How long a link stays usable after its response was received.
   * @param now The client's clock (epoch ms): a test that moves it ages the links with it.
   */
  constructor(lifetimeMs: number, now: () => number) {
    this.#lifetimeMs = lifetimeMs;
    this.#now = now;
  }

  /** Records that `carrier` was received now. */
  received(carrier: object): void {
    this.#receivedAt.set(carrier, this.#now());
  }

  /** Whether `carrier`'s link is past its lifetime; one received elsewhere has an unknown age: not stale. */
  isStale(carrier: object): boolean {
    const receivedAt = this.#receivedAt.get(carrier);
    return receivedAt !== undefined && this.#now() - receivedAt > this.#lifetimeMs;
  }
}

/** What {@link downloadWithFreshLink} needs. */
export interface FreshLinkDownload<C, R> {
  /** The carrier the caller holds, if fresh enough to use; `undefined` to fetch one first. */
  initial: C | undefined;
  /** Fetches a carrier with a fresh link. */
  refresh(): Promise<C>;
  /** Downloads through the carrier's link. */
  download(carrier: C): Promise<R>;
  logger: Logger;
  /** Names the object in the log line ("report 123"). */
  what: string;
}

/** Downloads through a link; a refused (stale) link is refreshed once and the download retried. */
export async function downloadWithFreshLink<C, R>(plan: FreshLinkDownload<C, R>): Promise<R> {
  let carrier = plan.initial;
  for (let refreshed = false; ; refreshed = true) {
    carrier ??= await plan.refresh();
    try {
      return await plan.download(carrier);
    } catch (error) {
      if (refreshed || !(error instanceof APIError && STALE_LINK_STATUSES.has(error.status))) throw error;
      plan.logger.info(`PDF link of ${plan.what} was refused (${error.status}); retrieving a fresh one.`);
      carrier = undefined;
    }
  }
}
