/** The error of a `createOnce` whose correlation id already names another household. */
import { VerificationError } from '../core/errors.js';
import type { ApplicantGroup } from '../schemas/applicant-groups.js';
import { describeDifferences, type HouseholdDifference } from './household-match.js';

/**
 * `applicantGroups.createOnce` found, under its correlation id, a group of another household (other
 * applicants, rent or unit), or a concurrent call with that id was creating a different household.
 * Nothing was sent. The correlation id names one household: give this one its own id, or fix the
 * body if the existing group is right.
 *
 * The applicants' contact details stay out of the message, `toJSON()` and `util.inspect`; the
 * existing group is on {@link CorrelationConflictError.existing} (not enumerable, so a logger's
 * error serializer skips it).
 */
export class CorrelationConflictError extends VerificationError {
  override name = 'CorrelationConflictError';
  /** The correlation id both households claim. */
  readonly correlationId: string;
  /**
   * The group already under the correlation id (the newest one), or `undefined` when the conflict
   * is with a concurrent call that had not created its group yet.
   */
  declare readonly existing: ApplicantGroup | undefined;
  /** How the existing group (or the concurrent call's body) differs from this call's body. */
  readonly differences: readonly HouseholdDifference[];

  /**
   * @param correlationId The correlation id both households claim.
   * @param existing The group under it, if one exists.
   * @param differences How it differs from this call's body.
   */
  constructor(
    correlationId: string,
    existing: ApplicantGroup | undefined,
    differences: readonly HouseholdDifference[],
  ) {
    super(
      `correlation_id "${correlationId}" already names another household (${
        existing ? `group ${existing.id}` : 'a concurrent createOnce with a different body'
      }: ${describeDifferences(differences) || 'a different body'}); nothing was sent. A correlation id names one household: give this one its own.`,
    );
    this.correlationId = correlationId;
    Object.defineProperty(this, 'existing', { value: existing, enumerable: false });
    this.differences = differences;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      correlationId: this.correlationId,
      existingGroupId: this.existing?.id,
      differences: this.differences,
    };
  }
}
