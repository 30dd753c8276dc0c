/**
 * Where the command line keeps its state on this machine, for scripts that must share its create
 * gate (docs/cli.md, "What holds across runs, folders, machines"). The command line resolves its
 * folder with this same function, so a script written from the docs and the command line on one
 * machine take the same lease per household and never both create it.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { ConfigurationError } from '../options.js';
import { nodeBuiltin } from '../transport/node-builtins.js';
import type { CommandLineStateDir, CommandLineStateOptions } from './command-line-state-types.js';
import { FileCoordination } from './file-coordination.js';

/** The folder under the XDG state home. */
const APP_DIR = 'applicant-verification';

export type { CommandLineStateDir, CommandLineStateOptions } from './command-line-state-types.js';

/**
 * The command line's state folder, resolved exactly as `groups create` resolves it: `stateDir`
 * (its `--state-dir`), else `VERIFICATION_STATE_DIR`, else `$XDG_STATE_HOME/applicant-verification`
 * (an absolute `XDG_STATE_HOME` only), else `~/.local/state/applicant-verification`. No I/O.
 *
 * @throws ConfigurationError when `stateDir` is blank.
 */
export function commandLineStateDir(options: CommandLineStateOptions = {}): CommandLineStateDir {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const chosen = (path: string, setBy: string): CommandLineStateDir => ({
    path,
    coordinationPath: join(path, 'coordination'),
    setBy,
  });
  if (options.stateDir !== undefined) {
    if (typeof options.stateDir !== 'string' || options.stateDir.trim() === '') {
      throw new ConfigurationError("stateDir must name a folder (the command line's --state-dir).");
    }
    return chosen(resolve(cwd, options.stateDir), '--state-dir');
  }
  const fromEnv = env.VERIFICATION_STATE_DIR;
  if (fromEnv) return chosen(resolve(cwd, fromEnv), 'VERIFICATION_STATE_DIR');
  // The XDG specification calls a relative path invalid: it is ignored, as the variable being unset.
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return chosen(join(xdg, APP_DIR), 'XDG_STATE_HOME');
  const home = env.HOME || nodeBuiltin('node:os').homedir();
  return chosen(join(home, '.local', 'state', APP_DIR), 'the default state directory');
}

/**
 * The command line's create gate on this machine: a `FileCoordination` in the folder
 * {@link commandLineStateDir} resolves. Give it to a client with the command line's client id, and
 * its `createOnce` shares every household's lease with `groups create`.
 *
 * @throws ConfigurationError when `VERIFICATION_COORDINATION` is set: the command line's gate is
 *   then that Redis (`new RedisCoordination(new Redis(url))` from `applicant-verification/redis`).
 */
export function commandLineCoordination(options: CommandLineStateOptions = {}): FileCoordination {
  const env = options.env ?? process.env;
  if (env.VERIFICATION_COORDINATION) {
    throw new ConfigurationError(
      "VERIFICATION_COORDINATION is set: the command line's gate is that Redis, not a folder. Build new RedisCoordination(new Redis(url)) from applicant-verification/redis with the same URL.",
    );
  }
  return new FileCoordination(commandLineStateDir(options).coordinationPath);
}
