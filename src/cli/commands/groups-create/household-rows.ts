/**
 * The schema of one row of the households CSV. Every cell arrives as text; the schema trims it,
 * checks it and turns it into what the API wants (rent as a number, phone in E.164, a list of
 * verification types). Issues name the column, and the caller adds the line.
 */
import { REQUEST_VERIFICATION_TYPES as VERIFICATION_TYPES } from 'applicant-verification/schemas';
import * as z from 'zod';
import { phoneNumberSchema } from '../../../internal.js';
import type { ColumnName } from './household-columns.js';

/** One problem in the CSV: where (line, column) and what. */
export interface RowError {
  /** 1-based line of the file; the header is line 1. */
  line: number;
  /** The column at fault, when one is. */
  column?: string | undefined;
  message: string;
}

/** A verification type the API documents. */
export type KnownVerificationType = (typeof VERIFICATION_TYPES)[number];

const KNOWN_TYPES: ReadonlySet<string> = new Set(VERIFICATION_TYPES);

function isKnownType(value: string): value is KnownVerificationType {
  return KNOWN_TYPES.has(value);
}

const requiredText = z.string().trim().min(1, { error: 'is required' });

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value));

// Syntax only; the service checks that the mailbox exists. The value is never echoed: it is
// personal data and error output ends up in tickets and chat.
const email = z
  .string()
  .trim()
  .min(1, { error: 'is required' })
  .pipe(z.email({ error: 'is not a valid email address' }));

// Spreadsheets format numbers for people: "+1 (415) 555-0123" is accepted as +14155550123. A
// number without "+" is refused rather than guessed: the country code is not ours to invent.
const phone = z.string().transform((value, ctx) => {
  const compact = value.replace(/[\s().-]/g, '');
  if (compact === '') return undefined;
  if (!phoneNumberSchema.safeParse(compact).success) {
    ctx.addIssue({
      code: 'custom',
      message:
        'must be an international number: "+", the country code, then the number, e.g. +1 415 555 0123',
    });
    return z.NEVER;
  }
  return compact;
});

const verificationTypes = z.string().transform((value, ctx): KnownVerificationType[] => {
  const items = value
    .split(/[;|,\s]+/)
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '');
  const unknown = items.filter((item) => !isKnownType(item));
  if (unknown.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `unknown verification type ${unknown.map((item) => `"${item}"`).join(', ')}; known: ${VERIFICATION_TYPES.join(', ')}`,
    });
    return z.NEVER;
  }
  return [...new Set(items.filter(isKnownType))];
});

// Dollars as spreadsheets print them: 1850, 1850.5, 1850.00, $1,850.00.
const DOLLARS = /^\$?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/;

const monthlyRent = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (value === '') return undefined;
    const dollars = DOLLARS.test(value) ? Number(value.replace(/[$,\s]/g, '')) : Number.NaN;
    if (!Number.isFinite(dollars) || dollars <= 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a positive amount of dollars (not cents), e.g. 1850 or $1,850.00; got "${value}"`,
      });
      return z.NEVER;
    }
    return dollars;
  });

/**
 * One row of the households CSV. Applicant columns are checked on every row; household columns
 * may be blank on a household's later rows, so they are optional here and required per household.
 */
export const householdRowSchema = z.object({
  household_key: requiredText,
  first_name: requiredText,
  last_name: requiredText,
  email,
  phone,
  verification_types: verificationTypes,
  property_name: optionalText,
  street_address: optionalText,
  city: optionalText,
  state: optionalText,
  zip_code: optionalText,
  unit: optionalText,
  monthly_rent: monthlyRent,
  decision_maker: optionalText,
} satisfies Record<ColumnName, z.ZodType>);

/** One valid row of the households CSV. */
export type HouseholdRow = z.output<typeof householdRowSchema>;

/** The cells of one row by column name (absent columns as empty cells). */
export type RowCells = Record<ColumnName, string>;

/** Checks one row; every problem is returned, each naming its line and column. */
export function parseRow(
  line: number,
  cells: RowCells,
): { ok: true; row: HouseholdRow } | { ok: false; errors: RowError[] } {
  const result = householdRowSchema.safeParse(cells);
  if (result.success) return { ok: true, row: result.data };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => ({
      line,
      column: typeof issue.path[0] === 'string' ? issue.path[0] : undefined,
      message: issue.message,
    })),
  };
}
