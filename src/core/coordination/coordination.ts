/**
 * What processes behind one client id must share so that, together, they behave like one careful
 * client: who may send a create for a correlation id (a fenced lease), what that create came to
 * (an outcome record a waiting process reads instead of creating), one token exchange at a time,
 * and the pause after a 429. The client option `coordination` takes an implementation: the
 * in-process default costs nothing, `FileCoordination` covers one machine, and
 * `RedisCoordination` (`applicant-verification/redis`) a fleet.
 *
 * Keys are given as parts (client id, correlation id), never pre-joined, so that an implementation
 * can quote them and add what its store needs (Redis Cluster hash tags, file names).
 */

/**
 * Who holds a lease, where the coordination can tell (`FileCoordination` records it): enough for a
 * waiter on the same host to see that the holder no longer runs, and for a log line to name it.
 */
export interface LeaseHolder {
  /** The holder's host name (`os.hostname()`). */
  readonly host: string;
  /** The holder's process id on that host. */
  readonly pid: number;
  /** When the holder's process started, epoch milliseconds (tells a reused pid from the holder). */
  readonly startedAt: number;
}

/** A lease another holder has, as {@link Coordination.describeCreateLease} tells it. */
export interface HeldCreateLease {
  /** When it lapses unless released first, epoch milliseconds on the coordination's clock. */
  readonly expiresAt: number;
  /** Who holds it, when the coordination records that. */
  readonly holder?: LeaseHolder | undefined;
}

/** A lease on one (client id, correlation id): while it is held, no other holder sends that create. */
export interface CreateLease {
  /** The client id the lease belongs to. */
  readonly clientId: string;
  /** The correlation id the lease covers. */
  readonly correlationId: string;
  /**
   * The fencing token: strictly greater than that of every earlier lease on the same key. A write
   * made with a lease whose fence is no longer the newest is refused, so a holder that stalled past
   * its expiry cannot overwrite its successor's outcome.
   */
  readonly fence: number;
  /** When the lease lapses unless released first, epoch milliseconds. */
  readonly expiresAt: number;
  /**
   * Set when this lease was taken over before the previous one lapsed, because its holder no
   * longer runs (a process on this host that died holding it). Whatever that holder recorded
   * stands: a create it had begun to send is unresolved from the time it was sent.
   */
  readonly takenOverFrom?: LeaseHolder | undefined;
}

/** What a create under a lease came to, as a waiting process reads it. */
export type CreateOutcome =
  | {
      /** The create went through (or recovery found its result): this is the created object's id. */
      readonly state: 'created';
      /** The created object's id. */
      readonly id: string;
    }
  | {
      /**
       * Nobody knows whether the create reached the server: it is being sent (recorded just before
       * the request leaves, so a holder that dies mid-send leaves this behind), or the holder's
       * grace window ran out. A later holder must not send it either: it looks the object up, or
       * reports it unresolved, until the unresolved rule's window since `recordedAt` has passed.
       */
      readonly state: 'unresolved';
    }
  | {
      /**
       * The create never reached the server, or the server refused it (a 4xx): no object exists
       * from it, and the next holder may send its own.
       */
      readonly state: 'refused';
    };

/** A {@link CreateOutcome} as stored: with the fence of the lease that wrote it and when. */
export type CreateOutcomeRecord = CreateOutcome & {
  /** The fence of the lease the outcome was recorded under. */
  readonly fence: number;
  /** When it was recorded, epoch milliseconds on the coordination's clock. */
  readonly recordedAt: number;
  /**
   * How long ago it was recorded when it was read (ms), on the coordination's own clock (Redis:
   * the server's `TIME`). The SDK judges an outcome's age by this alone, so a process whose clock
   * runs ahead or behind judges it like every other (docs/safe-creates.md, "Which clock").
   * Optional for coordinations written before it: without it the SDK falls back to its own
   * clock against `recordedAt`.
   */
  readonly ageMs?: number | undefined;
};

/**
 * What `createOnce` does when the coordination fails (throws) as it takes the create lease:
 * `'refuse'` fails the call and sends nothing; `'continue'` logs a warning and creates without the
 * lease (single-flight in this process, lookup first). A lease held by another process is not a
 * failure and is never bypassed.
 */
export type CoordinationFailurePolicy = 'refuse' | 'continue';

/**
 * The coordination a fleet of processes shares. Every method may be called concurrently by many
 * processes. A method that throws (the store went away) is logged by the client, which then fails
 * safe: no create is sent without its lease unless the caller opted out
 * (`coordinationFailure: 'continue'`); the token exchange and pauses go on without it.
 */
export interface Coordination {
  /**
   * Takes the lease on (clientId, correlationId) for `ttlMs`, or resolves `undefined` when another
   * holder has it and it has not expired. A lapsed lease is taken over with a greater fence.
   */
  acquireCreateLease(
    clientId: string,
    correlationId: string,
    ttlMs: number,
  ): Promise<CreateLease | undefined>;
  /** Gives the lease back early; does nothing when it has already lapsed or been taken over. */
  releaseCreateLease(lease: CreateLease): Promise<void>;
  /**
   * Optional (recommended): extends `lease` to `ttlMs` from now, on the coordination's clock, if
   * its fence is still the newest for its key (no other holder took it since, even if it lapsed).
   * Resolves the renewed lease, or `undefined` when it was lost. A create calls it just before
   * each attempt leaves, so it never sends on a lease about to lapse or already taken over.
   * Without it, the SDK checks the lease's `expiresAt` against its own clock instead.
   */
  renewCreateLease?(lease: CreateLease, ttlMs: number): Promise<CreateLease | undefined>;
  /**
   * Records what the create under `lease` came to. Resolves `false`, and records nothing, when the
   * lease's fence is no longer the newest for its key, with one exception an implementation should
   * make: a `refused` replaces the `unresolved` recorded under the same lease when no later holder
   * recorded anything since (the holder knows its request never left, so the next may send).
   */
  recordCreateOutcome(lease: CreateLease, outcome: CreateOutcome): Promise<boolean>;
  /**
   * Optional: the lease another holder has on (clientId, correlationId), if any, so that a waiting
   * process can say what it waits for (and until when). Coordinations without it are waited on
   * silently, up to the lease's time to live.
   */
  describeCreateLease?(clientId: string, correlationId: string): Promise<HeldCreateLease | undefined>;
  /** The outcome last recorded for (clientId, correlationId), if any. */
  readCreateOutcome(clientId: string, correlationId: string): Promise<CreateOutcomeRecord | undefined>;
  /**
   * Runs `exchange` while no other process of this client id runs its own (the lock lapses after
   * `ttlMs`, so a process that died holding it does not stop the fleet). A process that waited
   * should first look again in the token store: the holder has probably just saved a token there.
   */
  withTokenExchange<T>(clientId: string, ttlMs: number, exchange: () => Promise<T>): Promise<T>;
  /**
   * Tells every process of this client id to hold its requests until `untilEpochMs` (a 429's
   * `Retry-After`, already capped by the caller). A later pause wins.
   */
  publishPause(clientId: string, untilEpochMs: number): Promise<void>;
  /**
   * Calls `listener` with each pause another process (or this one) publishes for this client id.
   * The client keeps the newest in memory, so a pause costs no round trip per request. Returns the
   * unsubscribe function.
   */
  onPause(clientId: string, listener: (untilEpochMs: number) => void): () => void;
}
