/**
 * The client a command talks through: base URL and credentials from flags, a named profile
 * (profiles.ts) or the same `VERIFICATION_*` variables the SDK reads, SDK log lines routed above
 * the progress display.
 *
 * Which account a run acts for is never pieced together from two places: credentials come as a
 * pair, from the flags and the environment as before, or whole from a profile. In order:
 * `--profile` (refused beside `--client-id` / `--secret-key`: two accounts named at once), then
 * `--client-id` / `--secret-key` (flags, each completed from its variable as before), then
 * `VERIFICATION_PROFILE` (refused while `VERIFICATION_CLIENT_ID` or `VERIFICATION_SECRET_KEY` is
 * set too: the environment would name two accounts), then the variables. `--base-url` overrides
 * a profile's `baseURL`; `VERIFICATION_BASE_URL` does not (a profile names its host).
 */
import {
  type ClientOptions,
  ConfigurationError,
  type Logger,
  type LogLevel,
  VerificationClient,
} from 'applicant-verification';
import { isLogLevel } from '../../internal.js';
import { UsageError } from '../errors.js';
import { numberOption } from './args.js';
import type { CliIO } from './io.js';
import { loadProfile } from './profiles.js';
import type { Reporter } from './progress.js';

/** The parsed common options a client is built from. */
export interface ConnectionValues {
  'base-url'?: string | undefined;
  'client-id'?: string | undefined;
  'secret-key'?: string | undefined;
  profile?: string | undefined;
  timeout?: string | undefined;
  'max-retries'?: string | undefined;
  'allow-insecure-http'?: boolean | undefined;
  verbose?: boolean | undefined;
}

/** Retries per request in batch runs: more than the SDK's default 2, since a rerun costs a person's time. */
export const DEFAULT_CLI_MAX_RETRIES = 4;

function logLevel(values: ConnectionValues, io: CliIO): LogLevel {
  if (values.verbose) return 'info';
  const fromEnv = io.env.VERIFICATION_LOG;
  // Warnings are the retries: one line each, so a person facing an unreachable host sees the
  // attempts instead of a minute of silence.
  return isLogLevel(fromEnv) ? fromEnv : 'warn';
}

const PREFIX = /^\[applicant-verification\] /;

/**
 * A log line of the SDK as the command line shows it: without the library prefix. The SDK's retry
 * lines already read `retrying in 2 s (attempt 2 of 5): POST /api/v1/applicant_groups on host …`.
 */
export function cliLogLine(message: string): string {
  return message.replace(PREFIX, '');
}

// The SDK's configuration errors name its options; a person at a shell needs the flags.
function cliConfigurationMessage(message: string): string {
  return message
    .replace(/allowInsecureHttp:\s*true/g, '--allow-insecure-http')
    .replace(/\ballowInsecureHttp\b/g, '--allow-insecure-http');
}

/**
 * Where the SDK's log lines (and the Redis coordination's) go: above the progress display, without
 * the library prefix. Retry lines are progress: hidden by --quiet, unless a log level was asked
 * for (--verbose, VERIFICATION_LOG).
 */
export function cliLogger(values: ConnectionValues, io: CliIO, reporter: Reporter): Logger {
  const asked = values.verbose === true || isLogLevel(io.env.VERIFICATION_LOG);
  const progressLine = (message: string) =>
    asked ? reporter.error(cliLogLine(message)) : reporter.note(cliLogLine(message));
  return {
    debug: progressLine,
    info: progressLine,
    warn: progressLine,
    error: (message) => reporter.error(cliLogLine(message)),
  };
}

/** Where a run's API is and which account it acts for; a field is `undefined` when nothing set it. */
export interface ResolvedConnection {
  baseURL: string | undefined;
  clientId: string | undefined;
  secretKey: string | undefined;
  /** The profile the credentials came from, if any. */
  profile: string | undefined;
}

/**
 * Resolves base URL and credentials by the order above. A profile that cannot be used, or two
 * accounts named at once, is a usage error; missing settings are left `undefined` for the
 * caller to list.
 */
