/**
 * `applicantGroups.findDuplicates`: the reconcile pass behind docs/fault-model.md, "A duplicate was
 * reported". It walks every group created in a period, page by page, and lists each household
 * (correlation id and the same applicants, rent and unit) with more than one live group: the net
 * for duplicates whose discoverer died before it could report them. An expired group never
 * counts, so a re-invitation (a new group beside an expired one) is not a duplicate.
 *
 * Memory: the pages are not kept; per live group with a correlation id it holds the id, the
 * creation time, the status and the household's fingerprint (its emails, rent and unit).
 */
import type { RequestOptions } from '../core/call/call.js';
import { RequestValidationError } from '../core/errors.js';
import type { PagePromise } from '../core/results/pagination.js';
import type { ApplicantGroup, ApplicantGroupListParams } from '../schemas/applicant-groups.js';
import { createdAtMs } from './group-lookup.js';

/** The period `findDuplicates` looks at: groups created in it. */
export interface FindDuplicatesParams {
  /** Only groups created after this time: a `Date`, or Unix seconds (as `list` takes). Default: none. */
  createdAfter?: Date | number | undefined;
  /** Only groups created before this time: a `Date`, or Unix seconds. Default: none. */
  createdBefore?: Date | number | undefined;
}

/** One live group of a household that has more than one. */
export interface DuplicateGroup {
  /** The group's id. */
  readonly id: string;
  /** When it was created, ISO 8601 (`undefined` when the API gave no creation time). */
  readonly createdAt: string | undefined;
  /** Its status as listed (`not_started`, `in_progress`, `completed`, ...). */
  readonly status: ApplicantGroup['status'];
}

/** A household with more than one live group: a duplicate (docs/fault-model.md). */
export interface DuplicateHousehold {
  /** The household's correlation id. */
  readonly correlationId: string;
  /**
   * Its live groups, newest first: the first is the one `createOnce` returns from now on; the
   * others are the duplicates (their applicants were invited more than once).
   */
  readonly groups: readonly DuplicateGroup[];
}

type ListGroups = (params: ApplicantGroupListParams, options?: RequestOptions) => PagePromise<ApplicantGroup>;

interface Seen {
  readonly fingerprint: string;
  readonly group: DuplicateGroup;
  readonly at: number;
}

/** Unix seconds below this are seconds; above, the caller almost certainly passed milliseconds. */
const MAX_SECONDS = 100_000_000_000;

function checkedTime(name: keyof FindDuplicatesParams, value: unknown): Date | number | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Date && Number.isFinite(value.getTime())) return value;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value < MAX_SECONDS) return value;
  throw new RequestValidationError(
    [
      {
        path: name,
        message: `${name} must be a valid Date or Unix seconds (not milliseconds)`,
        code: 'invalid_type',
      },
    ],
    'Invalid findDuplicates params',
  );
}

/** The household a group is, as `createOnce`'s comparator reads it: its emails, rent and unit. */
function fingerprintOf(group: ApplicantGroup): string {
  const emails = group.applicants.map((applicant) => applicant.email.toLowerCase()).sort();
  return JSON.stringify([emails, group.monthly_rent_cents, group.unit_number ?? '']);
}

/** See the module comment; the method's documentation is on `ApplicantGroups.findDuplicates`. */
export async function findDuplicates(
  list: ListGroups,
  params: FindDuplicatesParams = {},
  options?: RequestOptions,
): Promise<DuplicateHousehold[]> {
  if (params === null || typeof params !== 'object')
    throw new RequestValidationError(
      [{ path: '', message: 'findDuplicates takes { createdAfter, createdBefore }', code: 'invalid_type' }],
      'Invalid findDuplicates params',
    );
  const after = checkedTime('createdAfter', params.createdAfter);
  const before = checkedTime('createdBefore', params.createdBefore);
  const query: ApplicantGroupListParams = {};
  if (after !== undefined) query.created_after = after;
  if (before !== undefined) query.created_before = before;
  const live = new Map<string, Seen[]>();
  for await (const group of list(query, options)) {
    const correlationId = group.correlation_id;
    if (!correlationId || group.is_expired) continue;
    const at = createdAtMs(group);
    const seen: Seen = {
      fingerprint: fingerprintOf(group),
      at: at ?? Number.NEGATIVE_INFINITY,
      group: {
        id: group.id,
        createdAt: at === undefined ? undefined : new Date(at).toISOString(),
        status: group.status,
      },
    };
    const under = live.get(correlationId);
    if (under) under.push(seen);
    else live.set(correlationId, [seen]);
  }
  const found: DuplicateHousehold[] = [];
  for (const [correlationId, seen] of live) {
    if (seen.length < 2) continue;
    // Groups of other households under a reused id are conflicts, not duplicates.
    const households = new Map<string, Seen[]>();
    for (const one of seen) {
      const same = households.get(one.fingerprint);
      if (same) same.push(one);
      else households.set(one.fingerprint, [one]);
    }
    for (const groups of households.values()) {
      if (groups.length < 2) continue;
      groups.sort((a, b) => b.at - a.at || (a.group.id < b.group.id ? -1 : 1));
      found.push({ correlationId, groups: groups.map((one) => one.group) });
    }
  }
  return found.sort((a, b) =>
    a.correlationId < b.correlationId ? -1 : a.correlationId > b.correlationId ? 1 : 0,
  );
}
