/**
 * Request accounting, so tests can assert things like "exactly one auth request" or "the create
 * was sent once". Every request the mock receives is counted, faulted ones included.
 */

/** One received request. */
export interface RequestLogEntry {
  /** Route key, e.g. `POST /api/v1/tenants/auth` or `GET /api/v1/reports/:id`. */
  route: string;
  method: string;
  /** Path and query as received. */
  url: string;
  /** Whether an Authorization header was present. */
  authorized: boolean;
  /** Mock clock time, epoch ms. */
  at: number;
}

/** Counts of requests per route. */
export interface RequestStats {
  /** Requests received for `route` (a route key such as `GET /api/v1/applicant_groups`), or in total. */
  count(route?: string): number;
  /** Counts per route key. */
  routes(): Record<string, number>;
  /** Every request received, in order (copies). */
  log(): RequestLogEntry[];
  /** Forgets everything counted so far. */
  reset(): void;
}

/** Stats with the recording hook used by the request pipeline. */
export interface RecordingStats extends RequestStats {
  /** Records one request. */
  record(entry: RequestLogEntry): void;
}

/** Creates empty stats. */
export function createStats(): RecordingStats {
  const entries: RequestLogEntry[] = [];
  return {
    count: (route) => (route ? entries.filter((entry) => entry.route === route).length : entries.length),
    routes() {
      const counts: Record<string, number> = {};
      for (const entry of entries) counts[entry.route] = (counts[entry.route] ?? 0) + 1;
      return counts;
    },
    log: () => entries.map((entry) => ({ ...entry })),
    reset() {
      entries.length = 0;
    },
    record(entry) {
      entries.push({ ...entry });
    },
  };
}