export async function resolveConnection(
  values: ConnectionValues,
  io: Pick<CliIO, 'env'>,
): Promise<ResolvedConnection> {
  const { env } = io;
  const credentialFlags = values['client-id'] !== undefined || values['secret-key'] !== undefined;
  if (values.profile !== undefined && credentialFlags) {
    throw new UsageError(
      '--profile and --client-id / --secret-key both name an account: pass the profile or the credentials, not both',
    );
  }
  const fromEnv = !credentialFlags && values.profile === undefined ? env.VERIFICATION_PROFILE : undefined;
  if (fromEnv && (env.VERIFICATION_CLIENT_ID || env.VERIFICATION_SECRET_KEY)) {
    throw new UsageError(
      'VERIFICATION_PROFILE and VERIFICATION_CLIENT_ID / VERIFICATION_SECRET_KEY are both set, so the environment names two accounts: unset one, or choose with --profile NAME or --client-id',
    );
  }
  const chosen =
    values.profile !== undefined
      ? { name: values.profile, setBy: '--profile' }
      : fromEnv
        ? { name: fromEnv, setBy: 'VERIFICATION_PROFILE' }
        : undefined;
  if (chosen) {
    const profile = await loadProfile(chosen.name, chosen.setBy, io);
    return {
      baseURL: values['base-url'] || profile.baseURL,
      clientId: profile.clientId,
      secretKey: profile.secretKey,
      profile: profile.name,
    };
  }
  const flagId = values['client-id'];
  if (
    flagId &&
    !values['secret-key'] &&
    env.VERIFICATION_CLIENT_ID &&
    env.VERIFICATION_CLIENT_ID !== flagId
  ) {
    // The variable's secret key belongs to the variable's client id: pairing it with another id
    // would send one account's secret as another's (credentials come as a pair, docs/cli.md).
    throw new UsageError(
      '--client-id names another account than VERIFICATION_CLIENT_ID, so VERIFICATION_SECRET_KEY is not its secret key: pass --secret-key too, use --profile NAME, or unset VERIFICATION_CLIENT_ID',
    );
  }
  return {
    baseURL: values['base-url'] || env.VERIFICATION_BASE_URL,
    clientId: flagId || env.VERIFICATION_CLIENT_ID,
    secretKey: values['secret-key'] || env.VERIFICATION_SECRET_KEY,
    profile: undefined,
  };
}

/** What {@link connect} may add to the client's options. */
export type ConnectExtra = Pick<ClientOptions, 'createGraceWindow' | 'apiRentUnit' | 'coordination'>;

/**
 * Builds the client (resolving base URL and credentials as {@link resolveConnection} does). A
 * missing or wrong base URL or credential is a usage error (exit 2), with the SDK's message
 * naming the flag's variable; the secret key itself is never printed.
 */
export async function connect(
  values: ConnectionValues,
  io: CliIO,
  reporter: Reporter,
  extra: ConnectExtra = {},
): Promise<VerificationClient> {
  return clientOf(await resolveConnection(values, io), values, io, reporter, extra);
}

/** Builds the client of a resolved connection (no I/O). */
export function clientOf(
  connection: ResolvedConnection,
  values: ConnectionValues,
  io: CliIO,
  reporter: Reporter,
  extra: ConnectExtra = {},
): VerificationClient {
  const timeoutSeconds = numberOption('timeout', values.timeout, 60, {
    min: 0.001,
    max: 3600,
    integer: false,
  });
  const maxRetries = numberOption('max-retries', values['max-retries'], DEFAULT_CLI_MAX_RETRIES, {
    min: 0,
    max: 20,
    integer: true,
  });
  // The SDK masks and prefixes every line before it gets here.
  const logger = cliLogger(values, io, reporter);
  const { baseURL, clientId, secretKey } = connection;
  const missing = [
    !baseURL && '--base-url (or VERIFICATION_BASE_URL)',
    !clientId && '--client-id (or VERIFICATION_CLIENT_ID)',
    !secretKey && 'VERIFICATION_SECRET_KEY (or --secret-key)',
  ].filter((item) => typeof item === 'string');
  if (missing.length > 0)
    throw new UsageError(`missing connection settings: ${missing.join(', ')}, or --profile NAME`);
  try {
    return new VerificationClient({
      baseURL,
      clientId,
      secretKey,
      timeout: Math.round(timeoutSeconds * 1000),
      maxRetries,
      allowInsecureHttp: values['allow-insecure-http'] ?? false,
      logLevel: logLevel(values, io),
      logger,
      ...(io.clock ? { clock: io.clock } : {}),
      ...extra,
    });
  } catch (error) {
    if (error instanceof ConfigurationError) throw new UsageError(cliConfigurationMessage(error.message));
    throw error;
  }
}

/**
 * What is wrong with the connection settings (missing, or malformed: a base URL that is not one,
 * plain `http://` to another host), or `undefined`: the client is built and closed again, so the
 * check is the client's own and touches no network.
 */
export async function connectionProblem(
  connection: ResolvedConnection,
  values: ConnectionValues,
  io: CliIO,
  reporter: Reporter,
): Promise<string | undefined> {
  let client: VerificationClient;
  try {
    client = clientOf(connection, values, io, reporter);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  await client.close();
  return undefined;
}
