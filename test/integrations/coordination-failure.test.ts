/**
 * A coordination that fails (its store went away), against the mock. `createOnce` refuses to
 * create without its lease unless `coordinationFailure: 'continue'` opts out; then it logs one
 * warning and creates once, still single-flight in this process and lookup-first. A lease held by
 * another process is never bypassed. The token exchange never fails because of the coordination:
 * a failing lock (a fake, or a FileCoordination on a folder that cannot exist) runs it unlocked,
 * and the exchange's own error passes unchanged.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  type ClientOptions,
  ConfigurationError,
  type Coordination,
  CreateLeaseLostError,
  FileCoordination,
  GroupMayHaveBeenCreatedError,
  InProcessCoordination,
  type Logger,
  type VerificationClient,
} from '../../src/index.js';
import { createMockServer, createTestClock, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { caught } from '../support/exposure.js';
import { clientFor } from '../support/mock-client.js';

const CREATE = 'POST /api/v1/applicant_groups';
const AUTH = 'POST /api/v1/tenants/auth';

class StoreDownError extends Error {
  override name = 'StoreDownError';
}

/** An in-process coordination whose named methods fail as a store that went away would. */
function failing(...methods: Array<keyof Coordination>): Coordination {
  const inner = new InProcessCoordination();
  const down = () => Promise.reject(new StoreDownError('connection refused'));
  const coordination: Coordination = {
    acquireCreateLease: (...args) => inner.acquireCreateLease(...args),
    releaseCreateLease: (lease) => inner.releaseCreateLease(lease),
    recordCreateOutcome: (lease, outcome) => inner.recordCreateOutcome(lease, outcome),
    readCreateOutcome: (...args) => inner.readCreateOutcome(...args),
    withTokenExchange: (clientId, ttl, exchange) => inner.withTokenExchange(clientId, ttl, exchange),
    publishPause: (clientId, until) => inner.publishPause(clientId, until),
    onPause: (clientId, listener) => inner.onPause(clientId, listener),
  };
  return Object.assign(coordination, Object.fromEntries(methods.map((method) => [method, down])));
}

