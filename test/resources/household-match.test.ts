/** The one household comparator: emails as a set (case-insensitive), the rent meant in cents, the unit. */
import { describe, expect, it } from 'vitest';
// Not public: the wording of CorrelationConflictError and the CLI's conflict message, and the matcher.
import { describeDifferences, matchesHousehold } from '../../src/creates/household-match.js';
import {
  type HouseholdBody,
  type HouseholdGroup,
  householdDifferences,
  isSameHousehold,
} from '../../src/index.js';
import { rentCentsMeant } from '../../src/schemas/rent.js';

const group = {
  applicants: [{ email: 'Ana@Example.com' }, { email: 'bo@example.com' }],
  monthly_rent_cents: 195_050,
  unit_number: '4B',
};
const body: HouseholdBody = {
  applicants: [{ email: 'bo@example.com' }, { email: ' ana@example.com ' }],
  monthly_rent: 1950.5,
  property: { unit: '4b' },
};

describe('householdDifferences', () => {
  it('the same household whatever the order and case of emails and unit', () => {
    expect(householdDifferences(group, body)).toEqual([]);
    expect(matchesHousehold(group, body)).toBe(true);
  });

  it('names each difference with counts and amounts, never an email', () => {
    const other: HouseholdBody = {
      applicants: [{ email: 'ana@example.com' }, { email: 'cy@example.com' }, { email: 'di@example.com' }],
      monthly_rent: 2000,
      property: { unit: '5C' },
    };
    const differences = householdDifferences(group, other);
    expect(differences).toEqual([
      { kind: 'applicants', missing: 2, extra: 1 },
      { kind: 'monthly_rent', groupCents: 195_050, intendedCents: 200_000 },
      { kind: 'unit', group: '4B', intended: '5C' },
    ]);
    expect(JSON.stringify(differences)).not.toContain('@');
    expect(isSameHousehold(differences)).toBe(false);
  });

  it('a rent off by exactly ×100 is a rent_unit difference: the same household, sent in the wrong unit', () => {
    const differences = householdDifferences({ ...group, monthly_rent_cents: 1_950_50 * 100 }, body);
    expect(differences).toEqual([{ kind: 'rent_unit', groupCents: 19_505_000, intendedCents: 195_050 }]);
    expect(isSameHousehold(differences)).toBe(true);
  });

  it('the rent meant: monthly_rent_cents when given, else monthly_rent in dollars', () => {
    expect(rentCentsMeant({ monthly_rent: 1850.5 })).toBe(185_050);
    expect(rentCentsMeant({ monthly_rent_cents: 185_050 })).toBe(185_050);
    expect(householdDifferences(group, { ...body, monthly_rent: undefined }, 195_050)).toEqual([]);
  });

  it('no unit on either side is the same unit; a unit on one side only is not', () => {
    const noUnit = { ...group, unit_number: '' };
    expect(householdDifferences(noUnit, { ...body, property: undefined })).toEqual([]);
    expect(householdDifferences(noUnit, body)).toEqual([{ kind: 'unit', group: '', intended: '4b' }]);
  });

  it('a household that adds a co-applicant under the same correlation id is another household', () => {
    const added: HouseholdBody = { ...body, applicants: [...body.applicants, { email: 'cy@example.com' }] };
    const differences = householdDifferences(group, added);
    expect(differences).toEqual([{ kind: 'applicants', missing: 1, extra: 0 }]);
    expect(isSameHousehold(differences)).toBe(false);
    expect(matchesHousehold(group, added)).toBe(false);
  });

  it('a household that drops a co-applicant under the same correlation id is another household', () => {
    const dropped: HouseholdBody = { ...body, applicants: [{ email: 'bo@example.com' }] };
    expect(householdDifferences(group, dropped)).toEqual([{ kind: 'applicants', missing: 0, extra: 1 }]);
    expect(matchesHousehold(group, dropped)).toBe(false);
  });

  it('a group read without its applicants list lacks every applicant of the household', () => {
    const withoutList: HouseholdGroup = { ...group };
    Reflect.deleteProperty(withoutList, 'applicants');
    expect(householdDifferences(withoutList, body)).toEqual([{ kind: 'applicants', missing: 2, extra: 0 }]);
  });

  it('emails are compared case-insensitively, not folded: straße and strasse are two applicants', () => {
    const one = { ...group, applicants: [{ email: 'straße@example.com' }] };
    const other: HouseholdBody = { ...body, applicants: [{ email: 'STRASSE@example.com' }] };
    expect(householdDifferences(one, other)).toEqual([{ kind: 'applicants', missing: 1, extra: 1 }]);
  });

  it('a rent at 1/100 of the intended one is a rent_unit difference: the same household, read in the wrong unit', () => {
    const differences = householdDifferences({ ...group, monthly_rent_cents: 1_950 }, body, 195_000);
    expect(differences).toEqual([{ kind: 'rent_unit', groupCents: 1_950, intendedCents: 195_000 }]);
    expect(isSameHousehold(differences)).toBe(true);
  });

  it('a rent off by another factor is another household', () => {
    const tenfold = householdDifferences({ ...group, monthly_rent_cents: 19_500 }, body, 195_000);
    expect(tenfold).toEqual([{ kind: 'monthly_rent', groupCents: 19_500, intendedCents: 195_000 }]);
    expect(isSameHousehold(tenfold)).toBe(false);
  });

  it('spaces around a unit are not part of it, on either side', () => {
    expect(
      householdDifferences({ ...group, unit_number: ' 4B ' }, { ...body, property: { unit: '4b  ' } }),
    ).toEqual([]);
    expect(
      householdDifferences({ ...group, unit_number: ' 4B ' }, { ...body, property: { unit: ' 5C' } }),
    ).toEqual([{ kind: 'unit', group: '4B', intended: '5C' }]);
  });
});

describe('describeDifferences', () => {
  it('says how the group differs, in counts and amounts, one clause per difference', () => {
    expect(
      describeDifferences([
        { kind: 'applicants', missing: 2, extra: 1 },
        { kind: 'monthly_rent', groupCents: 195_050, intendedCents: 200_000 },
        { kind: 'rent_unit', groupCents: 19_505_000, intendedCents: 195_050 },
        { kind: 'unit', group: '4B', intended: '' },
      ]),
    ).toBe(
      "applicants differ (2 of the body's emails missing from the group, 1 extra); " +
        'rent differs (group 195050 cents, meant 200000 cents); ' +
        'rent differs (group 19505000 cents, meant 195050 cents: a factor of 100, dollars and cents mixed up); ' +
        'unit differs (group "4B", meant "")',
    );
    expect(describeDifferences([])).toBe('');
  });
});
