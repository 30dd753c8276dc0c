/**
 * The rent echo check of applicant-group creates (docs/wire-contract.md, "Where the service's
 * reference and the spec disagree"). The spec says the API reads `monthly_rent` in dollars, the
 * service's own reference says cents; every create answer echoes `monthly_rent_cents`, so the first
 * create tells which one the account really reads. An echo off by exactly a factor of 100 means
 * the client's `apiRentUnit` is wrong: every rent it sends is 100 times off.
 */
import { VerificationError } from '../core/errors.js';
import type { Logger } from '../core/observability/log.js';
import { publishAlert } from '../core/observability/tracing.js';
import { compareRentEcho, otherRentUnit, type RentUnit } from '../schemas/rent.js';

/** What a client does once an echo shows the API reads the other unit. */
export type RentUnitMismatchPolicy = 'refuse' | 'continue';

/** Thrown before any I/O by a create of a client whose earlier create showed its `apiRentUnit` is wrong. */
export class RentUnitMismatchError extends VerificationError {
  override name = 'RentUnitMismatchError';
  /** The client's `apiRentUnit`. */
  readonly apiRentUnit: RentUnit;
  /** The unit the API evidently reads: the value to set. */
  readonly evidentUnit: RentUnit;
  /** The group whose echo showed it. */
  readonly groupId: string;
  /** The rent that create meant, in cents. */
  readonly meantCents: number;
  /** The `monthly_rent_cents` the API answered. */
  readonly echoedCents: number;

  /** @param found The create that showed the mismatch. */
  constructor(found: RentUnitMismatch) {
    super(
      `Create refused before sending: applicant group ${found.groupId} showed the API reads monthly_rent in ${found.evidentUnit}, not ${found.apiRentUnit} (it meant ${found.meantCents} cents and the API answered monthly_rent_cents ${found.echoedCents}). Set the client option apiRentUnit: '${found.evidentUnit}' (or rentUnitMismatch: 'continue' to send anyway).`,
    );
    this.apiRentUnit = found.apiRentUnit;
    this.evidentUnit = found.evidentUnit;
    this.groupId = found.groupId;
    this.meantCents = found.meantCents;
    this.echoedCents = found.echoedCents;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      apiRentUnit: this.apiRentUnit,
      evidentUnit: this.evidentUnit,
      groupId: this.groupId,
      meantCents: this.meantCents,
      echoedCents: this.echoedCents,
    };
  }
}

/** A create whose echo was a factor of 100 off: what {@link RentUnitMismatchError} reports. */
export interface RentUnitMismatch {
  /** The client's `apiRentUnit`. */
  apiRentUnit: RentUnit;
  /** The unit the API evidently reads. */
  evidentUnit: RentUnit;
  /** The group whose echo showed it. */
  groupId: string;
  /** The rent that create meant, in cents. */
  meantCents: number;
  /** The `monthly_rent_cents` the API answered. */
  echoedCents: number;
}

/** One client's check of create echoes: it remembers a mismatch and refuses later creates. */
export class RentEchoCheck {
  readonly #unit: RentUnit;
  readonly #policy: RentUnitMismatchPolicy;
  readonly #logger: Logger;
  #mismatch: RentUnitMismatch | undefined;

  constructor(unit: RentUnit, policy: RentUnitMismatchPolicy, logger: Logger) {
    this.#unit = unit;
    this.#policy = policy;
    this.#logger = logger;
  }

  /** The unit the API reads `monthly_rent` in, as the client was told. */
  get unit(): RentUnit {
    return this.#unit;
  }

  /** The error a create must fail with before any I/O, or `undefined` when it may go. */
  refusal(): RentUnitMismatchError | undefined {
    return this.#mismatch && this.#policy === 'refuse'
      ? new RentUnitMismatchError(this.#mismatch)
      : undefined;
  }

  /** Checks one create's echo against the rent it meant; reports and remembers a factor-of-100 (unit) mismatch. */
  check(meantCents: number | undefined, group: { id: string; monthly_rent_cents: number }): void {
    if (meantCents === undefined) return;
    const echoedCents = group.monthly_rent_cents;
    const verdict = compareRentEcho(meantCents, echoedCents);
    // Any other difference is no unit question (a group found by lookup may hold an older rent:
    // the safe-create comparator judges those).
    if (verdict !== 'unit') return;
    const evidentUnit = otherRentUnit(this.#unit);
    const found: RentUnitMismatch = {
      apiRentUnit: this.#unit,
      evidentUnit,
      groupId: group.id,
      meantCents,
      echoedCents,
    };
    const message = `Rent unit mismatch: applicant group ${group.id} was meant to rent at ${meantCents} cents ($${(meantCents / 100).toFixed(2)}) but the API answered monthly_rent_cents ${echoedCents} ($${(echoedCents / 100).toFixed(2)}): it reads monthly_rent in ${evidentUnit}, not ${this.#unit}. Set the client option apiRentUnit: '${evidentUnit}'. The group was created as the API read it; ${this.#policy === 'refuse' ? 'this client refuses further creates until apiRentUnit is set' : "rentUnitMismatch is 'continue', so further creates are sent"}.`;
    this.#mismatch ??= found;
    this.#logger.error(message);
    publishAlert({
      code: 'rent_unit_mismatch',
      operation: 'applicantGroups.create',
      message,
      details: { groupId: group.id, meantCents, echoedCents, apiRentUnit: this.#unit, evidentUnit },
    });
  }
}
