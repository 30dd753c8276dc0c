/**
 * The client a command talks through: base URL and credentials from flags or the same
 * `VERIFICATION_*` variables the SDK reads, SDK log lines routed above the progress display.
 */
import { VerificationClient } from '../client.js';
import { isLogLevel, type Logger, type LogLevel } from '../core/log.js';
import { ConfigurationError } from '../core/options.js';
import { numberOption } from './args.js';
import { UsageError } from './errors.js';
import type { CliIO } from './io.js';
import type { Reporter } from './progress.js';

/** The parsed common options a client is built from. */
export interface ConnectionValues {
  'base-url'?: string | undefined;
  'client-id'?: string | undefined;
  'secret-key'?: string | undefined;
  timeout?: string | undefined;
  'max-retries'?: string | undefined;
  verbose?: boolean | undefined;
}

/** Retries per request in batch runs: more than the SDK's default 2, since a rerun costs a person's time. */
export const DEFAULT_CLI_MAX_RETRIES = 4;

function logLevel(values: ConnectionValues, io: CliIO): LogLevel {
  if (values.verbose) return 'info';
  const fromEnv = io.env.VERIFICATION_LOG;
  // Retry warnings would interleave with the progress display on every transient fault; the
  // command reports what finally failed itself. `VERIFICATION_LOG` or --verbose brings them back.
  return isLogLevel(fromEnv) ? fromEnv : 'error';
}

/**
 * Builds the client. A missing or wrong base URL or credential is a usage error (exit 2), with
 * the SDK's message naming the flag's variable; the secret key itself is never printed.
 */
export function connect(values: ConnectionValues, io: CliIO, reporter: Reporter): VerificationClient {
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
  const logger: Logger = {
    debug: (message) => reporter.error(message),
    info: (message) => reporter.error(message),
    warn: (message) => reporter.error(message),
    error: (message) => reporter.error(message),
  };
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
      logLevel: logLevel(values, io),
      logger,
    });
  } catch (error) {
    if (error instanceof ConfigurationError) throw new UsageError(error.message);
    throw error;
  }
}
