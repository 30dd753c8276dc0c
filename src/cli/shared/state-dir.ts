/**
 * The command line's state directory: where the runs of one machine meet. It holds the create
 * gate (`<state dir>/coordination`, a `FileCoordination`), so runs on copies of one file in other
 * folders, other users' runs given the same directory, and scripts using that folder never create
 * a household twice. Found as the XDG base directory specification says: `--state-dir DIR`, else
 * `VERIFICATION_STATE_DIR`, else `$XDG_STATE_HOME/applicant-verification` (only an absolute
 * `XDG_STATE_HOME` counts), else `~/.local/state/applicant-verification`.
 */
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { describeError, UsageError } from '../errors.js';
import type { CliIO } from './io.js';

/** The folder under the XDG state home. */
const APP_DIR = 'applicant-verification';

/** The subfolder of the state directory that holds the create gate's `FileCoordination`. */
export const COORDINATION_DIR = 'coordination';

/** A state directory and what chose it (for messages). */
export interface StateDir {
  /** Absolute path. */
  path: string;
  /** `--state-dir`, `VERIFICATION_STATE_DIR`, `XDG_STATE_HOME` or `the default state directory`. */
  setBy: string;
}

/** Finds the state directory (no I/O). */
export function stateDirOf(flag: string | undefined, io: Pick<CliIO, 'env' | 'cwd'>): StateDir {
  if (flag !== undefined) {
    if (flag.trim() === '') throw new UsageError('--state-dir needs a directory, got ""');
    return { path: resolve(io.cwd, flag), setBy: '--state-dir' };
  }
  const fromEnv = io.env.VERIFICATION_STATE_DIR;
  if (fromEnv) return { path: resolve(io.cwd, fromEnv), setBy: 'VERIFICATION_STATE_DIR' };
  // The specification calls a relative path invalid: it is ignored, as the variable being unset.
  const xdg = io.env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return { path: join(xdg, APP_DIR), setBy: 'XDG_STATE_HOME' };
  const home = io.env.HOME || homedir();
  return { path: join(home, '.local', 'state', APP_DIR), setBy: 'the default state directory' };
}

/**
 * Creates `dir` (and missing parents, owner-only) and checks that it can be written, before
 * anything is sent: a gate that cannot be kept must be found out before 300 people are invited.
 * An existing folder keeps its mode, so a folder several users share stays shared.
 */
export async function prepareDir(dir: string, setBy: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await access(dir, constants.W_OK);
  } catch (error) {
    throw new UsageError(`${setBy}: cannot write to the directory ${dir}: ${describeError(error)}`);
  }
}
