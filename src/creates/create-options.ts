/** The options of `applicantGroups.create` (and `createOnce`, `createMany`): a request's, and the create's own. */
import type { RequestOptions } from '../core/call/call.js';
import type { PossibleDuplicate } from './duplicates.js';

/** What a create does with a `monthly_rent_cents` under $100 (`MONTHLY_RENT_FLOOR_CENTS`). */
export type RentBelowFloorPolicy = 'refuse' | 'allow';

/** The options of `applicantGroups.create`: a request's options, and one of its own. */
export interface ApplicantGroupCreateOptions extends RequestOptions {
  /**
   * A `monthly_rent_cents` under $100 a month is almost certainly dollars typed into the cents
   * field (2800 for $2,800): `'refuse'` (default) refuses it before any I/O, naming both rent
   * fields; `'allow'` says such a rent is intended.
   */
  rentBelowFloor?: RentBelowFloorPolicy | undefined;
  /**
   * Called with each possible duplicate the create notices (docs/fault-model.md, "A duplicate was
   * reported"): its lease lost while the request was in flight, or a lookup (the recovery's after
   * an ambiguous failure, or `createOnce`'s) that found several live groups of the household. Each
   * is also logged at error level and published on the tracing `alert` channel. Only a create
   * with a `correlation_id` can notice one. A listener that throws is logged, not rethrown.
   */
  onPossibleDuplicate?: ((report: PossibleDuplicate) => void) | undefined;
}

/** Whether the $100 floor on `monthly_rent_cents` applies under these options. */
export function rentFloorApplies(options: ApplicantGroupCreateOptions | undefined): boolean {
  return options?.rentBelowFloor !== 'allow';
}
