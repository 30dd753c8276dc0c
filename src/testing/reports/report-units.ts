/**
 * Units of the generated report data: money (integer cents, converted once to dollars) and
 * calendar dates in UTC with the three written forms the report uses.
 */
import { MONTH_NAMES } from '../../internal.js';
import type { Random } from '../state/random.js';

/** Random amount of integer cents between two dollar amounts. */
export function centsBetween(random: Random, minDollars: number, maxDollars: number): number {
  return random.int(Math.round(minDollars * 100), Math.round(maxDollars * 100));
}

/** Cents to the dollar amounts used in report data (see the module comment on units). */
export function dollars(cents: number): number {
  return Math.round(cents) / 100;
}

export const DAY_MS = 86_400_000;

/** Midnight UTC of the given instant's UTC day; all report dates are calendar days in UTC. */
export function utcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** Calendar months, clamping the day (March 31 minus one month is February 28 or 29). */
export function addMonths(date: Date, months: number): Date {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay)));
}

export function daysBetween(from: Date, to: Date): number {
  return Math.round((to.getTime() - from.getTime()) / DAY_MS);
}

export const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `YYYY-MM-DD`: stream and connection start/end dates. */
export function isoDate(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** `MM/DD/YYYY`: transaction dates. */
export function slashDate(date: Date): string {
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`;
}

/** `January 5, 2024`: paystub dates and payroll employment dates. */
export function longDate(date: Date): string {
  return `${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}
