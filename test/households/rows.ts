/**
 * CSV rows of the household file format for the households tests: one applicant per row, with the
 * columns a valid row needs filled in and any of them replaced through `extra`.
 */
import { HOUSEHOLD_COLUMNS } from '../../src/households/index.js';

/** The header line of a household file, every column in the documented order. */
export const HEADER_LINE = HOUSEHOLD_COLUMNS.map((column) => column.name).join(',');

/** One applicant's row of household `key` (its unit is the key), quoted where CSV needs it. */
export function row(
  key: string,
  first: string,
  email: string,
  extra: Partial<Record<string, string>> = {},
): string {
  const cells: Record<string, string> = {
    household_key: key,
    first_name: first,
    last_name: 'Doe',
    email,
    phone: '',
    verification_types: '',
    property_name: 'Elm Court',
    street_address: '12 Elm Street',
    city: 'Springfield',
    state: 'Illinois',
    zip_code: '62701',
    unit: key,
    monthly_rent: '1850',
    decision_maker: 'Acme',
    ...extra,
  };
  return HEADER_LINE.split(',')
    .map((name) => {
      const value = cells[name] ?? '';
      return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
    })
    .join(',');
}
