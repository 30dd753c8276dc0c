/**
 * Polls a condition that depends on real Redis and real processes (a lease lapsing on the
 * server's clock, a subscription being made, a server coming back), every 10 ms. It gives up
 * after `limitMs` (20 s unless given) with an error naming what did not happen, instead of letting
 * the test time out without saying where.
 */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  limitMs = 20_000,
): Promise<T> {
  const giveUpAt = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > giveUpAt) throw new Error(`${what}: did not happen within ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
