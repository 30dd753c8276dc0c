/**
 * Finding "this household's" group under a correlation id. A correlation id may name several
 * groups over time (callers reuse unit and property ids), so a lookup walks every page and keeps
 * only the groups {@link householdDifferences} accepts; after a failed create, only those created
 * since the call began (less an allowance), on the API's clock: the lookup's own response says
 * what time the API has (its `Date` header), and the time since the call began is measured on this
 * machine's clock, so the two clocks need not agree. The newest wins.
 */
import type { RequestOptions } from '../core/call/call.js';
import type { PagePromise } from '../core/results/pagination.js';
import { toDate } from '../helpers/dates.js';
import type { ApplicantGroup, ApplicantGroupListParams } from '../schemas/applicant-groups.js';
import { type HouseholdBody, householdDifferences, isSameHousehold } from './household-match.js';
import type { LookupOptions } from './recovery.js';

/**
 * How much earlier than the call began (as the lookup places it on the API's clock) a group may be
 * stamped and still count as the call's (ms): the `Date` header's whole seconds, the time the
 * response took, and, when the API sends no `Date`, how far the two clocks may disagree. Five
 * minutes.
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

/** Every group under `correlationId` (all pages). */
export async function groupsUnder(
  list: ListGroups,
  correlationId: string,
  options: RequestOptions,
): Promise<ApplicantGroup[]> {
  const params: ApplicantGroupListParams = { correlation_id: correlationId };
  const found: ApplicantGroup[] = [];
  for await (const group of list(params, options))
    if (group.correlation_id === correlationId) found.push(group);
  return found;
}

/** What a recovery lookup tells when it finds several live groups of the household. */
export type SeveralGroupsFound = (chosen: ApplicantGroup, others: readonly ApplicantGroup[]) => void;

/** The API's clock from a response's `Date` header (epoch ms), `undefined` when absent or unreadable. */
export function serverTimeOf(headers: Readonly<Record<string, string>>): number | undefined {
  const text = headers.date;
  if (text === undefined) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) && at > 0 ? at : undefined;
}

/**
 * The lookup a create recovers with: the newest group under `correlationId` that is this
 * household and was created since the call began, less {@link CLOCK_SKEW_ALLOWANCE_MS}. "Since
 * the call began" is placed on the API's clock: the lookup response's `Date` less the time elapsed
 * since `startedAt` on `now` (this machine's clock, which only has to measure the elapsed time),
 * so a machine whose clock runs minutes ahead of the API's still finds its group. Without a `Date`
 * header, `startedAt` itself. A group without a creation time never matches.
 * When more than one live (unexpired) group of the household shows, `onSeveral` is told (a
 * writer off the gate created it too: a duplicate).
 */
export function recoveryLookup(
  list: ListGroups,
  correlationId: string,
  body: HouseholdBody,
  startedAt: number,
  now: () => number,
  onSeveral?: SeveralGroupsFound,
): (options: LookupOptions) => Promise<ApplicantGroup | undefined> {
  return async (options) => {
    // One attempt per lookup: a failed one is simply tried again at the recovery's next poll.
    // No created_after: the bound is known only once the API's answer says what time it has.
    const { data: first, response } = await list(
      { correlation_id: correlationId },
      { ...options, maxRetries: 0 },
    ).withResponse();
    const serverNow = serverTimeOf(response.headers);
    const began = serverNow === undefined ? startedAt : serverNow - Math.max(0, now() - startedAt);
    const since = began - CLOCK_SKEW_ALLOWANCE_MS;
    const found: ApplicantGroup[] = [];
    for await (const group of first.iterate()) {
      const at = createdAtMs(group);
      if (
        group.correlation_id === correlationId &&
        at !== undefined &&
        at >= since &&
        isSameHousehold(householdDifferences(group, body))
      ) {
        found.push(group);
      }
    }
    const chosen = newestGroup(found);
    if (chosen && onSeveral) {
      const others = found.filter((group) => group !== chosen && !group.is_expired);
      if (others.length > 0 && !chosen.is_expired) onSeveral(chosen, others);
    }
    return chosen;
  };
}
