/**
 * Shared by the fault-injection suite (three files, so that vitest runs them side by side): the
 * mock, the scenarios and the checks. For each fault, a batch of 200 creates at concurrency 16 against the
 * mock. With correlation ids, every body ends as exactly one group and one invitation set, and
 * every call returned its group or threw GroupMayHaveBeenCreatedError naming its correlation_id.
 *
 * Time is scaled down so the suite runs in seconds: attempt timeouts of 250 ms to 1 s, a commit
 * held 200 ms past a 1 s timeout (long enough that only the held creates time out, even on a
 * loaded machine), a list that lags 200 ms (2 s at the suite's tenth), and the SDK's
 * own waits (backoff, 429 pause, grace-window polls) run at a tenth of their length through the
 * client's clock. The grace window itself is measured in real time.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { realSleep } from '../../src/core/clock.js';
import {
  type ApplicantGroup,
  type ApplicantGroupCreateParams,
  GroupMayHaveBeenCreatedError,
  type Settled,
} from '../../src/index.js';
import { createMockServer, type Fault, type FaultMatch, type MockServer } from '../../src/testing/index.js';
import { exposeError } from '../support/exposure.js';
import { capturingLogger } from '../support/http-server.js';
import { clientFor } from '../support/mock-client.js';

export const BATCH = 200;
export const CREATE: FaultMatch = { method: 'POST', path: '/api/v1/applicant_groups' };
export const AUTH: FaultMatch = { method: 'POST', path: '/api/v1/tenants/auth' };
const fastClock = {
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal | null) => realSleep(ms / 10, signal),
};

export let mock: MockServer;

/**
 * Gives the calling test file its own mock for its scenarios. Called by each file, not at import:
 * the suite shares a module cache between files (`isolate: false`), so hooks registered at import
 * would belong to whichever file imported this module first.
 */
export function useFaultMock(): void {
  beforeAll(async () => {
    mock = await createMockServer({ seed: 5, pageSize: 50 });
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.faults.clear();
  });
}

function bodies(run: string, withCorrelationIds: boolean): ApplicantGroupCreateParams[] {
  return Array.from({ length: BATCH }, (_, i) => ({
    applicants: [{ first_name: 'Test', last_name: `Applicant ${i}`, email: `${run}-${i}@example.com` }],
    property: {
      name: 'Fault Towers',
      street_address: '1 Main St',
      city: 'Springfield',
      state: 'Illinois',
      zip_code: '62701',
    },
    decision_maker_display_name: 'Fault Towers LLC',
    monthly_rent: 1500,
    ...(withCorrelationIds ? { correlation_id: `${run}-${i}` } : {}),
  }));
}

/**
 * A fetch that loses the answer of the first `count` creates after the server committed them,
 * as a connection dropped on the way back would (the mock's list-lag fault and a lost answer are
 * two faults on one request, which the mock's one-fault-per-request queue cannot express).
 */
function fetchLosingCreateAnswers(count: number): typeof fetch {
  let left = count;
  return async (input, init) => {
    const response = await globalThis.fetch(input, init);
    if (init?.method === 'POST' && String(input).endsWith('/api/v1/applicant_groups') && left > 0) {
      left--;
      await response.arrayBuffer();
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      });
    }
    return response;
  };
}

export interface Scenario {
  name: string;
  faults: Array<[number, Fault, FaultMatch]>;
  timeout?: number;
  maxConcurrency?: number;
  graceWindow?: number;
  fetch?: () => typeof fetch;
  /** Expires every token halfway through the batch. */
  expireTokenMidway?: boolean;
  /** Without correlation ids a resend after this fault may duplicate (the server lied about not processing). */
  trustsTheServer?: boolean;
  /** Nothing ambiguous can happen: every call must succeed, with or without correlation ids. */
  allSucceed?: boolean;
  /** Most creates the fault can leave in doubt (without correlation ids); none when absent. */
  inDoubt?: number;
  /** A warn line the fault must cause: proves the batch met the fault it is named after. */
  logs?: RegExp;
}

/** Faults after which the group exists: every body must end as exactly one group. */
export const committed: Scenario[] = [
  {
    name: 'commit after the client timeout',
    faults: [[24, { commitDelayMs: 1_200 }, CREATE]],
    timeout: 1_000,
    inDoubt: 24,
  },
  {
    name: 'list lag of 200 ms, answers lost',
    faults: [[BATCH, { listLagMs: 200 }, CREATE]],
    fetch: () => fetchLosingCreateAnswers(24),
    graceWindow: 5_000,
    inDoubt: 24,
  },
  {
    name: 'commit then 503',
    faults: [[24, { status: 503, afterCommit: true, retryAfter: 1 }, CREATE]],
    inDoubt: 24,
  },
  {
    name: 'commit then 429',
    faults: [[24, { status: 429, afterCommit: true, retryAfter: 0 }, CREATE]],
    trustsTheServer: true,
  },
  {
    name: 'commit then 401',
    faults: [[24, { status: 401, afterCommit: true }, CREATE]],
    trustsTheServer: true,
  },
  { name: 'reset after commit', faults: [[24, { reset: 'after' }, CREATE]], inDoubt: 24 },
  { name: 'truncated body', faults: [[24, { truncated: true }, CREATE]], inDoubt: 24 },
  { name: 'malformed JSON', faults: [[24, { malformedJson: true }, CREATE]], inDoubt: 24 },
  {
    name: 'pre-send token failure',
    faults: [
      [4, { status: 500 }, AUTH],
      [3, { reset: 'before' }, AUTH],
    ],
    expireTokenMidway: true,
    allSucceed: true,
    logs: /could not get an access token, so nothing was sent/,
  },
  {
    name: 'queue timeout',
    faults: [[16, { latencyMs: 60 }, CREATE]],
    timeout: 250,
    maxConcurrency: 2,
    // Queued past its time: in the limiter's queue, or (at the very edge) before dispatch.
    logs: /timed out after .*nothing was sent/,
    // A create sent in the last moments of its time may time out after sending: a handful.
    inDoubt: 50,
  },
  { name: 'expired token mid-batch', faults: [], expireTokenMidway: true, allSucceed: true },
];

