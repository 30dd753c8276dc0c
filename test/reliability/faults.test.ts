/**
 * The fault-injection suite: for each fault, a batch of 200 creates at concurrency 16 ends with
 * exactly one group and one invitation set per body, and without correlation ids nothing is
 * lost silently.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ApplicantGroupCreateParams,
  GroupMayHaveBeenCreatedError,
  VerificationClient,
} from '../../src/index.js';
import { createMockServer, type Fault, type MockServer } from '../../src/testing/index.js';
import { exposeError } from '../support/exposure.js';

const BATCH = 200;
const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' } as const;

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ seed: 5, pageSize: 50 });
});
afterAll(async () => {
  await mock.close();
});

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

function client(timeout = 2_000) {
  return new VerificationClient({
    baseURL: mock.url,
    clientId: mock.clientId,
    secretKey: mock.secretKey,
    logLevel: 'off',
    maxRetries: 6,
    timeout,
  });
}

/** Groups on the server whose applicant email belongs to `run`, keyed by body index. */
function serverGroupsOf(run: string) {
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

interface Scenario {
  name: string;
  fault?: Fault;
  count?: number;
  timeout?: number;
  /** Expires every token halfway through the batch. */
  expireTokenMidway?: boolean;
}

const scenarios: Scenario[] = [
  { name: 'reset before processing', fault: { reset: 'before' } },
  { name: 'reset after processing', fault: { reset: 'after' } },
  { name: 'timeout after processing', fault: { delayAfterMs: 1_500 }, timeout: 400 },
  { name: '500', fault: { status: 500 } },
  { name: '502', fault: { status: 502 } },
  { name: '503 + Retry-After', fault: { status: 503, retryAfter: 0 } },
  { name: '429 + Retry-After', fault: { status: 429, retryAfter: 0 } },
  { name: 'malformed JSON', fault: { malformedJson: true } },
  { name: 'truncated body', fault: { truncated: true } },
  { name: 'expired token mid-batch', expireTokenMidway: true },
];

beforeEach(() => {
  mock.faults.clear();
});

describe.each(scenarios)('fault: $name', (scenario) => {
  it('200 creates with correlation_ids: exactly 200 groups and 200 invitation sets', async () => {
    const run = `with-${scenario.name.replace(/\W+/g, '-')}`;
    if (scenario.fault) mock.faults.next(scenario.count ?? 24, scenario.fault, CREATE);
    const sdk = client(scenario.timeout);
    const results = await sdk.applicantGroups.createMany(bodies(run, true), {
      concurrency: 16,
      onProgress: ({ done }) => {
        if (scenario.expireTokenMidway && done === BATCH / 2) mock.clock.advance(31 * 60_000);
      },
    });
    await sdk.close();
    const failures = results.filter((result) => !result.ok);
    expect(failures).toEqual([]);
    const onServer = serverGroupsOf(run);
    expect(onServer.size).toBe(BATCH);
    for (const [index, ids] of onServer) {
      expect(ids, `body ${index} has one group`).toHaveLength(1);
      const result = results[index];
      expect(result?.ok && result.value.id).toBe(ids[0]);
      expect(mock.outbox.forGroup(ids[0] ?? '')).toHaveLength(1);
    }
    const correlationIds = mock.groups
      .applicant()
      .map((group) => group.correlation_id)
      .filter((id): id is string => typeof id === 'string' && id.startsWith(run));
    expect(new Set(correlationIds).size).toBe(BATCH);
    expect(correlationIds).toHaveLength(BATCH);
    expect(mock.faults.pending()).toEqual([]);
  });

  it('200 creates without correlation_ids: every outcome reported, nothing created silently', async () => {
    const run = `without-${scenario.name.replace(/\W+/g, '-')}`;
    if (scenario.fault) mock.faults.next(scenario.count ?? 24, scenario.fault, CREATE);
    const sdk = client(scenario.timeout);
    const results = await sdk.applicantGroups.createMany(bodies(run, false), {
      concurrency: 16,
      onProgress: ({ done }) => {
        if (scenario.expireTokenMidway && done === BATCH / 2) mock.clock.advance(31 * 60_000);
      },
    });
    await sdk.close();
    for (const result of results) {
      if (result.ok) continue;
      expect(result.error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
      exposeError(result.error);
    }
    const onServer = serverGroupsOf(run);
    for (const [index, ids] of onServer) {
      // Never a second group for one body: the SDK did not resend after an ambiguous failure.
      expect(ids, `body ${index}`).toHaveLength(1);
      const result = results[index];
      if (result?.ok) expect(result.value.id).toBe(ids[0]);
      else expect(result?.ok).toBe(false);
    }
    // Every body that returned a group has it on the server.
    for (const result of results) if (result.ok) expect(onServer.has(result.index)).toBe(true);
    const ambiguous = [
      'reset after processing',
      'timeout after processing',
      'malformed JSON',
      'truncated body',
    ];
    if (ambiguous.includes(scenario.name)) expect(results.some((result) => !result.ok)).toBe(true);
    if (['503 + Retry-After', '429 + Retry-After', 'expired token mid-batch'].includes(scenario.name)) {
      expect(results.every((result) => result.ok)).toBe(true);
    }
  });
});