describe('a failing coordination', () => {
  let mock: MockServer;
  let warnings: string[];
  const clients: VerificationClient[] = [];
  const dirs: string[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (message) => warnings.push(message),
    error: (message) => warnings.push(`error: ${message}`),
  };

  function client(options: ClientOptions): VerificationClient {
    const made = clientFor(mock, {
      clock: createTestClock(mock.clock),
      logger,
      logLevel: 'warn',
      ...options,
    });
    clients.push(made);
    return made;
  }

  beforeEach(async () => {
    mock = await createMockServer();
    warnings = [];
  });
  afterEach(async () => {
    for (const made of clients.splice(0)) await made.close();
    await mock.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("createOnce by default: fails with the coordination's error and sends nothing", async () => {
    const sdk = client({ coordination: failing('acquireCreateLease') });
    const error = await caught(sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'U-1')));
    expect(error).toBeInstanceOf(StoreDownError);
    expect(mock.stats.count(CREATE)).toBe(0);
    expect(mock.groups.applicant()).toHaveLength(0);
  });

  it("createOnce with coordinationFailure: 'continue' (per call): one POST, one warning naming the opt-out", async () => {
    const sdk = client({
      coordination: failing('acquireCreateLease', 'readCreateOutcome', 'releaseCreateLease'),
    });
    const body = groupCreateBody('ana@example.com', 'U-2');
    const result = await sdk.applicantGroups.createOnce(body, { coordinationFailure: 'continue' });
    expect(result.created).toBe(true);
    expect(mock.stats.count(CREATE)).toBe(1);
    expect(mock.groups.applicant().map((group) => group.id)).toEqual([result.group.id]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('correlation_id "U-2"');
    expect(warnings[0]).toContain('StoreDownError: connection refused');
    expect(warnings[0]).toContain("coordinationFailure: 'continue'");
  });

  it("the client option 'continue': concurrent calls share one POST; a later call finds the group", async () => {
    const sdk = client({ coordination: failing('acquireCreateLease'), coordinationFailure: 'continue' });
    const body = groupCreateBody('ana@example.com', 'U-3');
    const results = await Promise.all(
      Array.from({ length: 5 }, () => sdk.applicantGroups.createOnce(structuredClone(body))),
    );
    expect(mock.stats.count(CREATE)).toBe(1);
    const id = mock.groups.applicant()[0]?.id;
    expect(results.map((result) => [result.group.id, result.created])).toEqual(new Array(5).fill([id, true]));
    const again = await sdk.applicantGroups.createOnce(body);
    // Nothing was recorded (the coordination failed): only the lookup knew of it.
    expect(again).toEqual({ group: results[0]?.group, created: false, via: 'lookup' });
    expect(mock.stats.count(CREATE)).toBe(1);
    // One warning per call: the shared one, then the later one.
    expect(warnings).toHaveLength(2);
  });

  it('createMany with once takes coordinationFailure through its request options', async () => {
    const sdk = client({ coordination: failing('acquireCreateLease') });
    const bodies = [groupCreateBody('ana@example.com', 'U-8'), groupCreateBody('bia@example.com', 'U-9')];
    const refused = await sdk.applicantGroups.createMany(bodies, { once: true });
    expect(refused.map((result) => result.ok)).toEqual([false, false]);
    expect(mock.stats.count(CREATE)).toBe(0);
    const created = await sdk.applicantGroups.createMany(bodies, {
      once: true,
      request: { coordinationFailure: 'continue' },
    });
    expect(created.map((result) => result.ok)).toEqual([true, true]);
    expect(mock.stats.count(CREATE)).toBe(2);
  });

  it("a failing read of an earlier create's outcome: createOnce refuses by default and sends nothing", async () => {
    const sdk = client({ coordination: failing('readCreateOutcome') });
    const error = await caught(sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'U-10')));
    expect(error).toBeInstanceOf(StoreDownError);
    expect(mock.stats.count(CREATE)).toBe(0);
  });

  it("a failing read of an earlier create's outcome with 'continue': created from the lookup alone, one warning", async () => {
    const sdk = client({ coordination: failing('readCreateOutcome'), coordinationFailure: 'continue' });
    const result = await sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'U-11'));
    expect(result.created).toBe(true);
    expect(mock.stats.count(CREATE)).toBe(1);
    expect(warnings).toEqual([
      expect.stringContaining(
        `createOnce (correlation_id "U-11"): the coordination could not read an earlier create's outcome (StoreDownError: connection refused); going on from the lookup alone`,
      ),
    ]);
  });

  it('a lease that cannot be released: the create stands, one warning says the lease lapses on its own', async () => {
    const sdk = client({ coordination: failing('releaseCreateLease') });
    const result = await sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'U-12'));
    expect(result.created).toBe(true);
    expect(mock.groups.applicant().map((group) => group.id)).toEqual([result.group.id]);
    expect(warnings).toEqual([
      expect.stringContaining(
        'createOnce (correlation_id "U-12"): the create lease could not be released (StoreDownError: connection refused); it lapses on its own',
      ),
    ]);
  });

  it('an outcome that cannot be recorded before sending stops the create, nothing sent (refuse)', async () => {
    const sdk = client({ coordination: failing('recordCreateOutcome') });
    const error = await caught(sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'U-13')));
    expect(error).toBeInstanceOf(CreateLeaseLostError);
    expect(error).toMatchObject({ reason: 'coordination_failed', correlationId: 'U-13', requestSent: false });
    expect((error as Error).message).toContain('StoreDownError: connection refused');
    expect(mock.stats.count(CREATE)).toBe(0);
    expect(mock.groups.applicant()).toEqual([]);
  });

  it('an `unresolved` written whose answer was lost: nothing sent, the record turned to refused, the next call creates', async () => {
    // The write lands, then its answer never comes (a pause past the command timeout, a reset).
    const inner = new InProcessCoordination();
    let lostAnswers = 1;
    const coordination: Coordination = {
      ...failing(),
      acquireCreateLease: (...args) => inner.acquireCreateLease(...args),
      releaseCreateLease: (lease) => inner.releaseCreateLease(lease),
      readCreateOutcome: (...args) => inner.readCreateOutcome(...args),
      recordCreateOutcome: async (lease, outcome) => {
        const recorded = await inner.recordCreateOutcome(lease, outcome);
        if (outcome.state === 'unresolved' && lostAnswers-- > 0)
          throw new StoreDownError('no answer within 1000 ms');
        return recorded;
      },
    };
    const sdk = client({ coordination });
    const body = groupCreateBody('ana@example.com', 'U-17');
    const error = await caught(sdk.applicantGroups.createOnce(body));
    expect(error).toBeInstanceOf(CreateLeaseLostError);
    expect(error).toMatchObject({ reason: 'coordination_failed', requestSent: false });
    expect(mock.stats.count(CREATE)).toBe(0);
    expect(await inner.readCreateOutcome(mock.clientId, 'U-17')).toMatchObject({ state: 'refused' });

    const again = await sdk.applicantGroups.createOnce(body);
    expect(again.created).toBe(true);
    expect(mock.stats.count(CREATE)).toBe(1);
    expect(mock.groups.applicant().map((group) => group.correlation_id)).toEqual(['U-17']);
  });

  it("with 'continue', the create stands; the outcome it could not record after sending is a possible duplicate, reported", async () => {
    const sdk = client({ coordination: failing('recordCreateOutcome'), coordinationFailure: 'continue' });
    const result = await sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'U-13'));
    expect(result.created).toBe(true);
    expect(mock.stats.count(CREATE)).toBe(1);
    expect(result.duplicates).toEqual([
      expect.objectContaining({
        kind: 'lease_lost_after_send',
        correlationId: 'U-13',
        groupId: result.group.id,
      }),
    ]);
    expect(warnings).toEqual([
      expect.stringContaining(
        `createOnce (correlation_id "U-13"): the coordination could not confirm the create lease (StoreDownError: connection refused)`,
      ),
      expect.stringMatching(
        /^error: .*Possible duplicate group for correlation_id "U-13" \(lease_lost_after_send\)/,
      ),
    ]);
  });

  it("creating without the lease ('continue') writes no outcome: a record without a lease could undo another holder's", async () => {
    const written: unknown[] = [];
    const coordination: Coordination = {
      ...failing('acquireCreateLease'),
      recordCreateOutcome: async (lease, outcome) => {
        written.push({ lease, outcome });
        return true;
      },
    };
    const sdk = client({ coordination, coordinationFailure: 'continue' });
    expect((await sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'U-14'))).created).toBe(
      true,
    );
    expect(written).toEqual([]);
  });

  it("creating without the lease ('continue') goes on from the lookup alone: no earlier outcome is read", async () => {
    const read: string[] = [];
    const coordination: Coordination = {
      ...failing('acquireCreateLease'),
      readCreateOutcome: async (_clientId, correlationId) => {
        read.push(correlationId);
        return undefined;
      },
    };
    const sdk = client({ coordination, coordinationFailure: 'continue' });
    expect((await sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'U-16'))).created).toBe(
      true,
    );
    expect(read).toEqual([]);
  });

  it('a coordination that fails with something other than an Error: the warning says an unknown error', async () => {
    const coordination: Coordination = {
      ...failing(),
      releaseCreateLease: () => Promise.reject('disk full'),
    };
    const sdk = client({ coordination });
    expect((await sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'U-15'))).created).toBe(
      true,
    );
    expect(warnings).toEqual([
      expect.stringContaining('the create lease could not be released (unknown error); it lapses on its own'),
    ]);
  });

  it("'refuse' per call wins over the client's 'continue'", async () => {
    const sdk = client({ coordination: failing('acquireCreateLease'), coordinationFailure: 'continue' });
    const error = await caught(
      sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'U-4'), {
        coordinationFailure: 'refuse',
      }),
    );
    expect(error).toBeInstanceOf(StoreDownError);
    expect(mock.stats.count(CREATE)).toBe(0);
  });

  it("a lease another process holds is never bypassed, even with 'continue'", async () => {
    const holder = new InProcessCoordination();
    // Another process holds the lease; then the store goes away while this call waits for it.
    let looks = 0;
    const coordination: Coordination = {
      ...failing(),
      acquireCreateLease: async (...args) => {
        looks += 1;
        if (looks > 1) throw new StoreDownError('connection refused');
        return holder.acquireCreateLease(...args);
      },
    };
    await holder.acquireCreateLease(mock.clientId, 'U-5', 60_000);
    const sdk = client({ coordination, coordinationFailure: 'continue' });
    const error = await caught(sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'U-5')));
    expect(error).toBeInstanceOf(StoreDownError);
    expect(looks).toBe(2);
    expect(mock.stats.count(CREATE)).toBe(0);
  });

  it("a lease held for the whole wait: GroupMayHaveBeenCreatedError with 'continue' too, nothing sent", async () => {
    const holder = new InProcessCoordination();
    await holder.acquireCreateLease(mock.clientId, 'U-6', 24 * 3_600_000);
    const sdk = client({ coordination: holder, coordinationFailure: 'continue' });
    const error = await caught(sdk.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'U-6')));
    expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect((error as Error).message).toContain(
      'another holder kept the create lease for this correlation id for the whole wait',
    );
    expect(mock.stats.count(CREATE)).toBe(0);
    // The wait is announced once; the lease held by another holder is not a coordination failure.
    expect(warnings).toEqual([
      '[applicant-verification] createOnce (correlation_id "U-6"): waiting for the create lease, held by another holder; it creates nothing meanwhile.',
    ]);
  });

  it('an invalid coordinationFailure is a ConfigurationError naming it', () => {
    let error: unknown;
    try {
      client({ coordinationFailure: 'proceed' as unknown as 'continue' });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(String(error)).toMatch(/coordinationFailure option must be 'refuse' or 'continue'/);
  });

  it('a failing token-exchange lock: the call succeeds, one exchange, one warning', async () => {
    const sdk = client({ coordination: failing('withTokenExchange') });
    const page = await sdk.applicantGroups.list();
    expect(page.items).toEqual([]);
    expect(mock.stats.count(AUTH)).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('exchanged without the lock');
    expect(warnings[0]).toContain('StoreDownError');
  });

  it('a coordination failing after the exchange ran: its token is kept, no second exchange', async () => {
    const coordination: Coordination = {
      ...failing(),
      withTokenExchange: async (_clientId, _ttl, exchange) => {
        await exchange();
        throw new StoreDownError('lock release failed');
      },
    };
    const sdk = client({ coordination });
    await sdk.applicantGroups.list();
    expect(mock.stats.count(AUTH)).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('its result is kept');
  });

  it("the exchange's own error passes through the lock unchanged, without a warning", async () => {
    const sdk = client({ coordination: new InProcessCoordination(), secretKey: 'sk_wrong' });
    const error = await caught(sdk.applicantGroups.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(mock.stats.count(AUTH)).toBe(1);
    expect(warnings).toEqual([]);
  });

  it('FileCoordination on a folder that cannot be made: calls succeed; createOnce refuses unless opted out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'av-coordination-down-'));
    dirs.push(dir);
    // A path under a regular file: no one, root included, can make that folder.
    writeFileSync(join(dir, 'file'), '');
    const sdk = client({ coordination: new FileCoordination(join(dir, 'file', 'coordination')) });
    const page = await sdk.applicantGroups.list();
    expect(page.items).toEqual([]);
    expect(mock.stats.count(AUTH)).toBe(1);
    expect(warnings.join('\n')).toContain('exchanged without the lock');

    const body = groupCreateBody('ana@example.com', 'U-7');
    const refused = await caught(sdk.applicantGroups.createOnce(body));
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused)).toMatch(/ENOTDIR/);
    expect(mock.stats.count(CREATE)).toBe(0);
    const result = await sdk.applicantGroups.createOnce(body, { coordinationFailure: 'continue' });
    expect(result.created).toBe(true);
    expect(mock.stats.count(CREATE)).toBe(1);
  });
});
