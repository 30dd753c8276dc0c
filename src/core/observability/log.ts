/**
 * A leveled logger. Every line goes through redaction first, so no call site can leak a token,
 * a secret key or an applicant's contact details by accident.
 */
import { capText, maskText, redact } from './redact.js';

/** Where log lines go: `console` fits, and so do pino or winston loggers. */
export interface Logger {
  /** Per-request detail: method, path, status, attempt, duration, request id. */
  debug(message: string, data?: Record<string, unknown>): void;
  /** Notable events such as a token refresh. */
  info(message: string, data?: Record<string, unknown>): void;
  /** Something recovered or ignored: a retry, a response that failed validation in `warn` mode. */
  warn(message: string, data?: Record<string, unknown>): void;
  /** Something failed. */
  error(message: string, data?: Record<string, unknown>): void;
}

/** How much to log; `debug` is the most. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/** Whether `value` names a log level. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

const consoleSink: Logger = {
  debug: (message, data) => console.debug(message, ...(data ? [data] : [])),
  info: (message, data) => console.info(message, ...(data ? [data] : [])),
  warn: (message, data) => console.warn(message, ...(data ? [data] : [])),
  error: (message, data) => console.error(message, ...(data ? [data] : [])),
};

/** A level below the client's: one shared function, not one per client (platforms hold thousands). */
const dropLine = (): void => {};

/** Removes the client's own secrets (key, tokens) from a line; identity when none are known. */
export interface SecretScrubber {
  /** `text` without any known secret. */
  scrub(text: string): string;
  /** A deep copy of `value` without any known secret. */
  scrubDeep(value: unknown): unknown;
}

/**
 * Wraps `sink` so that only lines at or above `level` pass, each one capped, redacted and
 * scrubbed of the client's own secrets (a server may echo them into a message we repeat).
 * `account` (a derived client's client id, never a secret) is added to every line's data.
 */
export function createLogger(
  level: LogLevel,
  sink: Logger = consoleSink,
  secrets?: SecretScrubber,
  account?: { clientId: string },
): Logger & { level: LogLevel; debugEnabled: boolean } {
  const rank = LOG_LEVELS.indexOf(level);
  const write = (at: Exclude<LogLevel, 'off'>) => {
    if (LOG_LEVELS.indexOf(at) > rank) return dropLine;
    return (message: string, given?: Record<string, unknown>) => {
      const data = account === undefined ? given : Object.assign({}, account, given);
      const text = capText(secrets ? secrets.scrub(message) : message);
      const safeMessage = `[applicant-verification] ${maskText(text)}`;
      if (data === undefined) sink[at](safeMessage);
      else sink[at](safeMessage, redact(secrets ? secrets.scrubDeep(data) : data) as Record<string, unknown>);
    };
  };
  return {
    level,
    debugEnabled: level === 'debug',
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };
}
