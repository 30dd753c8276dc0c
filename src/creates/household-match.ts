/**
 * The one comparator of "is this group this household?": the set of applicant emails (compared
 * case-insensitively), the rent in cents that was meant, and the unit. Create recovery, `createOnce`
 * and the CLI's conflict check all decide with it, so a group found under a reused correlation id
 * is accepted or refused the same way everywhere.
 *
 * Differences name counts and amounts, never an applicant's email: they end up in error messages.
 */
import { rentCentsMeant } from '../schemas/rent.js';

/** One way a group differs from the household a create body describes. */
export type HouseholdDifference =
  | {
      /** The applicants' email sets differ. */
      readonly kind: 'applicants';
      /** How many of the body's emails the group lacks. */
      readonly missing: number;
      /** How many of the group's emails the body lacks. */
      readonly extra: number;
    }
  | {
      /**
       * The rents differ. `rent_unit`: by exactly a factor of 100, which is a dollars/cents mix-up
       * (the group is this household, sent or read in the wrong unit), not another household.
       */
      readonly kind: 'monthly_rent' | 'rent_unit';
      /** The group's rent, cents. */
      readonly groupCents: number;
      /** The rent the body meant, cents. */
      readonly intendedCents: number;
    }
  | {
      /** The units differ (`property.unit` against the group's `unit_number`). */
      readonly kind: 'unit';
      /** The group's `unit_number` (`''` when none). */
      readonly group: string;
      /** The body's `property.unit` (`''` when none). */
      readonly intended: string;
    };

/** What the comparator reads of a create body. */
export interface HouseholdBody {
  /** The applicants; only their emails are compared. */
  readonly applicants: readonly { readonly email: string }[];
  /** The rent in dollars, when the body gives dollars. */
  readonly monthly_rent?: number | undefined;
  /** The rent in cents, when the body gives cents (it wins over `monthly_rent`). */
  readonly monthly_rent_cents?: number | undefined;
  /** The property; only its unit is compared. */
  readonly property?: { readonly unit?: string | undefined } | undefined;
}

/** What the comparator reads of a group (an applicant group has it all). */
export interface HouseholdGroup {
  /** The applicants; only their emails are compared. */
  readonly applicants: readonly { readonly email: string }[];
  /** The rent, cents. */
  readonly monthly_rent_cents: number;
  /** The unit (`''` or `null` when none). */
  readonly unit_number?: string | null | undefined;
}

function emailSet(applicants: readonly { readonly email: string }[]): Set<string> {
  return new Set(applicants.map((applicant) => applicant.email.trim().toLowerCase()));
}

function unitOf(unit: string | null | undefined): string {
  return (unit ?? '').trim();
}

/**
 * How `group` differs from the household `body` describes; empty when it is that household.
 * `intendedCents` is the rent that was meant (default: `rentCentsMeant(body)`; a body with no rent matches no rent).
 */
export function householdDifferences(
  group: HouseholdGroup,
  body: HouseholdBody,
  intendedCents: number = rentCentsMeant(body) ?? Number.NaN,
): HouseholdDifference[] {
  const differences: HouseholdDifference[] = [];
  const wanted = emailSet(body.applicants);
  const held = emailSet(group.applicants ?? []);
  const missing = [...wanted].filter((email) => !held.has(email)).length;
  const extra = [...held].filter((email) => !wanted.has(email)).length;
  if (missing > 0 || extra > 0) differences.push({ kind: 'applicants', missing, extra });
  const groupCents = group.monthly_rent_cents;
  if (groupCents !== intendedCents) {
    const unitError = groupCents === intendedCents * 100 || groupCents * 100 === intendedCents;
    differences.push({ kind: unitError ? 'rent_unit' : 'monthly_rent', groupCents, intendedCents });
  }
  const groupUnit = unitOf(group.unit_number);
  const intendedUnit = unitOf(body.property?.unit);
  if (groupUnit.toLowerCase() !== intendedUnit.toLowerCase())
    differences.push({ kind: 'unit', group: groupUnit, intended: intendedUnit });
  return differences;
}

/**
 * Whether differences leave the group this household: none, or only a rent off by a factor of
 * 100 (a unit error to report, not another household).
 */
export function isSameHousehold(differences: readonly HouseholdDifference[]): boolean {
  return differences.every((difference) => difference.kind === 'rent_unit');
}

/** Whether `group` is the household `body` describes (see {@link householdDifferences}). */
export function matchesHousehold(
  group: HouseholdGroup,
  body: HouseholdBody,
  intendedCents?: number,
): boolean {
  return isSameHousehold(householdDifferences(group, body, intendedCents));
}

/** One line per difference, without emails: for error messages. */
export function describeDifferences(differences: readonly HouseholdDifference[]): string {
  return differences
    .map((difference) => {
      switch (difference.kind) {
        case 'applicants':
          return `applicants differ (${difference.missing} of the body's emails missing from the group, ${difference.extra} extra)`;
        case 'monthly_rent':
        case 'rent_unit':
          return `rent differs (group ${difference.groupCents} cents, meant ${difference.intendedCents} cents${difference.kind === 'rent_unit' ? ': a factor of 100, dollars and cents mixed up' : ''})`;
        case 'unit':
          return `unit differs (group "${difference.group}", meant "${difference.intended}")`;
      }
      // Stryker disable next-line StringLiteral: unreachable, every kind of difference returns above
      return '';
    })
    .join('; ');
}
