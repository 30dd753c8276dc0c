/**
 * The client a command talks through: base URL and credentials from flags or the same
 * `VERIFICATION_*` variables the SDK reads, SDK log lines routed above the progress display.
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
import type { Reporter } from './progress.js';

/** The parsed common options a client is built from. */
export interface ConnectionValues {
  'base-url'?: string | undefined;
  'client-id'?: string | undefined;
  'secret-key'?: string | undefined;
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

/**
 * Builds the client. A missing or wrong base URL or credential is a usage error (exit 2), with
 * the SDK's message naming the flag's variable; the secret key itself is never printed.
 */
export function connect(
  values: ConnectionValues,
  io: CliIO,
  reporter: Reporter,
  extra: Pick<ClientOptions, 'createGraceWindow' | 'apiRentUnit' | 'coordination'> = {},
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
  const baseURL = values['base-url'] || io.env.VERIFICATION_BASE_URL;
  const clientId = values['client-id'] || io.env.VERIFICATION_CLIENT_ID;
  const secretKey = values['secret-key'] || io.env.VERIFICATION_SECRET_KEY;
  const missing = [
    !baseURL && '--base-url (or VERIFICATION_BASE_URL)',
    !clientId && '--client-id (or VERIFICATION_CLIENT_ID)',
    !secretKey && 'VERIFICATION_SECRET_KEY (or --secret-key)',
  ].filter((item) => typeof item === 'string');
  if (missing.length > 0) throw new UsageError(`missing connection settings: ${missing.join(', ')}`);
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
  values: ConnectionValues,
  io: CliIO,
  reporter: Reporter,
): Promise<string | undefined> {
  let client: VerificationClient;
  try {
    client = connect(values, io, reporter);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  await client.close();
  return undefined;
}
