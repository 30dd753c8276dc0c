/** The options of `applicantGroups.create` (and `createOnce`, `createMany`): a request's, and the create's own. */
import type { RequestOptions } from '../core/call/call.js';

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
}

/** Whether the $100 floor on `monthly_rent_cents` applies under these options. */
export function rentFloorApplies(options: ApplicantGroupCreateOptions | undefined): boolean {
  return options?.rentBelowFloor !== 'allow';
}
