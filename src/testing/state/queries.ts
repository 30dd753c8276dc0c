/**
 * List queries: filters and pagination of the two list endpoints (docs/wire-contract.md §4.1, §4.5).
 *
 * Order: creation order, oldest first. The service does not document its order; oldest first is
 * the one order that stays stable while creates continue, so walking pages during creates neither
 * skips nor repeats a group (new groups only ever land on the last page).
 */

import type { FieldError } from '../server/responses.js';
import { pageOfUnion } from './group-index.js';
import {
  type ApplicantGroupRecord,
  groupStatus,
  type MockStore,
  type Progress,
  type ScreeningGroupRecord,
} from './store.js';

/** The filters of an applicant-group list query, parsed. */
interface GroupFilters {
  after: number | undefined;
  before: number | undefined;
  search: string;
  statuses: string[];
  correlationId: string | null;
}

const PROGRESS: readonly Progress[] = ['not_started', 'in_progress', 'completed'];

/** Page size of the screening-group list (docs/wire-contract.md §4.5, §8). */
export const SCREENING_PAGE_SIZE = 25;

/** One page of matching records and the number of all matching records. */
export interface PageResult<T> {
  items: T[];
  totalCount: number;
}

/** A query result or the invalid parameters. */
export type QueryResult<T> = { ok: true; page: PageResult<T> } | { ok: false; fields: FieldError[] };

function parsePage(query: URLSearchParams, fields: FieldError[]): number {
  const raw = query.get('page');
  if (raw === null || raw === '') return 1;
  const page = Number(raw);
  if (!Number.isInteger(page) || page < 1) {
    fields.push({ field: 'page', message: 'page must be an integer of 1 or more' });
    return 1;
  }
  return page;
}

function parseUnixSeconds(query: URLSearchParams, name: string, fields: FieldError[]): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) {
    fields.push({ field: name, message: `${name} must be a Unix timestamp in seconds` });
    return undefined;
  }
  return value;
}

function paginate<T>(items: T[], page: number, size: number): PageResult<T> {
  return { items: items.slice((page - 1) * size, page * size), totalCount: items.length };
}

function searchText(group: ApplicantGroupRecord): string {
  const { property } = group;
  const parts = [
    group.decisionMakerDisplayName,
    property.name,
    property.streetAddress,
    property.city,
    property.state,
    property.zipCode,
    ...group.applicants.flatMap((a) => [a.firstName, a.lastName, `${a.firstName} ${a.lastName}`, a.email]),
  ];
  return parts.join('\n').toLowerCase();
}

/**
 * GET /api/v1/applicant_groups: `search` (case-insensitive substring of applicant names and
 * emails, property name and address, decision maker name), `statuses` (comma-separated, repeated keys merged),
 * `correlation_id` (exact), `created_after` / `created_before` (Unix seconds, exclusive), `page`.
 */
export function queryApplicantGroups(
  store: MockStore,
  query: URLSearchParams,
  pageSize: number,
  account: string,
): QueryResult<ApplicantGroupRecord> {
  const fields: FieldError[] = [];
  const page = parsePage(query, fields);
  const after = parseUnixSeconds(query, 'created_after', fields);
  const before = parseUnixSeconds(query, 'created_before', fields);
  if (fields.length > 0) return { ok: false, fields };

  const search = query.get('search')?.trim().toLowerCase() ?? '';
  // Repeated keys (`statuses=a&statuses=b`, what form-exploded clients send) are merged with the
  // comma form (`statuses=a,b`): both mean "any of these".
  const statuses = query
    .getAll('statuses')
    .flatMap((value) => value.split(','))
    .map((status) => status.trim())
    .filter((status) => status.length > 0);
  const correlationId = query.get('correlation_id');

  const filters: GroupFilters = { after, before, search, statuses, correlationId };
  const offset = (page - 1) * pageSize;
  const groups = store.applicantGroupsOf(account);
  // The indexes answer unless a substring search, a list lag or a clock set backwards needs every
  // group looked at (docs/mock-server.md, "Scale").
  if (search === '' && groups.createdInOrder && !store.hasListLag())
    return { ok: true, page: indexedPage(store, account, filters, offset, pageSize) };
  const matching = groups.groups.filter((group) => store.isListed(group.id) && matches(group, filters));
  return { ok: true, page: paginate(matching, page, pageSize) };
}

function matches(group: ApplicantGroupRecord, filters: GroupFilters): boolean {
  const { after, before, correlationId, statuses, search } = filters;
  const seconds = group.createdAt / 1000;
  if (after !== undefined && !(seconds > after)) return false;
  if (before !== undefined && !(seconds < before)) return false;
  if (correlationId !== null && correlationId !== '' && group.correlationId !== correlationId) return false;
  if (statuses.length > 0 && !statuses.includes(groupStatus(group.applicants))) return false;
  if (search && !searchText(group).includes(search)) return false;
  return true;
}

// One page from the indexes: the creation-time filters bound a range of sequence numbers, the
// correlation id or the statuses pick the lists within it.
function indexedPage(
  store: MockStore,
  account: string,
  filters: GroupFilters,
  offset: number,
  size: number,
): PageResult<ApplicantGroupRecord> {
  const groups = store.applicantGroupsOf(account);
  const low = filters.after === undefined ? 0 : groups.firstCreatedAfter(filters.after);
  const high = filters.before === undefined ? groups.groups.length : groups.firstCreatedFrom(filters.before);
  let lists: (readonly number[])[];
  if (filters.correlationId !== null && filters.correlationId !== '') {
    // A correlation id names a few groups: the status filter looks at each.
    const under = groups.underCorrelation(filters.correlationId);
    lists = [
      filters.statuses.length === 0
        ? under
        : under.filter((sequence) =>
            filters.statuses.includes(groupStatus(groups.groups[sequence]!.applicants)),
          ),
    ];
  } else if (filters.statuses.length > 0) {
    lists = PROGRESS.filter((status) => filters.statuses.includes(status)).map((status) =>
      groups.withStatus(status),
    );
  } else {
    const total = Math.max(0, high - low);
    const from = Math.min(high, low + offset);
    return { items: groups.groups.slice(from, Math.min(high, from + size)), totalCount: total };
  }
  const { sequences, total } = pageOfUnion(lists, low, Math.max(low, high), offset, size);
  return { items: sequences.map((sequence) => groups.groups[sequence]!), totalCount: total };
}

/** GET /api/v1/screening_groups: `page` only, 25 a page. */
export function queryScreeningGroups(
  store: MockStore,
  query: URLSearchParams,
  account: string,
): QueryResult<ScreeningGroupRecord> {
  const fields: FieldError[] = [];
  const page = parsePage(query, fields);
  if (fields.length > 0) return { ok: false, fields };
  const groups = store.screeningGroupsOf(account);
  if (!store.hasListLag()) {
    const from = Math.min(groups.length, (page - 1) * SCREENING_PAGE_SIZE);
    return {
      ok: true,
      page: { items: groups.slice(from, from + SCREENING_PAGE_SIZE), totalCount: groups.length },
    };
  }
  const listed = groups.filter((group) => store.isListed(group.id));
  return { ok: true, page: paginate(listed, page, SCREENING_PAGE_SIZE) };
}
