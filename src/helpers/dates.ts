/**
 * Report data carries dates in three forms: `2024-01-05` (income streams, connections),
 * `01/05/2024` (transactions) and `January 5, 2024` (paystubs, payroll). These helpers turn each
 * into one ISO form, and turn `created_at_timestamp` (seconds or milliseconds) into a `Date`.
 */

/** English month names, January first: the long written form of the dates (docs/wire-contract.md §2.9). */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

// Full names, three-letter abbreviations and `Sept`, lower-cased, to month numbers.
const MONTHS: ReadonlyMap<string, number> = new Map([
  ...MONTH_NAMES.map((name, index): [string, number] => [name.toLowerCase(), index + 1]),
  ...MONTH_NAMES.map((name, index): [string, number] => [name.slice(0, 3).toLowerCase(), index + 1]),
  ['sept', 9],
]);

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
// `2024-01-05T16:00:00Z`, `2024-01-05T16:00:00.123Z`, `2024-01-05 16:00`, `...+02:00`: the API's date-times.
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const WRITTEN = /^([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/;

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one; UTC avoids DST and zone shifts.
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function format(year: number, month: number, day: number, original: string): string {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new TypeError(`Not a calendar date: "${original}"`);
  }
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Turns a date in any of the API's forms into an ISO date (`YYYY-MM-DD`):
 * `2024-01-05`, `01/05/2024` (or `1/5/2024`), `January 5, 2024`, `Jan 5, 2024` or `Jan. 5 2024`,
 * and ISO 8601 date-times (`2024-01-05T16:00:00Z`, `2024-01-05T16:00:00.123+02:00`), whose
 * date is taken as written, in the offset given (no conversion to UTC).
 *
 * @throws TypeError when the value is in none of these forms or is not a real calendar date
 * (`02/30/2024`).
 */
export function toIsoDate(value: string): string {
  if (typeof value !== 'string') throw new TypeError(`Expected a date string, received ${typeof value}`);
  const text = value.trim();
  const iso = ISO.exec(text);
  if (iso) return format(Number(iso[1]), Number(iso[2]), Number(iso[3]), value);
  const dateTime = ISO_DATE_TIME.exec(text);
  if (dateTime) {
    const [hours, minutes, seconds] = [Number(dateTime[4]), Number(dateTime[5]), Number(dateTime[6] ?? 0)];
    if (hours > 23 || minutes > 59 || seconds > 60) throw new TypeError(`Not a time of day: "${value}"`);
    return format(Number(dateTime[1]), Number(dateTime[2]), Number(dateTime[3]), value);
  }
  const us = US.exec(text);
  if (us) return format(Number(us[3]), Number(us[1]), Number(us[2]), value);
  const written = WRITTEN.exec(text);
  if (written) {
    const month = MONTHS.get((written[1] ?? '').toLowerCase());
    if (month !== undefined) return format(Number(written[3]), month, Number(written[2]), value);
  }
  throw new TypeError(
    `Unrecognised date "${value}": expected YYYY-MM-DD, an ISO date-time (2024-01-05T16:00:00Z), MM/DD/YYYY or a written date such as "January 5, 2024"`,
  );
}

/**
 * Timestamps at or above this magnitude are read as milliseconds, below it as seconds. 1e11
 * seconds is in the year 5138, while 1e11 milliseconds is March 1973, before any group existed,
 * so the two ranges cannot be confused for real creation times.
 */
export const MILLISECONDS_THRESHOLD = 1e11;

/**
 * Turns a `created_at_timestamp` into a `Date`. Applicant groups send Unix seconds (fractional),
 * screening groups may send milliseconds; the magnitude tells them apart (from 1e11 up, the
 * value is taken for milliseconds).
 *
 * @throws TypeError when the timestamp is not a finite number.
 */
export function toDate(timestamp: number): Date {
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) {
    throw new TypeError(`Expected a finite Unix timestamp, received ${String(timestamp)}`);
  }
  const milliseconds = Math.abs(timestamp) >= MILLISECONDS_THRESHOLD ? timestamp : timestamp * 1000;
  return new Date(milliseconds);
}
