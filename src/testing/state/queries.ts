/**
 * List queries: filters and pagination of the two list endpoints (docs/wire-contract.md §4.1, §4.5).
 *
 * Order: creation order, oldest first. The service does not document its order; oldest first is
 * the one order that stays stable while creates continue, so walking pages during creates neither
 * skips nor repeats a group (new groups only ever land on the last page).
 */
import type { FieldError } from '../server/responses.js';
import {
  type ApplicantGroupRecord,
  groupStatus,
  type MockStore,
  type ScreeningGroupRecord,
} from './store.js';

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

  const matching = store.applicantGroups.filter((group) => {
    // The caller's account's groups only: another account's are never listed.
    if (group.account !== account || !store.isListed(group.id)) return false;
    const seconds = group.createdAt / 1000;
    if (after !== undefined && !(seconds > after)) return false;
    if (before !== undefined && !(seconds < before)) return false;
    if (correlationId !== null && correlationId !== '' && group.correlationId !== correlationId) return false;
    if (statuses.length > 0 && !statuses.includes(groupStatus(group.applicants))) return false;
    if (search && !searchText(group).includes(search)) return false;
    return true;
  });
  return { ok: true, page: paginate(matching, page, pageSize) };
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
  const listed = store.screeningGroups.filter(
    (group) => group.account === account && store.isListed(group.id),
  );
  return { ok: true, page: paginate(listed, page, SCREENING_PAGE_SIZE) };
}
