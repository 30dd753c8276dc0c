/**
 * Exit codes scripts can rely on. Kept few and stable: a cron job or CI step only needs to tell
 * "done" from "rerun me" from "fix the command".
 */

/** Every item was done (created, skipped because it already existed, exported, ...). */
export const EXIT_OK = 0;
/** Some rows or items failed (bad CSV rows, API errors); the others were done. Rerun after fixing. */
export const EXIT_FAILED = 1;
/** The command line was wrong: unknown command or option, bad value, missing file or configuration. */
export const EXIT_USAGE = 2;
/** Stopped by Ctrl-C (SIGINT): 128 + 2, the shell convention. */
export const EXIT_SIGINT = 130;
/** Stopped by SIGTERM: 128 + 15, the shell convention. */
export const EXIT_SIGTERM = 143;

/** The exit code of a run stopped by `signal`. */
export function exitCodeForSignal(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? EXIT_SIGINT : EXIT_SIGTERM;
}
