/**
 * Responses carry rents in integer cents (`monthly_rent_cents`) while create bodies take dollars
 * (`monthly_rent`); these helpers convert without binary floating-point surprises.
 */

function assertFinite(value: number, what: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new TypeError(`Expected a finite number of ${what}, received ${String(value)}`);
  }
}

/** Converts cents to dollars: `185000` gives `1850`. */
export function centsToDollars(cents: number): number {
  assertFinite(cents, 'cents');
  const dollars = cents / 100;
  return dollars === 0 ? 0 : dollars;
}

/**
 * Converts dollars to integer cents, rounding half away from zero: `1850.5` gives `185050`,
 * `0.1 + 0.2` gives `30`, `1.005` gives `101`.
 */
export function dollarsToCents(dollars: number): number {
  assertFinite(dollars, 'dollars');
  const scaled = Math.abs(dollars) * 100;
  // 15 significant digits drop the binary error of `* 100` (1.005 * 100 = 100.49999999999999)
  // without touching any digit a caller wrote; above 1e15 every double is already an integer.
  const cleaned = scaled < 1e15 ? Number(scaled.toPrecision(15)) : scaled;
  const cents = Math.sign(dollars) * Math.round(cleaned);
  return cents === 0 ? 0 : cents;
}
