/**
 * The cells of one row of the households CSV. Every cell arrives as text; each is checked on its
 * own and turned into what the API wants (rent as a number, phone in E.164, a list of
 * verification types), so a bad phone does not hide a bad email on the same row, and the row's
 * good cells still take part in its household's checks.
 */
import type { CountryCode } from 'libphonenumber-js/min';
import * as z from 'zod';
import { REQUEST_VERIFICATION_TYPES as VERIFICATION_TYPES } from '../schemas/common.js';
import type { ColumnName } from './columns.js';
import { readPhone } from './phone.js';
import { emailFault, type MaskedKind, shownValue } from './shown.js';

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

// Syntax only; the service checks that the mailbox exists. The value is shown masked (see
// shown.ts): it is personal data and error output ends up in tickets and chat.
const email = z
  .string()
  .trim()
  .min(1, { error: 'is required' })
  .pipe(z.email({ error: (issue) => `is not a valid email address: ${emailFault(String(issue.input))}` }));

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

// Dollars as spreadsheets print them: 1850, 1850.5, 1850.00, $1,850.00, " $2,450.00 ".
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
        message: 'must be a positive amount of dollars (not cents), e.g. 1850 or $1,850.00',
      });
      return z.NEVER;
    }
    return dollars;
  });

// A US ZIP code is 5 digits, or ZIP+4. Three or four digits (or ZIP+4 with them) are what a
// spreadsheet leaves of a ZIP with leading zeros (02134 in New England, 00601 in Puerto Rico) once
// the column was read as numbers: the likely fix is known, but it is applied only when asked.
const ZIP = /^\d{5}(-\d{4})?$/;
const SHORT_ZIP = /^(\d{3,4})(-\d{4})?$/;

/** What reading the ZIP cell gave: the value, a fix applied, or a problem. */
function readZip(value: string, padZipCodes: boolean): { value?: string; fix?: string; problem?: string } {
  const text = value.trim();
  if (text === '' || ZIP.test(text)) return text === '' ? {} : { value: text };
  const short = SHORT_ZIP.exec(text);
  if (short === null) {
    return /^[\d-]+$/.test(text)
      ? { problem: 'is not a ZIP code: expected 5 digits (02134) or ZIP+4 (02134-1234)' }
      : { value: text };
  }
  const padded = `${(short[1] ?? '').padStart(5, '0')}${short[2] ?? ''}`;
  if (padZipCodes) return { value: padded, fix: padded };
  return {
    problem: `has ${short[1]?.length} digits: a spreadsheet probably dropped its leading zero(s); did you mean "${padded}"? Fix the cell (format the column as text), or pad every such ZIP with zeros (padZipCodes, --pad-zip-codes)`,
  };
}

/** A cell the reader changed because an option asked it to (`padZipCodes`). */
export interface CellFix {
  column: ColumnName;
  /** The cell as written. */
  from: string;
  /** What is sent instead. */
  to: string;
}

/** How a row is read: the options of `parseHouseholds` that touch cells. */
export interface RowSettings {
  defaultCountry: CountryCode | undefined;
  padZipCodes: boolean;
}

const MASKED: Partial<Record<ColumnName, MaskedKind>> = { email: 'email', phone: 'phone' };

/** How a refused cell is quoted in its problem: masked for emails and phones. */
export function shownCell(column: ColumnName, value: string): string {
  return shownValue(value, MASKED[column]);
}

/**
 * One row's cells, checked and converted; a field is absent when its cell was blank (optional
 * columns) or invalid (see the row's problems). Applicant columns are checked on every row;
 * household columns may be blank on a household's later rows, so they are optional here and
 * required per household.
 */
export interface RowValues {
  household_key?: string | undefined;
  first_name?: string | undefined;
  last_name?: string | undefined;
  email?: string | undefined;
  /** E.164. */
  phone?: string | undefined;
  verification_types?: KnownVerificationType[] | undefined;
  property_name?: string | undefined;
  street_address?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  zip_code?: string | undefined;
  unit?: string | undefined;
  monthly_rent?: number | undefined;
  decision_maker?: string | undefined;
}

/** A cell's problem: its column, what is wrong and the value refused (the caller adds the line). */
export interface CellProblem {
  column: ColumnName;
  message: string;
  /** The refused cell as shown (`shownCell`); absent for a blank cell. */
  value?: string | undefined;
}

/** The cells of one row by column name (absent columns as empty cells). */
export type RowCells = Record<ColumnName, string>;

/** Checks every cell of a row on its own: what was valid, and every problem. */
export function readRow(
  cells: RowCells,
  settings: RowSettings,
): { values: RowValues; problems: CellProblem[]; fixes: CellFix[] } {
  const problems: CellProblem[] = [];
  const fixes: CellFix[] = [];
  const refused = (column: ColumnName, message: string) => {
    const raw = cells[column];
    if (raw.trim() === '') problems.push({ column, message });
    else {
      const value = shownCell(column, raw);
      problems.push({ column, message: `${message}; got ${value}`, value });
    }
  };
  const cell = <T>(schema: z.ZodType<T, string>, column: ColumnName): T | undefined => {
    const result = schema.safeParse(cells[column]);
    if (result.success) return result.data;
    for (const issue of result.error.issues) refused(column, issue.message);
    return undefined;
  };
  const zip = readZip(cells.zip_code, settings.padZipCodes);
  if (zip.problem !== undefined) refused('zip_code', zip.problem);
  if (zip.fix !== undefined) fixes.push({ column: 'zip_code', from: cells.zip_code.trim(), to: zip.fix });
  const values: RowValues = {
    household_key: cell(requiredText, 'household_key'),
    first_name: cell(requiredText, 'first_name'),
    last_name: cell(requiredText, 'last_name'),
    email: cell(email, 'email'),
    verification_types: cell(verificationTypes, 'verification_types'),
    property_name: cell(optionalText, 'property_name'),
    street_address: cell(optionalText, 'street_address'),
    city: cell(optionalText, 'city'),
    state: cell(optionalText, 'state'),
    zip_code: zip.value,
    unit: cell(optionalText, 'unit'),
    monthly_rent: cell(monthlyRent, 'monthly_rent'),
    decision_maker: cell(optionalText, 'decision_maker'),
  };
  if (cells.phone.trim() !== '') {
    const phone = readPhone(cells.phone, settings.defaultCountry);
    if (phone.ok) values.phone = phone.e164;
    else refused('phone', phone.message);
  }
  return { values, problems, fixes };
}
