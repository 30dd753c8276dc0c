/**
 * Argument parsing on Node's own `util.parseArgs` (no parser dependency), plus the checks every
 * command shares: numbers in range, and times given as ISO dates or Unix seconds.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { KnownGroupStatus } from 'applicant-verification';
import { GROUP_STATUSES, isKnownGroupStatus } from 'applicant-verification/schemas';
import { UsageError } from '../errors.js';
import { closest } from './suggest.js';

/** The `options` of a `parseArgs` configuration (the type is not exported by name on Node 20). */
export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** Options every command accepts: where the API is, how hard to try, how much to say. */
export const COMMON_OPTIONS = {
  'base-url': { type: 'string' },
  'client-id': { type: 'string' },
  'secret-key': { type: 'string' },
  profile: { type: 'string' },
  'allow-insecure-http': { type: 'boolean' },
  timeout: { type: 'string' },
  'max-retries': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionsConfig;

/** Help text of {@link COMMON_OPTIONS}, appended to every command's help. */
export const COMMON_HELP = `Connection (flags override the environment):
  --base-url URL        API base URL              (env VERIFICATION_BASE_URL)
  --client-id ID        client id                 (env VERIFICATION_CLIENT_ID)
  --secret-key KEY      secret key                (env VERIFICATION_SECRET_KEY; prefer the
                        variable: command lines are visible to other users of the machine)
  --profile NAME        base URL and credentials of a named profile (env VERIFICATION_PROFILE)
                        in $XDG_CONFIG_HOME/applicant-verification/profiles.json (default
                        ~/.config/...): { "profiles": { "NAME": { "baseURL", "clientId",
                        "secretKey" or "secretKeyEnv": a variable holding it } } }. Not with
                        --client-id / --secret-key; --base-url overrides its baseURL
  --allow-insecure-http allow a plain http:// base URL that is not loopback (test hosts
                        only: credentials and applicants' data would travel unencrypted)
  --timeout SECONDS     per attempt (default 60)
  --max-retries N       retries of a failed request (default 4)

Output:
  -q, --quiet           no progress display, retry lines or summary; errors still go to stderr
  -v, --verbose         also log token refreshes to stderr (retries are always shown)
  -h, --help            this help`;

/** The `parseArgs` configuration of a command with options `O`. */
type CommandConfig<O extends OptionsConfig> = {
  args: string[];
  options: typeof COMMON_OPTIONS & O;
  strict: true;
  allowPositionals: true;
};

/** What {@link parseCommand} returns: typed `values` and the `positionals`. */
export type ParsedCommand<O extends OptionsConfig> = ReturnType<typeof parseArgs<CommandConfig<O>>>;

/**
 * Parses `args` with the command's own options and the common ones, strictly: an unknown option
 * or a missing value is a {@link UsageError} (exit code 2), never silently ignored.
 */
export function parseCommand<const O extends OptionsConfig>(
  args: readonly string[],
  options: O,
): ParsedCommand<O> {
  const config: CommandConfig<O> = {
    args: [...args],
    options: { ...COMMON_OPTIONS, ...options },
    strict: true,
    allowPositionals: true,
  };
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError(unknownOptionHint(error, Object.keys(config.options)));
  }
}

// Node says "Unknown option '--cvs'. To specify a positional argument starting with a '-', ...":
// a person who mistyped a flag wants the flag they meant instead.
function unknownOptionHint(error: unknown, known: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  const given = /Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1];
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || given === undefined) return message;
  const name = given.replace(/^-+/, '').split('=')[0] ?? '';
  const suggestion = closest(name, known);
  return suggestion === undefined
    ? `unknown option ${given}`
    : `unknown option ${given}; did you mean --${suggestion}?`;
}

/** The statuses of `--status a --status b,c`. */
export function statusesOf(values: readonly string[] | undefined): KnownGroupStatus[] | undefined {
  if (values === undefined) return undefined;
  const statuses = values
    .flatMap((value) => value.split(','))
    .map((status) => status.trim())
    .filter((status) => status !== '');
  if (statuses.length === 0) throw new UsageError('--status needs a value, e.g. --status completed');
  const unknown = statuses.filter((status) => !isKnownGroupStatus(status));
  if (unknown.length > 0) {
    throw new UsageError(
      `--status must be one of ${GROUP_STATUSES.join(', ')}, got "${unknown.join('", "')}"`,
    );
  }
  return statuses.filter(isKnownGroupStatus);
}

/** Checks that exactly the expected positionals were given. */
export function expectPositionals(positionals: readonly string[], names: readonly string[]): string[] {
  if (positionals.length !== names.length) {
    const expected = names.length === 0 ? 'no arguments' : names.map((name) => `<${name}>`).join(' ');
    const extra = positionals.length > names.length ? `: unexpected "${positionals[names.length]}"` : '';
    throw new UsageError(`expected ${expected}, got ${positionals.length}${extra}`);
  }
  return [...positionals];
}

/** Bounds of a numeric option. */
export interface NumberRange {
  min: number;
  max: number;
  /** Whether fractions are allowed (seconds may be `0.5`; counts may not). */
  integer: boolean;
}

/** Reads a numeric option; `fallback` when absent. */
export function numberOption(
  name: string,
  value: string | undefined,
  fallback: number,
  range: NumberRange,
): number {
  if (value === undefined) return fallback;
  const number = value.trim() === '' ? Number.NaN : Number(value);
  const kind = range.integer ? 'a whole number' : 'a number';
  if (!Number.isFinite(number) || (range.integer && !Number.isInteger(number))) {
    throw new UsageError(`--${name} must be ${kind}, got "${value}"`);
  }
  if (number < range.min || number > range.max) {
    throw new UsageError(`--${name} must be between ${range.min} and ${range.max}, got ${number}`);
  }
  return number;
}

// Dates as people type them for a filter: a day, or a full ISO 8601 date-time with a zone.
// Other forms that `Date.parse` accepts (01/02/2024) are refused: day and month are ambiguous.
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Reads a time option as Unix seconds: Unix seconds (`1767225600`), an ISO day (`2026-01-01`,
 * midnight UTC) or an ISO date-time with a zone (`2026-01-01T09:00:00-05:00`).
 */
export function timeOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const seconds = Number(text);
    // Milliseconds (13 digits) would silently mean the year 50 000: say so instead.
    if (seconds >= 1e11) throw new UsageError(`--${name} looks like milliseconds; give Unix seconds`);
    return seconds;
  }
  if (ISO_DAY.test(text) || ISO_DATE_TIME.test(text)) {
    const ms = Date.parse(ISO_DAY.test(text) ? `${text}T00:00:00Z` : text.replace(' ', 'T'));
    if (Number.isFinite(ms)) return ms / 1000;
  }
  throw new UsageError(
    `--${name} must be Unix seconds or an ISO date (2026-01-31 or 2026-01-31T09:00:00Z), got "${value}"`,
  );
}
