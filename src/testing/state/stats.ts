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

/** Route key of the token exchange, whose requests {@link RequestCounts.tokenExchanges} counts. */
export const TOKEN_EXCHANGE_ROUTE = 'POST /api/v1/tenants/auth';

/** Exact counts of requests (kept beyond the log's limit). */
export interface RequestCounts {
  /** Requests received. */
  total: number;
  /** Requests per route key (`GET /api/v1/reports/:id`, ...). */
  routes: Record<string, number>;
  /** Token exchanges: requests to `POST /api/v1/tenants/auth`, refused ones included. */
  tokenExchanges: number;
}

/**
 * Every count at once: the totals, and the same per account. A request's account is the client id
 * it named ({@link RequestLogEntry.account}); requests naming none count in the totals only. The
 * control API's `GET /__mock/stats` answers this object as JSON.
 */
export interface RequestStatsSummary extends RequestCounts {
  /** Per client id, the requests that named it. */
  accounts: Record<string, RequestCounts>;
}

/** Counts of requests per route. */
export interface RequestStats {
  /**
   * Requests received for `route` (a route key such as `GET /api/v1/applicant_groups`), or in
   * total; with `{ account }`, only the requests that named that client id.
   */
  count(route?: string, filter?: { account?: string | undefined }): number;
  /** Every count: totals, per route, token exchanges, and the same per account. */
  summary(): RequestStatsSummary;
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
  let all = emptyCounts();
  let perAccount = new Map<string, RequestCounts>();
  let entries: RequestLogEntry[] = [];
  const countsOf = (account: string | undefined): RequestCounts | undefined =>
    account === undefined ? all : perAccount.get(account);
  return {
    count: (route, filter) => {
      const counts = countsOf(filter?.account);
      if (counts === undefined) return 0;
      return route ? (counts.routes[route] ?? 0) : counts.total;
    },
    summary: () => ({
      ...copyCounts(all),
      accounts: Object.fromEntries([...perAccount].map(([account, counts]) => [account, copyCounts(counts)])),
    }),
    routes: () => ({ ...all.routes }),
    log: () => entries.map((entry) => ({ ...entry })),
    reset() {
      all = emptyCounts();
      perAccount = new Map();
      entries = [];
    },
    record(entry) {
      add(all, entry.route);
      if (entry.account !== undefined) {
        let counts = perAccount.get(entry.account);
        if (counts === undefined) {
          counts = emptyCounts();
          perAccount.set(entry.account, counts);
        }
        add(counts, entry.route);
      }
      entries.push({ ...entry });
      if (entries.length > REQUEST_LOG_LIMIT * 2) entries = entries.slice(-REQUEST_LOG_LIMIT);
    },
  };
}

function emptyCounts(): RequestCounts {
  // No prototype: a route key is never mistaken for an inherited property.
  return { total: 0, routes: Object.create(null) as Record<string, number>, tokenExchanges: 0 };
}

function add(counts: RequestCounts, route: string): void {
  counts.total += 1;
  counts.routes[route] = (counts.routes[route] ?? 0) + 1;
  if (route === TOKEN_EXCHANGE_ROUTE) counts.tokenExchanges += 1;
}

function copyCounts(counts: RequestCounts): RequestCounts {
  return { total: counts.total, routes: { ...counts.routes }, tokenExchanges: counts.tokenExchanges };
}