/** Faults after which nothing was created: a create with a correlation id ends after the grace window. */
export const unprocessed: Scenario[] = [
  { name: 'reset before processing', faults: [[24, { reset: 'before' }, CREATE]], graceWindow: 150 },
  { name: '500 before processing', faults: [[24, { status: 500 }, CREATE]], graceWindow: 150 },
  { name: '502 before processing', faults: [[24, { status: 502 }, CREATE]], graceWindow: 150 },
];

function client(scenario: Scenario, logger: ReturnType<typeof capturingLogger>['logger']) {
  return clientFor(mock, {
    logger,
    logLevel: 'warn',
    maxRetries: 6,
    timeout: scenario.timeout ?? 2_000,
    maxConcurrency: scenario.maxConcurrency,
    createGraceWindow: scenario.graceWindow ?? 5_000,
    fetch: scenario.fetch?.(),
    clock: fastClock,
  });
}

export async function runBatch(scenario: Scenario, run: string, withCorrelationIds: boolean) {
  for (const [count, fault, match] of scenario.faults) mock.faults.next(count, fault, match);
  const { logger, lines } = capturingLogger();
  const sdk = client(scenario, logger);
  const results = await sdk.applicantGroups.createMany(bodies(run, withCorrelationIds), {
    concurrency: 16,
    onProgress: ({ done }) => {
      if (scenario.expireTokenMidway && done === BATCH / 2) mock.clock.advance(31 * 60_000);
    },
  });
  await sdk.close();
  for (const result of results) if (!result.ok) exposeError(result.error);
  if (scenario.logs) expect(lines.some((line) => scenario.logs?.test(line))).toBe(true);
  return results;
}

/**
 * An older group under each of the run's correlation ids, for other applicants, created an hour
 * before the batch (the mock's clock is set back for them, then restored): the ids are reused, as
 * unit ids are. Returns their ids by body index.
 */
export async function seedFormerGroups(run: string): Promise<Map<number, string>> {
  const resume = mock.clock.now();
  mock.clock.set(Date.now() - 3_600_000);
  const sdk = clientFor(mock);
  try {
    const former = bodies(run, true).map((body, i) => ({
      ...body,
      applicants: [
        { first_name: 'Former', last_name: `Tenant ${i}`, email: `former-${run}-${i}@example.com` },
      ],
    }));
    const results = await sdk.applicantGroups.createMany(former, { concurrency: 16 });
    return new Map(results.map((result) => [result.index, result.ok ? result.value.id : '']));
  } finally {
    await sdk.close();
    mock.clock.set(resume);
  }
}

/** Each older group still holds its former tenant, with its one invitation set. */
export function expectFormerGroupsUntouched(run: string, former: Map<number, string>): void {
  const groups = new Map(mock.groups.applicant().map((group) => [group.id, group]));
  expect(former.size).toBe(BATCH);
  for (const [index, id] of former) {
    expect(groups.get(id)?.applicants.map((applicant) => applicant.email)).toEqual([
      `former-${run}-${index}@example.com`,
    ]);
    expect(mock.outbox.forGroup(id)).toHaveLength(1);
  }
}

/** Groups on the server whose applicant email belongs to `run`, keyed by body index. */
export function serverGroupsOf(run: string) {
  const byIndex = new Map<number, string[]>();
  for (const group of mock.groups.applicant()) {
    const email = group.applicants[0]?.email ?? '';
    const match = new RegExp(`^${run}-(\\d+)@example\\.com$`).exec(email);
    if (!match) continue;
    const index = Number(match[1]);
    byIndex.set(index, [...(byIndex.get(index) ?? []), group.id]);
  }
  return byIndex;
}

/** Every failure is GroupMayHaveBeenCreatedError naming its own body's correlation id. */
export function expectFailuresNameTheirCorrelationIds(run: string, results: Settled<ApplicantGroup>[]) {
  for (const result of results) {
    if (result.ok) continue;
    expect(result.error, String(result.error)).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    const error = result.error as GroupMayHaveBeenCreatedError;
    expect(error.correlationId).toBe(`${run}-${result.index}`);
    expect(error.message).toContain(`${run}-${result.index}`);
  }
}

export const slug = (name: string) => name.replace(/\W+/g, '-');
