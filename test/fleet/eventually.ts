/**
 * Polls a condition that depends on real Redis and real processes (a lease lapsing on the
 * server's clock, a subscription being made, a server coming back), every 10 ms. It gives up
 * after 20 s with an error naming what did not happen, instead of letting the test time out
 * without saying where.
 */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const giveUpAt = Date.now() + 20_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > giveUpAt) throw new Error(`${what}: did not happen within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
