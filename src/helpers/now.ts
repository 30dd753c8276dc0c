/**
 * "Now", as the helpers take it (`affordability`, `applicantGroups.sync`, `syncEvent`): a `Date`,
 * epoch milliseconds, a clock (anything with `now()`, such as the client's `clock` or the mock's),
 * or a function returning epoch milliseconds. One form everywhere, so a test hands each helper
 * the same clock.
 */

/** A point in time, or where to read the current one. */
export type TimeSource =
  | Date
  | number
  | {
      /** The current time, epoch milliseconds (a clock: the client's, or the mock's). */
      now(): number;
    }
  | (() => number);

/**
 * The epoch milliseconds `time` stands for, read now; `fallback` when it is `undefined`.
 *
 * @throws {TypeError} naming `option` when `time` is none of the forms, or not a finite time.
 */
export function epochMsOf(time: TimeSource | undefined, fallback: () => number, option: string): number {
  const ms =
    time === undefined
      ? fallback()
      : typeof time === 'number'
        ? time
        : time instanceof Date
          ? time.getTime()
          : typeof time === 'function'
            ? time()
            : typeof time?.now === 'function'
              ? time.now()
              : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw new TypeError(
      `${option} must be a Date, epoch milliseconds, a clock with now() or a function returning epoch milliseconds; got ${String(time)}`,
    );
  }
  return ms;
}
