import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MILLISECONDS_THRESHOLD, MONTH_NAMES, toDate, toIsoDate } from '../../src/helpers/index.js';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

describe('toIsoDate', () => {
  it.each([
    ['2024-01-05', '2024-01-05'],
    ['01/05/2024', '2024-01-05'],
    ['1/5/2024', '2024-01-05'],
    ['January 5, 2024', '2024-01-05'],
    ['january 05, 2024', '2024-01-05'],
    ['Jan 5, 2024', '2024-01-05'],
    ['Jan. 5, 2024', '2024-01-05'],
    ['Sept 14, 2024', '2024-09-14'],
    ['Sep 1, 2024', '2024-09-01'],
    ['May 31 2024', '2024-05-31'],
    ['  12/31/2023 ', '2023-12-31'],
    ['02/29/2024', '2024-02-29'],
    ['February 29, 2000', '2000-02-29'],
    // ISO 8601 date-times (created_at, updated_at): the date as written, in its own offset.
    ['2024-01-05T00:00:00Z', '2024-01-05'],
    ['2024-06-05T16:00:00.482Z', '2024-06-05'],
    ['2024-06-05T16:00:00.482913+00:00', '2024-06-05'],
    ['2024-01-05T23:30:00-05:00', '2024-01-05'],
    ['2024-01-05T23:30-0500', '2024-01-05'],
    ['2024-01-05 08:15:00', '2024-01-05'],
  ])('%j gives %s', (input, expected) => {
    expect(toIsoDate(input)).toBe(expected);
  });

  it.each([
    '02/30/2024',
    '02/29/2023',
    'February 29, 1900',
    '2024-13-01',
    '2024-00-10',
    '2024-04-31',
    '13/01/2024',
    'Smarch 5, 2024',
    'January 32, 2024',
    '2024-1-5',
    '05/01/24',
    '2024-02-30T00:00:00Z',
    '2024-01-05T24:00:00Z',
    '2024-01-05T12:60Z',
    '2024-01-05T',
    '2024-01-05Tnoon',
    '',
    'yesterday',
  ])('rejects %j with a TypeError naming the value', (input) => {
    expect(() => toIsoDate(input)).toThrow(TypeError);
    expect(() => toIsoDate(input)).toThrow(JSON.stringify(input));
  });

  it('rejects a non-string with a TypeError', () => {
    expect(() => toIsoDate(20240105 as unknown as string)).toThrow(TypeError);
  });

  it('gives the same ISO date for all three forms of any calendar date', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1900-01-01T00:00:00Z'),
          max: new Date('2199-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.boolean(),
        (date, abbreviate) => {
          const year = date.getUTCFullYear();
          const month = date.getUTCMonth() + 1;
          const day = date.getUTCDate();
          const iso = `${year}-${pad(month)}-${pad(day)}`;
          const name = MONTH_NAMES[month - 1] ?? '';
          expect(toIsoDate(iso)).toBe(iso);
          expect(toIsoDate(`${pad(month)}/${pad(day)}/${year}`)).toBe(iso);
          expect(toIsoDate(`${abbreviate ? name.slice(0, 3) : name} ${day}, ${year}`)).toBe(iso);
          expect(toIsoDate(date.toISOString().slice(0, 10))).toBe(iso);
        },
      ),
    );
  });

  it('rejects day numbers past the end of any month', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2199 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
        expect(toIsoDate(`${pad(month)}/${pad(last)}/${year}`)).toBe(`${year}-${pad(month)}-${pad(last)}`);
        if (last < 31) expect(() => toIsoDate(`${pad(month)}/${pad(last + 1)}/${year}`)).toThrow(TypeError);
      }),
    );
  });
});

describe('toDate', () => {
  it('reads fractional Unix seconds (applicant groups)', () => {
    expect(toDate(1717603200.482913).toISOString()).toBe('2024-06-05T16:00:00.482Z');
  });

  it('reads fractional milliseconds (screening groups)', () => {
    expect(toDate(1717603200482.913).toISOString()).toBe('2024-06-05T16:00:00.482Z');
  });

  it('documents its threshold between seconds and milliseconds', () => {
    expect(MILLISECONDS_THRESHOLD).toBe(1e11);
    expect(toDate(MILLISECONDS_THRESHOLD - 1).getUTCFullYear()).toBe(5138);
    expect(toDate(MILLISECONDS_THRESHOLD).getUTCFullYear()).toBe(1973);
    expect(toDate(0).getTime()).toBe(0);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('rejects %s', (value) => {
    expect(() => toDate(value)).toThrow(TypeError);
  });

  it('gives the same instant for seconds and milliseconds of any time from 1973 to 5000', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100_000_000, max: 95_000_000_000 }),
        fc.integer({ min: 0, max: 999 }),
        (s, ms) => {
          const millis = s * 1000 + ms;
          expect(toDate(millis).getTime()).toBe(millis);
          expect(toDate(s + ms / 1000).getTime()).toBeCloseTo(millis, -1);
        },
      ),
    );
  });
});
