/**
 * The documented columns of a households CSV (`parseHouseholds`, `groups create --csv`): one row
 * per applicant, rows sharing a `household_key` form one applicant group. The help text, the docs
 * and the header check all read this list, so they cannot drift apart.
 */

/** Whether a column describes one applicant (each row) or the whole household (first row). */
export type ColumnLevel = 'applicant' | 'household';

/** One column of the households CSV. */
export interface ColumnSpec {
  /** The header name (matched case-insensitively; spaces and hyphens read as underscores). */
  readonly name: string;
  /** Whether the column must be in the header. */
  readonly required: boolean;
  /**
   * For a column the header may lack but whose blank cell is still an error: the option that gives
   * the default instead (`decision_maker`: `decisionMaker`, `--decision-maker`).
   */
  readonly requiredUnless?: string | undefined;
  /** Whether it describes one applicant (each row) or the whole household (any of its rows). */
  readonly level: ColumnLevel;
  /** What goes in it, for `--help` and docs/cli.md. */
  readonly description: string;
}

/** Every column the households CSV may have, in the documented order. */
export const HOUSEHOLD_COLUMNS = [
  {
    name: 'household_key',
    required: true,
    level: 'household',
    description:
      'Your id of the household (unit or application number); rows with the same key form one group',
  },
  { name: 'first_name', required: true, level: 'applicant', description: "Applicant's first name" },
  { name: 'last_name', required: true, level: 'applicant', description: "Applicant's last name" },
  { name: 'email', required: true, level: 'applicant', description: 'Receives the invitation' },
  {
    name: 'phone',
    required: false,
    level: 'applicant',
    description:
      'Sends a text too. +14155550123, or national ((415) 555-0123) with a default country; spaces, dashes, dots, parentheses ignored',
  },
  {
    name: 'verification_types',
    required: false,
    level: 'applicant',
    description: 'Separated by ";": payroll_income_verification, identity_verification, asset_verification',
  },
  { name: 'property_name', required: true, level: 'household', description: 'Property name' },
  { name: 'street_address', required: true, level: 'household', description: 'Street address' },
  { name: 'city', required: true, level: 'household', description: 'City' },
  { name: 'state', required: true, level: 'household', description: 'State' },
  { name: 'zip_code', required: true, level: 'household', description: 'ZIP code' },
  { name: 'unit', required: false, level: 'household', description: 'Unit number' },
  {
    name: 'monthly_rent',
    required: true,
    level: 'household',
    description: 'Whole household, in dollars (not cents): 1850, 1850.00 or $1,850',
  },
  {
    name: 'decision_maker',
    required: false,
    requiredUnless: '--decision-maker',
    level: 'household',
    description:
      'Display name of the decision maker; a household with none is an error unless --decision-maker NAME gives it',
  },
] as const satisfies readonly ColumnSpec[];

/** A column name of the households CSV. */
export type ColumnName = (typeof HOUSEHOLD_COLUMNS)[number]['name'];

const KNOWN: ReadonlySet<string> = new Set(HOUSEHOLD_COLUMNS.map((column) => column.name));

/** Whether `name` is a documented column. */
export function isColumnName(name: string): name is ColumnName {
  return KNOWN.has(name);
}

// Headers spreadsheets and office templates commonly use for a documented column.
const ALIASES: Readonly<Record<string, ColumnName>> = {
  e_mail: 'email',
  email_address: 'email',
  phone_number: 'phone',
  mobile_phone: 'phone',
  zip: 'zip_code',
  postal_code: 'zip_code',
  rent: 'monthly_rent',
};

/**
 * A header cell as the column it names: `Household Key`, `household-key` and `Household Key (ID)`
 * read as `household_key`; `E-mail`, `Phone Number`, `ZIP` and `Rent` as their columns.
 */
export function normalizeColumnName(cell: string): string {
  const name = cell
    .trim()
    .toLowerCase()
    .replace(/\([^)]*\)/g, '')
    .replace(/[^a-z0-9\s_-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '_');
  return ALIASES[name] ?? name;
}
