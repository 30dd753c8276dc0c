/**
 * Deterministic correlation ids for the households of a CSV, so a rerun finds the groups an
 * earlier (crashed, killed, partly failed) run created instead of creating and inviting again.
 */
import { createHash } from 'node:crypto';

/** Prefix of every correlation id the command line creates, so they are recognisable in lists. */
export const CORRELATION_PREFIX = 'cli-';

/** What a household's correlation id is derived from. */
export interface HouseholdIdentity {
  /** `--batch-id`, or `''` when none was given. */
  batchId: string;
  /** The `household_key` column. */
  householdKey: string;
  /** The applicants' emails (order and case do not matter). */
  emails: readonly string[];
  /** Monthly rent in whole dollars. */
  monthlyRent: number;
}

/**
 * The correlation id of one household: `cli-` and 16 hex digits (64 bits) of SHA-256 over the
 * batch id, the household key, the applicants' emails (lower-cased, sorted) and the rent.
 *
 * Not the file's name: `jan/building7.csv` and `feb/building7.csv` reusing a household key for a
 * new applicant are different households and must not find each other's group. The same
 * household (same people, same rent) gets the same id from any file, directory or file name, so
 * a moved or renamed file never invites anyone twice. Editing a household between runs changes
 * its id; the journal remembers the earlier id, and a group found under it is reported as a
 * conflict rather than created again. `--batch-id` starts a fresh namespace (a new application
 * round for the same people).
 */
export function correlationIdFor(identity: HouseholdIdentity): string {
  const emails = [...new Set(identity.emails.map((email) => email.trim().toLowerCase()))].sort();
  // A separator that cannot occur in any part keeps ("ab", "c") and ("a", "bc") apart.
  const material = [
    'v2',
    identity.batchId,
    identity.householdKey,
    emails.join('\u0001'),
    String(identity.monthlyRent),
  ].join('\u0000');
  const digest = createHash('sha256').update(material).digest('hex');
  return `${CORRELATION_PREFIX}${digest.slice(0, 16)}`;
}
