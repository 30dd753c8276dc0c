/**
 * Imported first by the chaos worker: moves this process's wall clock (`Date.now()` and
 * `new Date()`) by CHAOS_CLOCK_OFFSET_MS, as a machine whose clock runs ahead or behind. Only this
 * child process sees it; the machine's clock is never changed.
 */
const offset = Number(process.env.CHAOS_CLOCK_OFFSET_MS ?? '0');

if (Number.isFinite(offset) && offset !== 0) {
  const realNow = Date.now.bind(Date);
  const RealDate = Date;
  class SkewedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(realNow() + offset);
      else super(...(args as [string | number]));
    }

    static override now(): number {
      return realNow() + offset;
    }
  }
  globalThis.Date = SkewedDate as DateConstructor;
}
