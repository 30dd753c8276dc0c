/**
 * The default {@link Coordination}: plain memory, one process. Leases and outcome records are
 * map entries, the token exchange runs as it comes (the client's own refresh is already one at a
 * time) and a pause reaches this instance's listeners only. No I/O, no timers.
 */
import type { Coordination, CreateLease, CreateOutcome, CreateOutcomeRecord } from './coordination.js';

function keyOf(clientId: string, correlationId: string): string {
  return JSON.stringify([clientId, correlationId]);
}

/** Coordination within one process (the client's default). */
export class InProcessCoordination implements Coordination {
  readonly #leases = new Map<string, { fence: number; expiresAt: number }>();
  readonly #outcomes = new Map<string, CreateOutcomeRecord>();
  readonly #listeners = new Map<string, Set<(untilEpochMs: number) => void>>();
  readonly #now: () => number;

  /** @param now Epoch ms (default `Date.now`). */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Takes the lease unless another holder has it and it has not expired. */
  async acquireCreateLease(
    clientId: string,
    correlationId: string,
    ttlMs: number,
  ): Promise<CreateLease | undefined> {
    const key = keyOf(clientId, correlationId);
    const now = this.#now();
    const held = this.#leases.get(key);
    if (held && held.expiresAt > now) return undefined;
    const lease = { clientId, correlationId, fence: (held?.fence ?? 0) + 1, expiresAt: now + ttlMs };
    this.#leases.set(key, { fence: lease.fence, expiresAt: lease.expiresAt });
    return lease;
  }

  /** Gives the lease back when it is still the newest. */
  async releaseCreateLease(lease: CreateLease): Promise<void> {
    const key = keyOf(lease.clientId, lease.correlationId);
    const held = this.#leases.get(key);
    // The fence stays: the next lease on the key must still get a greater one.
    if (held?.fence === lease.fence) this.#leases.set(key, { fence: held.fence, expiresAt: 0 });
  }

  /** Records the outcome unless a newer lease exists. */
  async recordCreateOutcome(lease: CreateLease, outcome: CreateOutcome): Promise<boolean> {
    const key = keyOf(lease.clientId, lease.correlationId);
    if (this.#leases.get(key)?.fence !== lease.fence) return false;
    this.#outcomes.set(key, { ...outcome, fence: lease.fence, recordedAt: this.#now() });
    return true;
  }

  /** The outcome last recorded. */
  async readCreateOutcome(clientId: string, correlationId: string): Promise<CreateOutcomeRecord | undefined> {
    return this.#outcomes.get(keyOf(clientId, correlationId));
  }

  /** Runs the exchange: within one process the client's refresh is already single-flight. */
  withTokenExchange<T>(_clientId: string, _ttlMs: number, exchange: () => Promise<T>): Promise<T> {
    return exchange();
  }

  /** Tells this instance's listeners. */
  async publishPause(clientId: string, untilEpochMs: number): Promise<void> {
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
