/**
 * The unresolved rule: what a create whose outcome stayed unknown throws. A group create says a
 * group (and its invitations) may exist, and how it was looked for; a raw POST says only that the
 * server may have acted on it (the caller knows what it was for).
 */
import { RequestOutcomeUnknownError } from '../core/errors.js';
import { GroupMayHaveBeenCreatedError } from './errors.js';
import type { CreateRecovery, LookupOptions, UnresolvedCreate } from './recovery.js';

/**
 * How a group create recovers from an ambiguous failure: by `lookup` when the caller gave a
 * correlation id, else not at all; an outcome that stays unknown is a GroupMayHaveBeenCreatedError.
 */
export function groupCreateRecovery<T>(
  correlationId: string | undefined,
  lookup?: (options: LookupOptions) => Promise<T | undefined>,
): CreateRecovery<T> {
  return { correlationId, lookup, unresolved: groupMayHaveBeenCreated };
}

/** How a raw POST recovers: by the caller's `lookup`, if any; else it reports the outcome unknown. */
export function rawRecovery<T>(lookup: (() => Promise<T | undefined>) | undefined): CreateRecovery<T> {
  return { correlationId: undefined, lookup: lookup && (() => lookup()), unresolved: outcomeUnknown };
}

/** The error of a POST whose outcome stayed unknown: a group (and its invitations) may exist. */
function groupMayHaveBeenCreated(failure: UnresolvedCreate): GroupMayHaveBeenCreatedError {
  return new GroupMayHaveBeenCreatedError(
    failure.path,
    failure.correlationId,
    failure.cause,
    failure.what,
    failure.searched,
  );
}

/**
 * A raw request is not a create: whatever its path, an ambiguous failure says only that the
 * request may have reached the server (the caller knows what it was for).
 */
function outcomeUnknown(failure: UnresolvedCreate): RequestOutcomeUnknownError {
  const looked = failure.searched ? ` Looked up with your lookup: ${failure.searched}.` : '';
  return new RequestOutcomeUnknownError(
    failure.path,
    failure.cause,
    `${failure.what} failed after it may have reached the server, so the server may have acted on it; it was not resent.${looked} Pass a lookup to find its result, or idempotent: true when a resend is harmless.`,
  );
}
