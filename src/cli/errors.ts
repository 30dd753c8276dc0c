/**
 * How a run ends: the command line's own errors, the exit codes scripts rely on, the errors that
 * stop a whole batch, and how any error is shown to a person.
 */
import { APIError, AuthenticationError, PermissionDeniedError } from 'applicant-verification';
import { maskText, shownValue } from '../internal.js';

/** Every item was done (created, already there, exported, ...). */
export const EXIT_OK = 0;
/** Some rows or items failed (bad rows, API errors, a create whose fate is still unknown). Rerun after fixing. */
export const EXIT_FAILED = 1;
/** The command line was wrong: unknown command or option, bad value, missing file or configuration. */
export const EXIT_USAGE = 2;
/** A group found by a row's correlation id holds other applicants or another rent than the row. */
export const EXIT_CONFLICT = 3;
/** Another run holds the batch's lock: nothing was done. */
export const EXIT_LOCKED = 4;
/** The API refused the credentials: nothing was sent, no results or journal were written. */
export const EXIT_AUTH = 5;
/**
 * The command line's local state (a journal line, the state folder) is damaged or belongs to
 * another server: nothing was sent, and the message names the file and the repair.
 */
export const EXIT_STATE = 6;
/**
 * `groups duplicates` found households with more than one live group (docs/fault-model.md, "A
 * duplicate was reported"): the listing is on stdout.
 */
export const EXIT_DUPLICATES = 7;
/** Stopped by Ctrl-C (SIGINT): 128 + 2, the shell convention. */
export const EXIT_SIGINT = 130;
/** Stopped by SIGTERM: 128 + 15, the shell convention. */
export const EXIT_SIGTERM = 143;

/** The exit code of a run stopped by `signal`. */
export function exitCodeForSignal(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? EXIT_SIGINT : EXIT_SIGTERM;
}

/** The command line is wrong (exit code 2): the message says what to change. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Local state that cannot be trusted as it is (exit code 6): the message names the file and the repair. */
export class StateError extends Error {
  override name = 'StateError';
}

/** Another run holds the lock of this batch (exit code 4). */
export class LockedError extends Error {
  override name = 'LockedError';
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

/** What a person reads when the API refuses the credentials. */
export const AUTH_FAILED_MESSAGE =
  'authentication failed: check VERIFICATION_CLIENT_ID / secret (VERIFICATION_SECRET_KEY, or --client-id / --secret-key, or the --profile / VERIFICATION_PROFILE used)';

/** Whether `error` is the API refusing the credentials. */
export function isAuthFailure(error: unknown): error is AuthenticationError {
  return error instanceof AuthenticationError;
}

/** Whether `error` dooms every other item of a batch too: wrong credentials, a missing permission. */
export function isFatal(error: unknown): boolean {
  return error instanceof AuthenticationError || error instanceof PermissionDeniedError;
}

/**
 * The stop signal of one batch: the run's own (SIGINT/SIGTERM) or the first fatal error. 300
 * token requests with a bad secret key look like an attack to the service: the first is enough.
 */
export class BatchStop {
  readonly #fatal = new AbortController();
  /** Aborted by the run's signal or by the first fatal error; pass it to `mapSettled`. */
  readonly signal: AbortSignal;

  constructor(runSignal: AbortSignal) {
    this.signal = AbortSignal.any([runSignal, this.#fatal.signal]);
  }

  /** The fatal error that stopped the batch, if one did. */
  get fatalError(): unknown {
    return this.#fatal.signal.aborted ? this.#fatal.signal.reason : undefined;
  }

  /** Runs `task`; a fatal failure stops the batch before it is rethrown. */
  async guard<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      if (isFatal(error) && !this.#fatal.signal.aborted) this.#fatal.abort(error);
      throw error;
    }
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

// The value a field path of the server's (`applicants[0].email`, `applicants.0.email`) names in
// the body sent, so the line shows what was refused.
function sentValue(sent: object | undefined, field: string): string | undefined {
  if (sent === undefined) return undefined;
  let value: unknown = sent;
  for (const part of field.split(/[.[\]]+/).filter((item) => item !== '')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = Reflect.get(value, part);
  }
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const leaf = field.split(/[.[\]]+/).findLast((item) => item !== '') ?? '';
  const kind = leaf === 'email' ? 'email' : leaf.includes('phone') ? 'phone' : undefined;
  return shownValue(String(value), kind);
}

function fieldText(entry: unknown, sent?: object): string | undefined {
  if (typeof entry === 'string') return entry;
  if (typeof entry !== 'object' || entry === null) return undefined;
  const field = 'field' in entry && typeof entry.field === 'string' ? entry.field : undefined;
  const message = 'message' in entry && typeof entry.message === 'string' ? entry.message : undefined;
  const value = field === undefined ? undefined : sentValue(sent, field);
  const shown = value === undefined ? '' : `; sent ${value}`;
  if (field && message) return `${message.startsWith(field) ? message : `${field}: ${message}`}${shown}`;
  return message ?? (field === undefined ? undefined : `${field}${shown}`);
}

/**
 * The server's per-field complaints of a refused request (`body.fields` of an {@link APIError}:
 * a list of `{ field, message }` or an object of field to message), as `a: x; b: y`, each followed
 * by the value `sent` held there (`; sent "j***@example.com"`, emails and phones masked); `''` when
 * there are none.
 */
export function serverFields(error: unknown, sent?: object): string {
  if (!(error instanceof APIError)) return '';
  const body = error.body;
  if (typeof body !== 'object' || body === null || !('fields' in body)) return '';
  const fields: unknown = body.fields;
  const entries = Array.isArray(fields)
    ? fields.map((entry) => fieldText(entry, sent))
    : typeof fields === 'object' && fields !== null
      ? Object.entries(fields).map(([field, message]) =>
          fieldText({ field, message: Array.isArray(message) ? message.join(', ') : message }, sent),
        )
      : [];
  return maskText(entries.filter((entry) => entry !== undefined).join('; '));
}

/** {@link describeError}, followed by the server's field errors when it named any, with the values `sent`. */
export function describeRowError(error: unknown, sent?: object): string {
  const text = describeError(error);
  const fields = serverFields(error, sent);
  return fields === '' || text.includes(fields) ? text : `${text} (fields: ${fields})`;
}
