/**
 * The default {@link Coordination}: plain memory, one process. Leases and outcome records are
 * map entries, token exchanges queue on a promise per client id, and a pause reaches this
 * instance's listeners only. No I/O, no timers. The clients of one
 * process that talk to one API origin share one instance ({@link processCoordination}), so two
 * clients with one client id coordinate like one.
 */
import type { Coordination, CreateLease, CreateOutcome, CreateOutcomeRecord } from './coordination.js';

function keyOf(clientId: string, correlationId: string): string {
  return JSON.stringify([clientId, correlationId]);
}

/**
 * Whether `outcome` is a `refused` that replaces the `unresolved` `lease` itself recorded, no later
 * holder having recorded since: allowed after the lease was taken over (coordination.ts).
 */
export function correctsOwn(
  stored: CreateOutcomeRecord | undefined,
  lease: CreateLease,
  outcome: CreateOutcome,
): boolean {
  return outcome.state === 'refused' && stored?.state === 'unresolved' && stored.fence === lease.fence;
}

/** Outcome records kept before old ones are swept (an outcome matters for a grace window or so). */
const SWEEP_ABOVE = 1_000;
/** How long a recorded outcome is kept once its lease is over (ms). */
const OUTCOME_KEPT_MS = 60 * 60_000;
/** Above {@link SWEEP_ABOVE} keys, how often a sweep runs at most while the keys have not doubled (ms). */
const SWEEP_EVERY_MS = 60_000;

/** Coordination within one process (the client's default). */
export class InProcessCoordination implements Coordination {
  readonly #leases = new Map<string, { fence: number; expiresAt: number }>();
  readonly #outcomes = new Map<string, CreateOutcomeRecord>();
  readonly #listeners = new Map<string, Set<(untilEpochMs: number) => void>>();
  readonly #exchanges = new Map<string, Promise<void>>();
  readonly #pauses = new Map<string, number>();
  readonly #now: () => number;
  // The next sweep: once the keys pass this many, or once a minute has passed since the last.
  // Each sweep walks every key, so it runs only after the keys doubled or time moved on: a batch
  // that holds many keys for their hour pays O(1) per acquire on average, not O(keys)
  // (docs/benchmarks.md, "Scale").
  #sweepAbove = SWEEP_ABOVE;
  #sweptAt = Number.NEGATIVE_INFINITY;

  /**
   * @param now Epoch ms: the clock of the clients it serves (default the wall clock), so that its
   * leases and the age of its outcome records move with the time those clients wait by.
   */
  constructor(now: () => number = () => Date.now()) {
    this.#now = now;
  }

  /**
   * Forgets every lease, outcome record and pause: a test's fresh start (the testing kit's
   * `mock.reset()` calls it on the coordination of `mock.client()`). Exchanges already queued
   * run on.
   */
  clear(): void {
    this.#leases.clear();
    this.#outcomes.clear();
    this.#pauses.clear();
    this.#sweepAbove = SWEEP_ABOVE;
    this.#sweptAt = Number.NEGATIVE_INFINITY;
  }

