/**
 * The error a create stops with when, just before its request would leave, its create lease is no
 * longer its own (docs/fault-model.md): another holder took the key after this one stalled past
 * the lease (a paused process, a slow machine), or the coordination lost it (a Redis flush,
 * restart or failover), or the coordination could not confirm it. Nothing of that attempt was
 * sent, so the SDK sends nothing without a lease it holds.
 */
import { VerificationError } from '../core/errors.js';

/** Why the lease could not be used. */
export type LeaseLostReason =
  /** The coordination answered: a newer lease holds the key, or the key is gone. */
  | 'superseded'
  /** The coordination failed (threw) as the lease was renewed or `unresolved` recorded. */
  | 'coordination_failed'
  /** The lease lapses before the attempt could end, and the coordination cannot renew it. */
  | 'expiring';

/**
 * A create was stopped before its request left because its lease was lost (see the module
 * comment). Nothing was sent by the attempt it stopped; an earlier attempt of the same call that
 * the server refused (a 429) created nothing either. Call again: the next call takes the lease
 * anew, and `createOnce` finds the group another holder created.
 */
export class CreateLeaseLostError extends VerificationError {
  override name = 'CreateLeaseLostError';
  /** The correlation id the lease covered. */
  readonly correlationId: string;
  /** Why the lease could not be used. */
  readonly reason: LeaseLostReason;
  /** Always `false`: the request was not handed to the transport. */
  readonly requestSent = false;

  /**
   * @param correlationId The correlation id the lease covered.
   * @param reason Why the lease could not be used.
   * @param caller Names the call ("createOnce", "create").
   * @param detail The coordination's error, for `coordination_failed`.
   */
  constructor(correlationId: string, reason: LeaseLostReason, caller: string, detail?: string) {
    super(
      `${caller} (correlation_id "${correlationId}") stopped before sending: ${
        reason === 'superseded'
          ? 'its create lease is no longer its own (another holder took the key after this one stalled past the lease, or the coordination lost the key)'
          : reason === 'expiring'
            ? 'its create lease lapses before the request could end, and the coordination cannot renew it (it has no renewCreateLease)'
            : `the coordination could not confirm its create lease (${detail ?? 'unknown error'})`
      }; nothing was sent. Call again: the next call takes the lease anew and looks the group up first.`,
    );
    this.correlationId = correlationId;
    this.reason = reason;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), correlationId: this.correlationId, reason: this.reason, requestSent: false };
  }
}
