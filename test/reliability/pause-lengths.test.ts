/**
 * A holder paused at each named point of the create protocol, for each length up to past the
 * unresolved rule's 10 minutes (docs/fault-model.md, "Process paused"). In process, on the mock's
 * clock: two clients ("processes") share one `InProcessCoordination` on the mock's time. Holder A
 * runs `createOnce` and is held at its point (a wrapped coordination method, or its create held
 * on the wire before the server commits it) while the mock's clock moves on by the pause; holder
 * B runs `createOnce` on the same household meanwhile; then A resumes, and B runs once more.
 *
 * The SDK measures an attempt's time on this machine's monotonic clock, not the mock's: a real
 * pause of minutes uses up A's attempt. A is given a short attempt timeout and is held a little
 * longer than that in real time, so its resumed attempt finds its time used up, as a real paused
 * process would.
 *
 * In flight, A's create is held between A and the mock (A's `fetch`, which forwards its requests to
 * the mock over loopback) rather than by the mock's `commitDelayMs` fault, which waits in real time:
 * the test says when the server commits, before or after B's call, whatever the mock's clock reads.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionTimeoutError,
  CreateLeaseLostError,
  type CreateOnceResult,
  GroupMayHaveBeenCreatedError,
  InProcessCoordination,
  type VerificationClient,
} from '../../src/index.js';
import { createMockServer, createTestClock, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { around } from '../support/coordination.js';
import { clientFor } from '../support/mock-client.js';

const CREATE = 'POST /api/v1/applicant_groups';
const GROUPS_PATH = '/api/v1/applicant_groups';
/** A's attempt timeout (real ms): the pause (held a little longer, in real time) uses it up. */
const A_TIMEOUT_MS = 100;
/** A's origin: its requests are forwarded to the mock by its `fetch` (its own origin keeps its createOnce apart from B's). */
const A_ORIGIN = 'http://process-a.test';
const MINUTE = 60_000;

/** Where A is held. */
type Point = 'after-lookup' | 'after-unresolved' | 'in-flight' | 'in-flight, committed late';

/** The pause lengths, from A's lease (ms). */
const LENGTHS: { name: string; ms: (leaseMs: number) => number }[] = [
  { name: 'lease + 1 s', ms: (lease) => lease + 1_000 },
  { name: '5 min', ms: () => 5 * MINUTE },
  { name: '9 min 59 s', ms: () => 10 * MINUTE - 1_000 },
  { name: '10 min 1 s', ms: () => 10 * MINUTE + 1_000 },
  { name: '60 min', ms: () => 60 * MINUTE },
];

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** A call's result or error. */
type Settled = { ok: true; value: CreateOnceResult } | { ok: false; error: unknown };

function settle(promise: Promise<CreateOnceResult>): Promise<Settled> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

function errorOf(settled: Settled): unknown {
  return settled.ok ? undefined : settled.error;
}

function resultOf(settled: Settled): CreateOnceResult {
  if (!settled.ok) throw new Error(`expected a result, got ${String(settled.error)}`);
  return settled.value;
}

/** One cell's mock, its coordination and its clients (cells run concurrently, each on its own mock clock). */
interface Cell {
  mock: MockServer;
  base: InProcessCoordination;
  clients: VerificationClient[];
}

async function openCell(): Promise<Cell> {
  const mock = await createMockServer();
  return { mock, base: new InProcessCoordination(() => mock.clock.now()), clients: [] };
}

async function closeCell({ mock, clients }: Cell): Promise<void> {
  for (const client of clients) await client.close();
  await mock.close();
}

