/** The base of every resource class: it holds the HTTP core and nothing else. */
import type { CreateRecovery, LookupOptions, UnresolvedCreate } from '../core/create-recovery.js';
import { GroupMayHaveBeenCreatedError } from '../core/errors.js';
import type { HttpCore } from '../core/http.js';

/** A family of API calls sharing the client's HTTP core. */
export abstract class APIResource {
  /** @internal */
  protected readonly core: HttpCore;

  /** @internal Resources are built by the client. */
  constructor(core: HttpCore) {
    this.core = core;
  }
}

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
