/**
 * Moves this process's wall clock (`Date.now()`, `new Date()`, `Date()`) by CHAOS_CLOCK_OFFSET_MS,
 * as a machine whose clock runs ahead or behind. The chaos worker calls it before its client
 * exists (a call, not a bare import: the package is `sideEffects: false`, so a bundler would drop
 * an import made only for its effect). Only that child process sees it; the machine's clock is
 * never changed.
 */
export function skewClock(): number {
  const offset = Number(process.env.CHAOS_CLOCK_OFFSET_MS ?? '0');
  if (!Number.isFinite(offset) || offset === 0) return 0;
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  // A function rather than a subclass: `Date()` called without `new` must still work.
  function SkewedDate(...args: unknown[]): Date | string {
    const date =
      args.length === 0 ? new RealDate(realNow() + offset) : new RealDate(...(args as [string | number]));
    return new.target ? date : date.toString();
  }
  SkewedDate.prototype = RealDate.prototype;
  SkewedDate.now = () => realNow() + offset;
  SkewedDate.parse = RealDate.parse;
  SkewedDate.UTC = RealDate.UTC;
  globalThis.Date = SkewedDate as unknown as DateConstructor;
  return offset;
}
