/**
 * The errors of group creates and lookups: a create whose outcome stayed unknown, an id no group
 * has. The core's own {@link RequestOutcomeUnknownError} is the generic form of the first.
 */
import { RequestOutcomeUnknownError, VerificationError } from '../core/errors.js';

/**
 * A create failed in a way that leaves it unknown whether the server created the group (and sent
 * invitations). The SDK did not resend, to avoid duplicate emails. With a `correlationId` it
 * looked the group up for the whole grace window without finding it: look it up again later
 * (`createOnce` with the same body returns it if it appeared, and creates it only if it is still
 * absent).
 */
export class GroupMayHaveBeenCreatedError extends RequestOutcomeUnknownError {
  override name = 'GroupMayHaveBeenCreatedError';
  /** The `correlation_id` sent with the create, if any. */
  readonly correlationId: string | undefined;

  /**
   * @param cause The ambiguous failure (timeout, reset, 5xx, unreadable body) that stopped the create.
   * @param what Names the call and how it went ("POST /path on host, 3 attempts, 1.2 s"); defaults to the path.
   * @param searched How the SDK looked for the group, e.g. "it did not appear within the 30 s grace window".
   */
  constructor(
    path: string,
    correlationId: string | undefined,
    cause: unknown,
    what?: string,
    searched?: string,
  ) {
    super(
      path,
      cause,
      `${what ?? `The create request to ${path}`} failed after it may have reached the server, so the group may have been created and invitations sent; it was not resent. ${
        correlationId
          ? `Looked up by correlation_id "${correlationId}": ${searched ?? 'not found'}. Later, call createOnce with the same body: it returns the group if it appeared and creates it only if it is still absent.`
          : 'Pass a correlation_id on creates so the SDK can look the group up instead.'
      }`,
    );
    this.correlationId = correlationId;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), correlationId: this.correlationId };
  }
}

/**
 * `applicantGroups.waitForCompletion` was given an id that no group has. Not an HTTP error: the
 * API has no retrieve-by-id call, and no request answered 404; the lists simply hold no such group.
 */
export class GroupNotFoundError extends VerificationError {
  override name = 'GroupNotFoundError';
  /** The id that was looked for. */
  readonly groupId: string;

  /** @param groupId The id no group has. */
  constructor(groupId: string) {
    super(`No applicant group has the id "${groupId}" (searched the applicant group lists).`);
    this.groupId = groupId;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), groupId: this.groupId };
  }
}
