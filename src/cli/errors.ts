/** Errors of the command line itself, and how any error is shown to a person. */
import { maskText } from '../core/redact.js';

/** The command line is wrong (exit code 2): the message says what to change. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The run was stopped by a signal before this item could start or finish. */
export class InterruptedError extends Error {
  override name = 'InterruptedError';
  /** The signal that stopped the run. */
  readonly signal: NodeJS.Signals;

  constructor(signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
    this.signal = signal;
  }
}

/**
 * One line describing `error`, safe to print or write to a log: applicants' emails and phone
 * numbers are masked and tokens removed (SDK errors are masked already; anything else may not be).
 */
export function describeError(error: unknown): string {
  // The class names the kind of failure (BadRequestError, APIConnectionTimeoutError...): keep it.
  const message =
    error instanceof Error
      ? error.name && error.name !== 'Error'
        ? `${error.name}: ${error.message}`
        : error.message
      : String(error);
  return maskText(message.replace(/\s+/g, ' ').trim());
}