  /** Takes the lease unless another holder has it and it has not expired. */
  async acquireCreateLease(
    clientId: string,
    correlationId: string,
    ttlMs: number,
  ): Promise<CreateLease | undefined> {
    const key = keyOf(clientId, correlationId);
    const now = this.#now();
    const keys = this.#leases.size;
    if (keys > SWEEP_ABOVE && (keys > this.#sweepAbove || now - this.#sweptAt >= SWEEP_EVERY_MS))
      this.#sweep(now);
    const held = this.#leases.get(key);
    if (held && held.expiresAt > now) return undefined;
    const lease = { clientId, correlationId, fence: (held?.fence ?? 0) + 1, expiresAt: now + ttlMs };
    this.#leases.set(key, { fence: lease.fence, expiresAt: lease.expiresAt });
    return lease;
  }

  /** Forgets keys whose lease is over and whose outcome is old: memory stays bounded in a server. */
  #sweep(now: number): void {
    for (const [key, lease] of this.#leases) {
      const recordedAt = this.#outcomes.get(key)?.recordedAt ?? 0;
      if (lease.expiresAt <= now && recordedAt < now - OUTCOME_KEPT_MS) {
        this.#leases.delete(key);
        this.#outcomes.delete(key);
      }
    }
    this.#sweepAbove = Math.max(SWEEP_ABOVE, 2 * this.#leases.size);
    this.#sweptAt = now;
  }

  /** Gives the lease back when it is still the newest. */
  async releaseCreateLease(lease: CreateLease): Promise<void> {
    const key = keyOf(lease.clientId, lease.correlationId);
    const held = this.#leases.get(key);
    // The fence stays: the next lease on the key must still get a greater one.
    if (held?.fence === lease.fence) this.#leases.set(key, { fence: held.fence, expiresAt: 0 });
  }

  /** Extends the lease to `ttlMs` from now if it is still the newest on its key. */
  async renewCreateLease(lease: CreateLease, ttlMs: number): Promise<CreateLease | undefined> {
    const key = keyOf(lease.clientId, lease.correlationId);
    if (this.#leases.get(key)?.fence !== lease.fence) return undefined;
    const expiresAt = this.#now() + ttlMs;
    this.#leases.set(key, { fence: lease.fence, expiresAt });
    return { ...lease, expiresAt };
  }

  /** Records the outcome unless a newer lease exists. */
  async recordCreateOutcome(lease: CreateLease, outcome: CreateOutcome): Promise<boolean> {
    const key = keyOf(lease.clientId, lease.correlationId);
    if (this.#leases.get(key)?.fence !== lease.fence && !correctsOwn(this.#outcomes.get(key), lease, outcome))
      return false;
    this.#outcomes.set(key, { ...outcome, fence: lease.fence, recordedAt: this.#now() });
    return true;
  }

  /** The outcome last recorded, with its age on this coordination's clock. */
  async readCreateOutcome(clientId: string, correlationId: string): Promise<CreateOutcomeRecord | undefined> {
    const record = this.#outcomes.get(keyOf(clientId, correlationId));
    return record && { ...record, ageMs: this.#now() - record.recordedAt };
  }

  /** Runs the exchange after the ones of the client id already queued here (one at a time). */
  withTokenExchange<T>(clientId: string, _ttlMs: number, exchange: () => Promise<T>): Promise<T> {
    const before = this.#exchanges.get(clientId) ?? Promise.resolve();
    const run = before.then(exchange, exchange);
    const settled = run.then(
      () => {},
      () => {},
    );
    this.#exchanges.set(clientId, settled);
    void settled.then(() => {
      if (this.#exchanges.get(clientId) === settled) this.#exchanges.delete(clientId);
    });
    return run;
  }

  /** Tells this instance's listeners, unless a later pause is already in force. */
  async publishPause(clientId: string, untilEpochMs: number): Promise<void> {
    if (untilEpochMs <= (this.#pauses.get(clientId) ?? 0)) return;
    this.#pauses.set(clientId, untilEpochMs);
    for (const listener of this.#listeners.get(clientId) ?? []) listener(untilEpochMs);
  }

  /** Listens for pauses published on this instance. */
  onPause(clientId: string, listener: (untilEpochMs: number) => void): () => void {
    const set = this.#listeners.get(clientId) ?? new Set();
    set.add(listener);
    this.#listeners.set(clientId, set);
    return () => {
      set.delete(listener);
    };
  }
}

/** A clock as far as the coordination reads it. */
interface NowSource {
  now(): number;
}

const perClock = new WeakMap<NowSource, Map<string, InProcessCoordination>>();

/**
 * The in-process coordination of every client of this process that talks to `origin` on `clock`
 * (clients on the wall clock share one per origin; a test clock gets its own, on its own time).
 */
export function processCoordination(origin: string, clock: NowSource): InProcessCoordination {
  let perOrigin = perClock.get(clock);
  if (!perOrigin) {
    perOrigin = new Map();
    perClock.set(clock, perOrigin);
  }
  let coordination = perOrigin.get(origin);
  if (!coordination) {
    coordination = new InProcessCoordination(() => clock.now());
    perOrigin.set(origin, coordination);
  }
  return coordination;
}
