/**
 * Deterministic correlation ids for the households of a CSV, so a rerun finds the groups an
 * earlier (crashed, killed, partly failed) run created instead of creating and inviting again,
 * and a script's creates and the command line's find each other. The scheme is a contract
 * (docs/households.md, "Correlation ids"): changing it would make every rerun of an earlier batch
 * invite its applicants again.
 */
import { createHash } from 'node:crypto';

/**
 * Prefix of every household correlation id (`parseHouseholds` and the command line alike), so
 * they are recognisable in lists. `cli-` because the command line had the scheme first.
 */
export const CORRELATION_PREFIX = 'cli-';

/** What a household's correlation id is derived from. */
export interface HouseholdIdentity {
  /** The `batchId` option (`--batch-id`), or `''` when none was given. */
  batchId: string;
  /** The `household_key` column. */
  householdKey: string;
  /** The applicants' emails (order and case do not matter). */
  emails: readonly string[];
  /** The household's monthly rent in dollars, as read from the CSV (`2450` for "$2,450.00"). */
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
