/**
 * The command table and the one place that turns outcomes into exit codes. `runCli` takes its
 * streams, environment and stop signal as arguments, so tests can run commands in-process.
 */
import { VERSION } from 'applicant-verification';
import {
  AUTH_FAILED_MESSAGE,
  describeError,
  EXIT_AUTH,
  EXIT_FAILED,
  EXIT_LOCKED,
  EXIT_OK,
  EXIT_STATE,
  EXIT_USAGE,
  exitCodeForSignal,
  InterruptedError,
  isAuthFailure,
  LockedError,
  StateError,
  UsageError,
} from './errors.js';
import { type CliIO, write } from './shared/io.js';
import { safeLines } from './shared/terminal.js';

/** The program's name, as installed by package.json `bin`. */
export const PROGRAM = 'applicant-verification';

/** Top-level help. */
export const HELP = `Usage: ${PROGRAM} <command> [options]

Batch jobs on the Applicant Income and Asset Verification API.

Commands:
  groups list          list applicant groups (every page) as a table, JSON or CSV
  groups create        create one group per household of a CSV file; safe to rerun
  groups watch ID      poll a group until it completes or expires
  groups duplicates    list households with more than one live group (exit 7 if any)
  reports export       save every report of some groups as JSON and PDF files
  state show           what the state folder holds: servers, households by outcome, leases held
  state clear          clear the state folder, unless a create recorded there may be in flight

Run "${PROGRAM} <command> --help" for a command's options.

Connection: VERIFICATION_BASE_URL, VERIFICATION_CLIENT_ID and VERIFICATION_SECRET_KEY, or
--base-url, --client-id and --secret-key, or a named profile: --profile NAME (env
VERIFICATION_PROFILE) from ~/.config/applicant-verification/profiles.json.

Exit codes: 0 done; 1 some rows or items failed (or a fatal API error); 2 usage;
3 conflicts (groups create); 4 another run holds the batch's lock (state clear: something may be
in flight); 5 authentication failed;
6 local state cannot be trusted (the message names the file and the repair);
7 duplicates found (groups duplicates); 130/143 stopped by SIGINT/SIGTERM.`;

type Command = (args: readonly string[], io: CliIO) => Promise<number>;

// Loaded on demand: `--help` and usage errors answer without loading the SDK and zod schemas.
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  'groups list': async () => (await import('./commands/groups-list/index.js')).groupsList,
  'groups create': async () => (await import('./commands/groups-create/index.js')).groupsCreate,
  'groups watch': async () => (await import('./commands/groups-watch/index.js')).groupsWatch,
  'groups duplicates': async () => (await import('./commands/groups-duplicates/index.js')).groupsDuplicates,
  'reports export': async () => (await import('./commands/reports-export/index.js')).reportsExport,
  'state show': async () => {
    const { state } = await import('./commands/state/index.js');
    return (args, io) => state('show', args, io);
  },
  'state clear': async () => {
    const { state } = await import('./commands/state/index.js');
    return (args, io) => state('clear', args, io);
  },
};

const HELP_FLAGS = new Set(['--help', '-h', 'help']);

function stoppedCode(io: CliIO): number | undefined {
  const reason: unknown = io.signal.reason;
  return io.signal.aborted && reason instanceof InterruptedError
    ? exitCodeForSignal(reason.signal)
    : undefined;
}

/** Runs one command line (without `node` and the script) and returns its exit code. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [first, second, ...rest] = argv;
  if (first === undefined) {
    await write(io.stderr, `${HELP}\n`);
    return EXIT_USAGE;
  }
  if (HELP_FLAGS.has(first)) {
    await write(io.stdout, `${HELP}\n`);
    return EXIT_OK;
  }
  if (first === '--version' || first === '-V') {
    await write(io.stdout, `${VERSION}\n`);
    return EXIT_OK;
  }
  const name = `${first} ${second ?? ''}`.trim();
  const load = COMMANDS[name];
  if (!load) {
    const family = Object.keys(COMMANDS).filter((key) => key.startsWith(`${first} `));
    if (family.length > 0 && (second === undefined || HELP_FLAGS.has(second))) {
      const list = family.map((key) => `  ${PROGRAM} ${key}`).join('\n');
      await write(second === undefined ? io.stderr : io.stdout, `Commands of "${first}":\n${list}\n`);
      return second === undefined ? EXIT_USAGE : EXIT_OK;
    }
    await write(io.stderr, `${PROGRAM}: unknown command "${name}"\n\n${HELP}\n`);
    return EXIT_USAGE;
  }
  try {
    const command = await load();
    const code = await command(rest, io);
    return stoppedCode(io) ?? code;
  } catch (error) {
    const stopped = stoppedCode(io);
    if (stopped !== undefined) return stopped;
    if (error instanceof UsageError) {
      await write(
        io.stderr,
        `${PROGRAM} ${name}: ${error.message}\nRun "${PROGRAM} ${name} --help" for usage.\n`,
      );
      return EXIT_USAGE;
    }
    if (error instanceof StateError) {
      await write(io.stderr, `${PROGRAM} ${name}: ${safeLines(error.message)}\n`);
      return EXIT_STATE;
    }
    if (error instanceof LockedError) {
      await write(io.stderr, `${PROGRAM} ${name}: ${error.message}\n`);
      return EXIT_LOCKED;
    }
    if (isAuthFailure(error)) {
      await write(io.stderr, `${PROGRAM} ${name}: ${AUTH_FAILED_MESSAGE}\n`);
      return EXIT_AUTH;
    }
    await write(io.stderr, `${PROGRAM} ${name}: ${safeLines(describeError(error))}\n`);
    return EXIT_FAILED;
  }
}
