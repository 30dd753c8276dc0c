/**
 * The public shapes of the Node-only coordination: the command line's state folder as
 * `commandLineStateDir` gives it, and `FileCoordination`'s options. On their own, so the edge
 * entry's stand-ins can name them without reaching the Node-only modules.
 */

import type { Logger } from '../observability/log.js';

/** Options of {@link commandLineStateDir} and {@link commandLineCoordination}. */
export interface CommandLineStateOptions {
  /** The command line's `--state-dir DIR`, when its runs are given one: it wins over the environment. */
  stateDir?: string | undefined;
  /** The environment to read (default `process.env`): `VERIFICATION_STATE_DIR`, `XDG_STATE_HOME`, `HOME`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** What a relative `stateDir` or `VERIFICATION_STATE_DIR` is resolved against (default `process.cwd()`). */
  cwd?: string | undefined;
}

/** The command line's state folder, and what chose it. */
export interface CommandLineStateDir {
  /** The state folder (absolute). */
  path: string;
  /** The create gate inside it: the folder of the command line's `FileCoordination`. */
  coordinationPath: string;
  /** What chose it: `--state-dir`, `VERIFICATION_STATE_DIR`, `XDG_STATE_HOME` or `the default state directory`. */
  setBy: string;
}

/** Options of {@link FileCoordination}. */
export interface FileCoordinationOptions {
  /**
   * Where an operation that has waited long on the folder says so (default: `console`, warnings
   * and up): its lock held by a process that is stopped or busy (broken once 10 s old), or a slow
   * disk. The command line passes its own.
   */
  logger?: Logger | undefined;
  /**
   * The store's clock, epoch ms: lease expiry, the age of outcome records, fences and pruning.
   * Default (Linux): the folder's clock, the machine's monotonic clock from an epoch the folder
   * keeps per boot, the same in every process and never stepped, so a process whose wall clock
   * runs ahead or behind ages records as the others do; elsewhere the wall clock. Give every
   * process of a folder the same clock; tests pass a fake one.
   */
  now?: (() => number) | undefined;
}
