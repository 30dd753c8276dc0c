/**
 * Request accounting, so tests can assert things like "exactly one auth request" or "the create
 * was sent once". Every request the mock receives is counted, faulted ones included.
 */

/** One received request. */
export interface RequestLogEntry {
  /** Route key, e.g. `POST /api/v1/tenants/auth` or `GET /api/v1/reports/:id`. */
  route: string;
  /** HTTP method, upper case. */
  method: string;
  /** Path and query as received. */
  url: string;
  /** Whether an Authorization header was present. */
  authorized: boolean;
  /**
   * Client id of the account the request named: its bearer token's subject, or the `client_id` of
   * an auth request. Read before the token is checked, so a refused token's claim shows too;
   * absent when the request named none.
   */
  account?: string;
  /**
   * The request's `x-mock-tag` header, when it has one: a label a test
   * sets (a client's `defaultHeaders`, say, naming the account it meant) to find its requests in
   * the log. The mock gives it no meaning.
   */
  tag?: string;
  /** Mock clock time, epoch ms. */
  at: number;
}

/** Header whose value the request log keeps as {@link RequestLogEntry.tag}. */
export const MOCK_TAG_HEADER = 'x-mock-tag';

/** Counts of requests per route. */
export interface RequestStats {
  /** Requests received for `route` (a route key such as `GET /api/v1/applicant_groups`), or in total. */
  count(route?: string): number;
  /** Counts per route key. */
  routes(): Record<string, number>;
  /** Requests received, in order (copies): the latest 10 000 or more. */
  log(): RequestLogEntry[];
  /** Forgets everything counted so far. */
  reset(): void;
}

/** Stats with the recording hook used by the request pipeline. */
export interface RecordingStats extends RequestStats {
  /** Records one request. */
  record(entry: RequestLogEntry): void;
}

/** How many log entries are kept; counts stay exact beyond it. */
export const REQUEST_LOG_LIMIT = 10_000;

/** Creates empty stats. */
export function createStats(): RecordingStats {
  // Counts are kept apart from the log so a long-running mock (the bin under a benchmark)
  // keeps exact counts in constant memory while the log holds only the latest entries.
  const counts = new Map<string, number>();
  let total = 0;
  let entries: RequestLogEntry[] = [];
  return {
    count: (route) => (route ? (counts.get(route) ?? 0) : total),
    routes: () => Object.fromEntries(counts),
    log: () => entries.map((entry) => ({ ...entry })),
    reset() {
      counts.clear();
      total = 0;
      entries = [];
    },
    record(entry) {
      counts.set(entry.route, (counts.get(entry.route) ?? 0) + 1);
      total += 1;
      entries.push({ ...entry });
      if (entries.length > REQUEST_LOG_LIMIT * 2) entries = entries.slice(-REQUEST_LOG_LIMIT);
    },
  };
}
