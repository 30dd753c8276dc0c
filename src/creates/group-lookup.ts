/**
 * Finding "this household's" group under a correlation id. A correlation id may name several
 * groups over time (callers reuse unit and property ids), so a lookup walks every page and keeps
 * only the groups {@link householdDifferences} accepts; after a failed create, only those created
 * since the call began (less a clock-skew allowance). The newest wins.
 */
import type { RequestOptions } from '../core/call/call.js';
import type { PagePromise } from '../core/results/pagination.js';
import { toDate } from '../helpers/dates.js';
import type { ApplicantGroup, ApplicantGroupListParams } from '../schemas/applicant-groups.js';
import { type HouseholdBody, householdDifferences, isSameHousehold } from './household-match.js';
import type { LookupOptions } from './recovery.js';

/**
 * How far the API's clock may run behind this process's (ms): a group created up to this long
 * "before" the call began still counts as the call's. Five minutes.
 */
export const CLOCK_SKEW_ALLOWANCE_MS = 5 * 60_000;

type ListGroups = (params: ApplicantGroupListParams, options: RequestOptions) => PagePromise<ApplicantGroup>;

/** When the group was created (epoch ms), or `undefined` when it carries no usable creation time. */
export function createdAtMs(group: Pick<ApplicantGroup, 'created_at_timestamp'>): number | undefined {
  const stamp: unknown = group.created_at_timestamp;
  if (typeof stamp !== 'number' || !Number.isFinite(stamp) || stamp <= 0) return undefined;
  return toDate(stamp).getTime();
}

/** The newest of `groups` by creation time (a group without one counts as oldest). */
export function newestGroup(groups: readonly ApplicantGroup[]): ApplicantGroup | undefined {
  let newest: ApplicantGroup | undefined;
  let newestAt = Number.NEGATIVE_INFINITY;
  for (const group of groups) {
    const at = createdAtMs(group) ?? Number.NEGATIVE_INFINITY;
    if (newest === undefined || at >= newestAt) {
      newest = group;
      newestAt = at;
    }
  }
  return newest;
}

/** Every group under `correlationId` (all pages), created after `since` (epoch ms) when given. */
export async function groupsUnder(
  list: ListGroups,
  correlationId: string,
  options: RequestOptions,
  since?: number,
): Promise<ApplicantGroup[]> {
  const params: ApplicantGroupListParams = { correlation_id: correlationId };
  // created_after is exclusive and in whole seconds: one second earlier keeps the boundary.
  if (since !== undefined) params.created_after = Math.max(0, Math.floor(since / 1000) - 1);
  const found: ApplicantGroup[] = [];
  for await (const group of list(params, options))
    if (group.correlation_id === correlationId) found.push(group);
  return found;
}

/** What a recovery lookup tells when it finds several live groups of the household. */
export type SeveralGroupsFound = (chosen: ApplicantGroup, others: readonly ApplicantGroup[]) => void;

/**
 * The lookup a create recovers with: the newest group under `correlationId` that is this
 * household and was created at or after `startedAt - CLOCK_SKEW_ALLOWANCE_MS`. A group without a
 * creation time never matches. When more than one live (unexpired) group of the household shows
 * in that window, `onSeveral` is told (a writer off the gate created it too: a duplicate).
 */
export function recoveryLookup(
  list: ListGroups,
  correlationId: string,
  body: HouseholdBody,
  startedAt: number,
  onSeveral?: SeveralGroupsFound,
): (options: LookupOptions) => Promise<ApplicantGroup | undefined> {
  const since = startedAt - CLOCK_SKEW_ALLOWANCE_MS;
  return async (options) => {
    // One attempt per lookup: a failed one is simply tried again at the recovery's next poll.
    const groups = await groupsUnder(list, correlationId, { ...options, maxRetries: 0 }, since);
    const household = groups.filter((group) => {
      const at = createdAtMs(group);
      return at !== undefined && at >= since && isSameHousehold(householdDifferences(group, body));
    });
    const chosen = newestGroup(household);
    if (chosen && onSeveral) {
      const others = household.filter((group) => group !== chosen && !group.is_expired);
      if (others.length > 0 && !chosen.is_expired) onSeveral(chosen, others);
    }
    return chosen;
  };
}
