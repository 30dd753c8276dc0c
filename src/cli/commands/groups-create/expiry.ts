/**
 * Expired groups and duplicates as `groups create` reads them (docs/fault-model.md, "Expired
 * groups and re-invitations"): of the groups listed under a household's correlation id, its live
 * one is the household's; with none live, its newest expired one, which the run reports as
 * `expired` (never as "already existed") and invites again only with `--reinvite-expired`. More
 * than one live group is a duplicate; an expired group beside a live one is not.
 */
import type { ApplicantGroup, CreateOnceResult } from 'applicant-verification';

/** What these helpers read of a group: whether it expired, and when it was created. */
export type ExpiryFacts = Pick<ApplicantGroup, 'is_expired' | 'created_at_timestamp'>;

/** The group a lookup resolves a household to: the first live one listed, else the newest expired. */
export function householdGroup<G extends ExpiryFacts>(groups: readonly G[]): G | undefined {
  const live = groups.find((group) => !group.is_expired);
  if (live) return live;
  let newest: G | undefined;
  for (const group of groups) {
    if (newest === undefined || group.created_at_timestamp > newest.created_at_timestamp) newest = group;
  }
  return newest;
}

/** The live groups among `groups`: more than one is a household created twice. */
export function liveGroups<G extends ExpiryFacts>(groups: readonly G[]): G[] {
  return groups.filter((group) => !group.is_expired);
}

/**
 * The results log's `possible_duplicate` cell: the household's other live groups the reports
 * named; `lease_lost_after_send` when the create's lease was lost in flight and no other group
 * showed yet (`groups duplicates` finds it later); empty without a report.
 */
export function possibleDuplicateCell(once: Pick<CreateOnceResult, 'duplicates'>): string {
  const reports = once.duplicates ?? [];
  const others = new Set<string>();
  for (const report of reports) for (const id of report.otherGroupIds) others.add(id);
  if (others.size > 0) return [...others].join(' ');
  return reports.length > 0 ? 'lease_lost_after_send' : '';
}

/** The note `groups create` prints when households have only expired groups and no flag was given. */
export function expiredNote(count: number): string {
  return `${count} household(s) have only expired groups (not completed within 14 days): they were not invited again and do not count as already existing. Rerun with --reinvite-expired to create a new group for each (a re-invitation: their applicants are emailed again; the results log's reinvitation_of names the expired group).`;
}
