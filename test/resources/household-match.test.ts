/** The one household comparator: emails as a set (case-insensitive), the rent meant in cents, the unit. */
import { describe, expect, it } from 'vitest';
import { type HouseholdBody, householdDifferences, isSameHousehold } from '../../src/index.js';
import { matchesHousehold } from '../../src/resources/household-match.js';
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
});
