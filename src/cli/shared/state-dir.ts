/**
 * The command line's state directory: where the runs of one machine meet. It holds the create
 * gate (`<state dir>/coordination`, a `FileCoordination`), so runs on copies of one file in other
 * folders, other users' runs given the same directory, and scripts using that folder never create
 * a household twice. Found as the XDG base directory specification says: `--state-dir DIR`, else
 * `VERIFICATION_STATE_DIR`, else `$XDG_STATE_HOME/applicant-verification` (only an absolute
 * `XDG_STATE_HOME` counts), else `~/.local/state/applicant-verification`.
 */
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { commandLineStateDir } from 'applicant-verification';
import { describeError, UsageError } from '../errors.js';
import type { CliIO } from './io.js';

/** A state directory and what chose it (for messages). */
export interface StateDir {
  /** Absolute path. */
  path: string;
  /** The create gate's folder inside it (`<path>/coordination`), a `FileCoordination`. */
  coordinationPath: string;
  /** `--state-dir`, `VERIFICATION_STATE_DIR`, `XDG_STATE_HOME` or `the default state directory`. */
  setBy: string;
}

/**
 * Finds the state directory (no I/O) with the library's `commandLineStateDir`, the function the
 * docs give scripts: a script and the command line on one machine resolve the same folder.
 */
export function stateDirOf(flag: string | undefined, io: Pick<CliIO, 'env' | 'cwd'>): StateDir {
  if (flag !== undefined && flag.trim() === '') throw new UsageError('--state-dir needs a directory, got ""');
  const { path, coordinationPath, setBy } = commandLineStateDir({ stateDir: flag, env: io.env, cwd: io.cwd });
  return { path, coordinationPath, setBy };
}

/**
 * Creates `dir` (and missing parents, owner-only) and checks that it can be written, before
 * anything is sent: a gate that cannot be kept must be found out before 300 people are invited.
 * An existing folder keeps its mode, so a folder several users share stays shared; the folders of
 * `dirs` that other users can reach (group or other bits) are returned with their modes, for the
 * caller to report.
 */
export async function prepareDir(
  dir: string,
  setBy: string,
  dirs: readonly string[] = [dir],
): Promise<Array<{ path: string; mode: number }>> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await access(dir, constants.W_OK);
  } catch (error) {
    throw new UsageError(`${setBy}: cannot write to the directory ${dir}: ${describeError(error)}`);
  }
  const loose: Array<{ path: string; mode: number }> = [];
  for (const path of dirs) {
    const mode = (await stat(path)).mode & 0o777;
    if ((mode & 0o077) !== 0) loose.push({ path, mode });
  }
  return loose;
}

/** The warning for a state folder other users can reach: reported, never tightened behind their back. */
export function looseStateWarning({ path, mode }: { path: string; mode: number }): string {
  return `warning: the state directory ${path} can be reached by other users (mode ${mode.toString(8)}): it records which households were created. A folder several users share on purpose (docs/cli.md) is left as it is; if it is not shared, chmod 700 ${path}`;
}
