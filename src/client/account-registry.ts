/**
 * What every platform wrote by hand around `withOptions` (docs/platforms.md): a registry of
 * account clients, each built on first use, bounded (least recently used evicted and closed),
 * rebuilt when the account's credentials change (a rotation: the stored token the old secret
 * minted is dropped, client-family.ts), closed when dropped; and a loop over accounts with bounded
 * concurrency in which one account's failure stays its own.
 */
import { ConfigurationError } from '../core/options.js';
import { type BatchOptions, mapSettled, type Settled } from '../core/results/batch.js';
import type { DerivedClientOptions } from './client-family.js';

/** One account's credentials, as the platform's table holds them. */
export interface AccountCredentials {
  /** The account's client id: the key the registry knows it by. */
  clientId: string;
  /** Its secret key (a new one rebuilds the account's client). */
  secretKey: string;
}

/** What a registry derives its clients from: a platform root, or any client (`withOptions`). */
export interface AccountRoot<C> {
  /** Derives the client of one account. */
  withOptions(options: DerivedClientOptions): C;
}

/** Options of {@link AccountRegistry}. */
export interface AccountRegistryOptions {
  /**
   * The credentials of `clientId`, or `undefined` when the platform has no such account. Called on
   * every {@link AccountRegistry.get}, so a changed secret key rebuilds the client at once: make
   * it a lookup your service can afford that often (an indexed row, a cache of your own).
   */
  credentials: (clientId: string) => AccountCredentials | undefined | Promise<AccountCredentials | undefined>;
  /**
   * The most account clients held at once (default 10 000); past it the least recently used is
   * closed and forgotten (its next use builds it again, and takes its token from the token store
   * or exchanges one). Keep it above the number of accounts in use at the same moment.
   */
  maxAccounts?: number | undefined;
  /** Options every account's client gets besides its credentials (`timeout`, `defaultHeaders`, ...). */
  clientOptions?: Omit<DerivedClientOptions, 'clientId' | 'secretKey'> | undefined;
}

/** One account's outcome in {@link AccountRegistry.each}: its client id, and its value or its error. */
export type AccountSettled<T> = Settled<T> & {
  /** The account's client id. */
  account: string;
};

/** The registry's record of one account's client. */
interface Held<C> {
  client: C;
  secretKey: string;
}

/**
 * The account clients of a platform, derived from its root on first use and kept, bounded, rebuilt
 * when an account's credentials change, closed when dropped.
 *
 * ```ts
 * const root = VerificationClient.platformRoot({ baseURL, tokenStore });
 * const accounts = new AccountRegistry(root, { credentials: (clientId) => landlords.credentials(clientId) });
 * const client = await accounts.get(clientId); // undefined: no such account
 * const results = await accounts.each(clientIds, (client) => countChanges(client), { concurrency: 4 });
 * ```
 */
export class AccountRegistry<
  C extends {
    /** Closes the client: the registry calls it when it drops or rebuilds an account's client. */
    close(): Promise<void>;
  },
> {
  readonly #root: AccountRoot<C>;
  readonly #credentials: AccountRegistryOptions['credentials'];
  readonly #max: number;
  readonly #clientOptions: AccountRegistryOptions['clientOptions'];
  /** Insertion order is use order: the first key is the least recently used. */
  readonly #held = new Map<string, Held<C>>();

  /**
   * @param root The client every account's client is derived from (a platform root).
   * @throws {ConfigurationError} without a `credentials` function, or for a `maxAccounts` that is
   *   not a whole number of at least 1.
   */
  constructor(root: AccountRoot<C>, options: AccountRegistryOptions) {
    if (typeof root?.withOptions !== 'function') {
      throw new ConfigurationError('AccountRegistry takes the root client its accounts derive from.');
    }
    if (typeof options?.credentials !== 'function') {
      throw new ConfigurationError(
        'AccountRegistry needs a credentials(clientId) function returning { clientId, secretKey }, or undefined for no such account.',
      );
    }
    const max = options.maxAccounts ?? 10_000;
    if (!Number.isInteger(max) || max < 1) {
      throw new ConfigurationError(
        `The maxAccounts option must be a whole number of at least 1, got ${String(max)}.`,
      );
    }
    this.#root = root;
    this.#credentials = options.credentials;
    this.#max = max;
    this.#clientOptions = options.clientOptions;
  }

  /** How many account clients the registry holds. */
  get size(): number {
    return this.#held.size;
  }

  /**
   * The client of `clientId`: the one held, or a new one derived from the root (no I/O). A changed
   * secret key closes the old client and derives a new one (a rotation). `undefined` when
   * `credentials` knows no such account (a client held for it is closed and dropped).
   * @throws {ConfigurationError} when `credentials` answers for another client id.
   */
  async get(clientId: string): Promise<C | undefined> {
    const credentials = await this.#credentials(clientId);
    if (credentials === undefined) {
      await this.drop(clientId);
      return undefined;
    }
    if (credentials.clientId !== clientId) {
      throw new ConfigurationError(
        `The registry's credentials function answered ${clientId} with the credentials of another client id: an account's client must never act for another.`,
      );
    }
    const held = this.#held.get(clientId);
    if (held !== undefined) {
      this.#held.delete(clientId);
      if (held.secretKey === credentials.secretKey) {
        this.#held.set(clientId, held);
        return held.client;
      }
      await held.client.close();
    }
    const client = this.#root.withOptions(
      Object.assign({}, this.#clientOptions, { clientId, secretKey: credentials.secretKey }),
    );
    this.#held.set(clientId, { client, secretKey: credentials.secretKey });
    await this.#evict();
    return client;
  }

  /** Closes and forgets the client of `clientId`, if one is held (its next `get` builds another). */
  async drop(clientId: string): Promise<void> {
    const held = this.#held.get(clientId);
    if (held === undefined) return;
    this.#held.delete(clientId);
    await held.client.close();
  }

  /**
   * Runs `run` for each account, at most `concurrency` (default 8) at a time, and settles every
   * one in input order: one account's failure (revoked credentials, a timeout, no such account)
   * is its own result, never the others'.
   */
  each<T>(
    clientIds: readonly string[],
    run: (client: C, clientId: string) => Promise<T>,
    options: BatchOptions = {},
  ): Promise<AccountSettled<T>[]> {
    return mapSettled(
      clientIds,
      async (clientId) => {
        const client = await this.get(clientId);
        if (client === undefined) {
          throw new ConfigurationError(
            `No account ${clientId}: the registry's credentials function knows none.`,
          );
        }
        return run(client, clientId);
      },
      options,
    ).then((results) =>
      results.map((result) => Object.assign(result, { account: clientIds[result.index] as string })),
    );
  }

  /** Closes every client the registry holds (not the root) and forgets them. */
  async close(): Promise<void> {
    const held = [...this.#held.values()];
    this.#held.clear();
    await Promise.all(held.map((entry) => entry.client.close()));
  }

  async #evict(): Promise<void> {
    while (this.#held.size > this.#max) {
      const [oldest] = this.#held.keys();
      if (oldest === undefined) return;
      await this.drop(oldest);
    }
  }
}
