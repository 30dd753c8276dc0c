/**
 * Deterministic correlation ids for rows of a CSV, so a rerun of the same file finds the groups a
 * crashed or killed run already created instead of creating (and inviting) them again.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';

/** Prefix of every correlation id the command line creates, so they are recognisable in lists. */
export const CORRELATION_PREFIX = 'cli-';

/**
 * The correlation id of one household: `cli-` and 16 hex digits of
 * SHA-256(namespace, household key).
 *
 * Derived from names, not from the row contents: fixing a typo in an applicant's name and
 * rerunning must still find the group created before the fix, not create a second one. The
 * namespace is the file's base name (so `households.csv` gives the same ids from any directory)
 * unless the caller names the batch explicitly. 64 bits keep collisions out of reach even for
 * millions of households.
 */
export function correlationIdFor(namespace: string, householdKey: string): string {
  // A separator that cannot occur in either part keeps ("ab", "c") and ("a", "bc") apart.
  const digest = createHash('sha256').update(`${namespace}\u0000${householdKey}`).digest('hex');
  return `${CORRELATION_PREFIX}${digest.slice(0, 16)}`;
}

/** The namespace of a file's correlation ids: `--batch-id` when given, else the file's base name. */
export function batchNamespace(csvPath: string, batchId: string | undefined): string {
  return batchId ?? basename(csvPath);
}
