/**
 * The applicant-group rent, in one place (docs/wire-contract.md, "Where the service's reference and
 * the spec disagree"). Callers state the rent in dollars (`monthly_rent`) or in cents
 * (`monthly_rent_cents`); the wire carries `monthly_rent` in the unit the API reads (the client
 * option `apiRentUnit`); every create answer echoes `monthly_rent_cents`, which must equal the
 * rent meant. The SDK's create, its safe-create comparator and the mock all use these functions.
 */
import { dollarsToCents } from '../helpers/money.js';

/** How the API reads an applicant-group `monthly_rent`: `dollars` (the interface spec) or `cents` (the service's own reference). */
export type RentUnit = 'dollars' | 'cents';

/** The rent units, for checks of option values. */
export const RENT_UNITS: readonly RentUnit[] = ['dollars', 'cents'];

/** Whether `value` names a rent unit. */
export function isRentUnit(value: unknown): value is RentUnit {
  return value === 'dollars' || value === 'cents';
}

/**
 * Highest monthly rent accepted, in dollars per month. A rent above it is almost certainly an
 * amount in cents given as dollars (185000 for $1,850), which would otherwise pass silently.
 */
export const MONTHLY_RENT_MAX_DOLLARS = 100_000;

/**
 * Lowest monthly rent accepted in `monthly_rent_cents` without the caller saying it is intended
 * (`rentBelowFloor: 'allow'`): $100. Below it, the amount is almost certainly dollars typed into
 * the cents field (2800 for $2,800), which would otherwise create a $28 rent without a word.
 */
export const MONTHLY_RENT_FLOOR_CENTS = 10_000;

/** The two ways a create body states its rent: exactly one is given. */
export interface RentFields {
  /** Dollars. */
  monthly_rent?: number | undefined;
  /** Cents. */
  monthly_rent_cents?: number | undefined;
}

/**
 * The rent a create body means, in integer cents: `monthly_rent_cents` as given, or
 * `monthly_rent` dollars times 100 (rounded to the cent, so `18.5` is 1850). `undefined` when the
 * body states no usable rent. What the create's echo (`monthly_rent_cents`) must equal.
 */
export function rentCentsMeant(body: RentFields): number | undefined {
  if (typeof body.monthly_rent_cents === 'number') return body.monthly_rent_cents;
  if (typeof body.monthly_rent === 'number') return dollarsToCents(body.monthly_rent);
  return undefined;
}

/** The wire `monthly_rent` for a rent of `cents`, in the unit the API reads. */
export function wireRent(cents: number, unit: RentUnit): number {
  return unit === 'cents' ? cents : cents / 100;
}

/**
 * How an echoed `monthly_rent_cents` compares with the rent meant: `match`; `unit` when it is off
 * by exactly a factor of 100 (the API reads `monthly_rent` in the other unit: `apiRentUnit` is
 * wrong); `other` for any other difference.
 */
export function compareRentEcho(meantCents: number, echoedCents: number): 'match' | 'unit' | 'other' {
  if (meantCents === echoedCents) return 'match';
  if (meantCents > 0 && (echoedCents === meantCents * 100 || echoedCents * 100 === meantCents)) return 'unit';
  return 'other';
}

/**
 * The unit the API evidently reads when an echo is off by a factor of 100 under `unit`: the
 * value `apiRentUnit` should have.
 */
export function otherRentUnit(unit: RentUnit): RentUnit {
  return unit === 'cents' ? 'dollars' : 'cents';
}

const EXAMPLE = 'e.g. 1850';

/**
 * What is wrong with a rent stated in dollars (`monthly_rent`), or `undefined` when it is fine:
 * positive, at most {@link MONTHLY_RENT_MAX_DOLLARS}, and whole dollars when the API reads
 * dollars (a cents API takes cents too, so `1850.5` is fine there).
 */
export function dollarsRentProblem(value: unknown, unit: RentUnit = 'dollars'): string | undefined {
  if (typeof value !== 'number' || Number.isNaN(value))
    return `must be a number of dollars (not cents), ${EXAMPLE}`;
  if (value <= 0) return `must be a positive whole number of dollars (not cents), ${EXAMPLE}`;
  if (value > MONTHLY_RENT_MAX_DOLLARS) {
    return `must be at most ${MONTHLY_RENT_MAX_DOLLARS} dollars a month: monthly_rent is in dollars, not cents, and ${value} looks like cents${Number.isSafeInteger(value) ? ` (${value / 100} dollars?)` : ''}`;
  }
  if (unit === 'dollars' && !Number.isInteger(value))
    return `must be a whole number of dollars (the API takes no cents), ${EXAMPLE}`;
  if (unit === 'cents' && Math.abs(value * 100 - Math.round(value * 100)) > 1e-6)
    return 'must be dollars and cents, at most two decimals, e.g. 1850.5';
  return undefined;
}

/**
 * What is wrong with a rent stated in cents (`monthly_rent_cents`), or `undefined`: a positive
 * integer, at least {@link MONTHLY_RENT_FLOOR_CENTS} unless `floor` is off, at most
 * {@link MONTHLY_RENT_MAX_DOLLARS} dollars, and whole dollars when the API reads dollars (it
 * cannot be sent a fraction of a dollar).
 */
export function centsRentProblem(
  value: unknown,
  unit: RentUnit = 'dollars',
  floor = true,
): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    return 'must be a positive whole number of cents, e.g. 185000 for $1,850';
  if (floor && value < MONTHLY_RENT_FLOOR_CENTS) {
    return `is ${value} cents, $${(value / 100).toFixed(2)} a month, below the $${MONTHLY_RENT_FLOOR_CENTS / 100} floor: monthly_rent_cents is in cents (${value * 100} for $${value}), monthly_rent in dollars; if $${(value / 100).toFixed(2)} is meant, pass the option rentBelowFloor: 'allow'`;
  }
  if (value > MONTHLY_RENT_MAX_DOLLARS * 100)
    return `must be at most ${MONTHLY_RENT_MAX_DOLLARS * 100} cents (${MONTHLY_RENT_MAX_DOLLARS} dollars) a month`;
  if (unit === 'dollars' && value % 100 !== 0) {
    return `must be whole dollars (a multiple of 100) while the API reads monthly_rent in dollars (apiRentUnit 'dollars'); ${value} cents is $${(value / 100).toFixed(2)}`;
  }
  return undefined;
}