// Concurrent: each cell waits out A's attempt in real time (a little over A_TIMEOUT_MS).
describe.concurrent('a holder paused at each point of the protocol, for each length', () => {
  /**
   * Process A, held at `point`: `paused` resolves when it is held there, `resume` lets it go on;
   * in flight, its create is held on the wire until `commit`, sent to the mock then (`committed`),
   * and its answer reaches A only once it resumes.
   */
  function processA({ mock, base, clients }: Cell, point: Point) {
    const paused = deferred();
    const resume = deferred();
    const commit = deferred();
    const committed = deferred();
    let leaseMs = 0;
    let held = false;
    const holdOnce = async () => {
      if (held) return;
      held = true;
      paused.resolve();
      await resume.promise;
    };
    const coordination = around(base, {
      acquireCreateLease: async (clientId, correlationId, ttlMs) => {
        leaseMs = ttlMs;
        return base.acquireCreateLease(clientId, correlationId, ttlMs);
      },
      renewCreateLease: async (lease, ttlMs) => {
        if (point === 'after-lookup') await holdOnce();
        return base.renewCreateLease(lease, ttlMs);
      },
      recordCreateOutcome: async (lease, outcome) => {
        const recorded = await base.recordCreateOutcome(lease, outcome);
        if (point === 'after-unresolved' && outcome.state === 'unresolved') await holdOnce();
        return recorded;
      },
    });
    const inFlight = point === 'in-flight' || point === 'in-flight, committed late';
    const forward: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      const target = `${mock.url}${url.pathname}${url.search}`;
      if (!inFlight || held || init?.method !== 'POST' || url.pathname !== GROUPS_PATH)
        return fetch(target, init);
      held = true;
      paused.resolve();
      await commit.promise;
      // The server commits it whatever A's timer says: A is stopped, its abort never leaves.
      const response = await fetch(target, { ...init, signal: null });
      await response.arrayBuffer().then((bytes) => {
        committed.resolve();
        return bytes;
      });
      await resume.promise;
      // Resumed: its attempt's timer has fired meanwhile.
      if (init.signal?.aborted) throw init.signal.reason;
      throw new Error('the pause was meant to outlast the attempt');
    };
    const sdk = clientFor(mock, {
      baseURL: A_ORIGIN,
      allowInsecureHttp: true,
      fetch: forward,
      clock: createTestClock(mock.clock),
      coordination,
      timeout: A_TIMEOUT_MS,
    });
    clients.push(sdk);
    return { sdk, paused, resume, commit, committed, leaseMs: () => leaseMs };
  }

  function processB({ mock, base, clients }: Cell): VerificationClient {
    const sdk = clientFor(mock, { clock: createTestClock(mock.clock), coordination: base });
    clients.push(sdk);
    return sdk;
  }

  /** Runs one cell: A held at `point` for `length`, B meanwhile, A resumed, B again. */
  async function cell(point: Point, length: (leaseMs: number) => number, household: string) {
    const opened = await openCell();
    try {
      return await runCell(opened, point, length, household);
    } finally {
      await closeCell(opened);
    }
  }

  async function runCell(opened: Cell, point: Point, length: (leaseMs: number) => number, household: string) {
    const { mock } = opened;
    const a = processA(opened, point);
    const b = processB(opened);
    const body = groupCreateBody('ana@example.com', household);
    // A's token first, with time to spare: its short timeout is for the create.
    await a.sdk.applicantGroups.list({ correlation_id: household }, { timeout: 5_000 });
    const aCall = settle(a.sdk.applicantGroups.createOnce(body));
    // A call that ends before reaching its point (a loaded machine timing out its lookup) says so.
    const endedFirst = await Promise.race([a.paused.promise.then(() => undefined), aCall]);
    if (endedFirst !== undefined)
      throw new Error(`A ended before its pause at ${point}: ${String(errorOf(endedFirst))}`);
    // The create reached the server, which commits it at once (A still stopped).
    if (point === 'in-flight') {
      a.commit.resolve();
      await a.committed.promise;
    }
    // The pause, on both clocks: past A's attempt in real time, `length` on the mock's.
    await delay(A_TIMEOUT_MS + 30);
    mock.clock.advance(length(a.leaseMs()));
    const during = await settle(b.applicantGroups.createOnce(body));
    if (point === 'in-flight, committed late') {
      // The server commits it a second after B's call.
      mock.clock.advance(1_000);
      a.commit.resolve();
      await a.committed.promise;
    }
    a.resume.resolve();
    const resumed = await aCall;
    const after = await settle(b.applicantGroups.createOnce(body));
    return {
      during,
      resumed,
      after,
      groups: mock.groups.applicant(),
      posts: mock.stats.count(CREATE),
      recorded: await opened.base.readCreateOutcome(mock.clientId, household),
      listed: await b.applicantGroups.findDuplicates(),
      leaseMs: a.leaseMs(),
    };
  }

  it("A's lease, which 'lease + 1 s' is measured from, ends within the first minutes", async () => {
    const { leaseMs } = await cell('after-lookup', (lease) => lease + 1_000, 'LEASE');
    // lease + 1 s is the one length below 5 minutes: the others all outlast the lease too.
    expect(leaseMs).toBeGreaterThan(60_000);
    expect(leaseMs + 1_000).toBeLessThan(5 * MINUTE);
  });

  describe.each(LENGTHS)('paused $name', ({ name, ms }) => {
    const past10 = ms(0) > 10 * MINUTE;

    it('after its lookup, before its first write: B creates, A stops unsent', async () => {
      const { during, resumed, after, groups, posts, recorded, listed } = await cell(
        'after-lookup',
        ms,
        `LOOKUP-${name}`,
      );
      expect(groups).toHaveLength(1);
      expect(resultOf(during)).toMatchObject({ created: true, group: { id: groups[0]?.id } });
      expect(errorOf(resumed)).toBeInstanceOf(CreateLeaseLostError);
      expect(errorOf(resumed)).toMatchObject({ reason: 'superseded', requestSent: false });
      expect(resultOf(after)).toMatchObject({ created: false, via: 'gate', group: { id: groups[0]?.id } });
      expect(resultOf(during).duplicates).toBeUndefined();
      expect(posts).toBe(1);
      expect(recorded).toMatchObject({ state: 'created', id: groups[0]?.id });
      expect(listed).toEqual([]);
    });

    it('after recording unresolved, before its request left: nothing sent twice, then created once', async () => {
      const { during, resumed, after, groups, posts, recorded, listed } = await cell(
        'after-unresolved',
        ms,
        `UNRES-${name}`,
      );
      expect(groups).toHaveLength(1);
      if (past10) {
        // Its unresolved is past the 10-minute rule and the lookup shows nothing: B creates.
        expect(resultOf(during)).toMatchObject({ created: true, group: { id: groups[0]?.id } });
        expect(resultOf(after)).toMatchObject({ created: false, via: 'gate', group: { id: groups[0]?.id } });
      } else {
        // Within 10 minutes, B does not send: the create may be on its way.
        expect(errorOf(during)).toBeInstanceOf(GroupMayHaveBeenCreatedError);
        expect(resultOf(after)).toMatchObject({ created: true, group: { id: groups[0]?.id } });
      }
      // A's resumed attempt has no time left: it fails with nothing sent.
      expect(errorOf(resumed)).toBeInstanceOf(APIConnectionTimeoutError);
      expect(errorOf(resumed)).toMatchObject({ requestNotSent: true });
      expect(posts).toBe(1);
      // Its own unresolved became refused (or B's created stands): nothing holds the household back.
      expect(recorded).toMatchObject({ state: 'created', id: groups[0]?.id });
      expect(listed).toEqual([]);
    });

    it('in flight, the server committing it at once: B finds it', async () => {
      const { during, resumed, after, groups, posts, recorded, listed } = await cell(
        'in-flight',
        ms,
        `FLIGHT-${name}`,
      );
      expect(groups).toHaveLength(1);
      const id = groups[0]?.id;
      expect(resultOf(during)).toMatchObject({ created: false, via: 'gate', group: { id } });
      // A's attempt timed out in the pause; its recovery lookup finds its group. Its `created`
      // write is refused (B took the lease meanwhile), but B recorded A's own group: no report.
      expect(resultOf(resumed)).toMatchObject({ created: true, group: { id } });
      expect(resultOf(resumed).duplicates).toBeUndefined();
      expect(resultOf(after)).toMatchObject({ created: false, group: { id } });
      expect(resultOf(after).duplicates).toBeUndefined();
      expect(posts).toBe(1);
      expect(recorded).toMatchObject({ state: 'created', id });
      expect(listed).toEqual([]);
    });
  });

  // The mock checks a token when it processes a request, a real server when it arrives: A's
  // token (30 minutes) would fail a commit an hour later, so the late commit stops at 10 min 1 s.
  describe.each(LENGTHS.filter(({ ms }) => ms(0) < 30 * MINUTE))('paused $name', ({ name, ms }) => {
    const past10 = ms(0) > 10 * MINUTE;

    it('in flight, the server committing it late (after B)', async () => {
      const { during, resumed, after, groups, posts, recorded, listed } = await cell(
        'in-flight, committed late',
        ms,
        `LATE-${name}`,
      );
      const aGroup = groups.find((group) => resultOf(resumed).group.id === group.id);
      expect(aGroup).toBeDefined();
      expect(resultOf(resumed)).toMatchObject({ created: true });
      // The household's newest group, A's, is the one recorded and returned from now on.
      expect(recorded).toMatchObject({ state: 'created', id: aGroup?.id });
      if (past10) {
        // Not preventable: A's unresolved is past the 10-minute rule, the lookup shows nothing
        // yet, so B creates; the server then commits A's create. Two groups, both reported.
        expect(groups).toHaveLength(2);
        expect(posts).toBe(2);
        const bGroup = resultOf(during);
        expect(bGroup).toMatchObject({ created: true });
        expect(bGroup.group.id).not.toBe(aGroup?.id);
        expect(resultOf(resumed).duplicates).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ kind: 'lease_lost_after_send', groupId: aGroup?.id }),
            expect.objectContaining({
              kind: 'several_groups',
              groupId: aGroup?.id,
              otherGroupIds: [bGroup.group.id],
            }),
          ]),
        );
        expect(resultOf(after).duplicates).toEqual([
          expect.objectContaining({
            kind: 'several_groups',
            groupId: aGroup?.id,
            otherGroupIds: [bGroup.group.id],
          }),
        ]);
        expect(listed).toEqual([
          {
            correlationId: `LATE-${name}`,
            groups: [
              expect.objectContaining({ id: aGroup?.id }),
              expect.objectContaining({ id: bGroup.group.id }),
            ],
          },
        ]);
      } else {
        // Within 10 minutes B does not send; A's recovery finds the group its server committed.
        expect(groups).toHaveLength(1);
        expect(posts).toBe(1);
        expect(errorOf(during)).toBeInstanceOf(GroupMayHaveBeenCreatedError);
        expect(resultOf(resumed).duplicates?.map((report) => report.kind)).toEqual(['lease_lost_after_send']);
        expect(resultOf(after)).toMatchObject({ created: false, group: { id: aGroup?.id } });
        expect(resultOf(after).duplicates).toBeUndefined();
        expect(listed).toEqual([]);
      }
    });
  });
});
