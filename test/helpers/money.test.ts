import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToDollars, dollarsToCents } from '../../src/helpers/index.js';

describe('centsToDollars', () => {
  it.each([
    [285000, 2850],
    [1, 0.01],
    [199, 1.99],
    [0, 0],
    [-250, -2.5],
  ])('%d cents is %d dollars', (cents, dollars) => {
    expect(centsToDollars(cents)).toBe(dollars);
  });

  it('never gives -0', () => {
    expect(Object.is(centsToDollars(-0), 0)).toBe(true);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY])('rejects %s', (value) => {
    expect(() => centsToDollars(value)).toThrow(TypeError);
  });
});

describe('dollarsToCents', () => {
  it.each([
    [2850, 285000],
    [0.1 + 0.2, 30],
    [1.005, 101],
    [1.015, 102],
    [19.99, 1999],
    [0.07, 7],
    [1850.5, 185050],
    [-1.005, -101],
    [0.004, 0],
    [0.005, 1],
    [1e-7, 0],
    [4.35, 435],
    [1_000_000.01, 100000001],
  ])('%d dollars is %d cents', (dollars, cents) => {
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  it('never gives -0', () => {
    expect(Object.is(dollarsToCents(-0.001), 0)).toBe(true);
  });

  it.each([Number.NaN, Number.NEGATIVE_INFINITY])('rejects %s', (value) => {
    expect(() => dollarsToCents(value)).toThrow(TypeError);
  });

  it('round-trips every integer number of cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (cents) => {
        expect(dollarsToCents(centsToDollars(cents))).toBe(cents);
      }),
    );
  });

  it('always gives an integer within half a cent of the dollars', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (dollars) => {
        const cents = dollarsToCents(dollars);
        expect(Number.isInteger(cents)).toBe(true);
        expect(Math.abs(cents - dollars * 100)).toBeLessThanOrEqual(0.5 + 1e-6);
      }),
    );
  });

  it('matches decimal string arithmetic for amounts written with two decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 0, max: 99 }), (whole, fraction) => {
        const written = Number(`${whole}.${String(fraction).padStart(2, '0')}`);
        expect(dollarsToCents(written)).toBe(whole * 100 + fraction);
      }),
    );
  });

  it('sums of amounts convert like the sum of their cents', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 20 }), (centsList) => {
        const dollars = centsList.reduce((sum, cents) => sum + cents / 100, 0);
        expect(dollarsToCents(dollars)).toBe(centsList.reduce((sum, cents) => sum + cents, 0));
      }),
    );
  });
});
