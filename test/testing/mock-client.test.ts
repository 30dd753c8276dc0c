/**
 * `mock.client()`: a client wired to the mock (URL, credentials, the mock's clock, a coordination
 * of the mock's own), whose leases and recorded outcomes `mock.reset()` forgets and which
 * `mock.close()` closes. The mock and its clients never disagree about time.
 */
import { describe, expect, it, vi } from 'vitest';
import { GroupMayHaveBeenCreatedError, VerificationClient } from '../../src/index.js';
import { createMockApi, createMockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { caught } from '../support/exposure.js';

const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' } as const;

describe('mock.client()', () => {
  it('over HTTP: the mock URL and credentials; its waits are jumps of the mock clock; options override', async () => {
    const mock = await createMockServer();
    try {
      const client = mock.client({ logLevel: 'off' });
      expect(client.baseURL).toBe(`${mock.url}/`);
      mock.faults.next(
        1,
        { status: 503, retryAfter: 5 },
        { method: 'GET', path: '/api/v1/applicant_groups' },
      );
      const before = mock.clock.now();
      const page = await client.applicantGroups.list();
      expect(page.items).toEqual([]);
      // The Retry-After passed on the mock clock (a real-clock client leaves it where it is).
      expect(mock.clock.now() - before).toBeGreaterThanOrEqual(5_000);
      expect(mock.stats.count('GET /api/v1/applicant_groups')).toBe(2);

      const noRetries = mock.client({ logLevel: 'off', maxRetries: 0 });
      mock.faults.next(1, { status: 503 }, { method: 'GET', path: '/api/v1/applicant_groups' });
      expect(await caught(noRetries.applicantGroups.list())).toMatchObject({ status: 503 });
    } finally {
      await mock.close();
    }
  });

  it('sees created_at times on its own clock: at a fractional time and a day later', async () => {
    const mock = createMockApi();
    try {
      const client = mock.client({ logLevel: 'off' });
      mock.clock.set(mock.clock.now() + 0.625);
      const first = await client.applicantGroups.create(groupCreateBody('ana@example.com', 'consistent-1'));
      const at = mock.clock.now();
      expect(Math.floor(first.created_at_timestamp * 1000)).toBe(Math.floor(at));
      mock.clock.advance(24 * 60 * 60_000);
      const second = await client.applicantGroups.create(groupCreateBody('bo@example.com', 'consistent-2'));
      expect(Math.floor(second.created_at_timestamp * 1000)).toBe(Math.floor(mock.clock.now()));
      // A create that commits and then fails is recovered: the group's time is the client's.
      mock.faults.next(1, { status: 503, afterCommit: true }, CREATE);
      const recovered = await client.applicantGroups.create(
        groupCreateBody('cy@example.com', 'consistent-3'),
      );
      expect(recovered.correlation_id).toBe('consistent-3');
      expect(mock.groups.applicant().map((group) => group.correlation_id)).toEqual([
        'consistent-1',
        'consistent-2',
        'consistent-3',
      ]);
    } finally {
      await mock.close();
    }
  });

  it('on a ticking mock: reads the mock clock as it ticks, so a create the mock committed is recovered', async () => {
    let elapsed = 0;
    // Started a day back: a client on the real clock would look for the group a day too late.
    const mock = await createMockServer({ now: Date.now() - 24 * 60 * 60_000, ticking: () => elapsed });
    try {
      const client = mock.client({ logLevel: 'off' });
      elapsed += 6 * 60_000;
      mock.faults.next(1, { status: 503, afterCommit: true }, CREATE);
      const group = await client.applicantGroups.create(groupCreateBody('ana@example.com', 'ticking-1'));
      expect(group.correlation_id).toBe('ticking-1');
      expect(Math.floor(group.created_at_timestamp * 1000)).toBe(mock.clock.now());
      expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(1);
    } finally {
      await mock.close();
    }
  });

  it('mock.reset() clears its coordination: one correlation id, used again after the reset, goes through at once', async () => {
    // Unpinned: the mock runs at the real time, as a suite's mocks do by default.
    const mock = createMockApi();
    try {
      const client = mock.client({ logLevel: 'off' });
      const body = groupCreateBody('ana@example.com', 'unit-7');
      // The create fails before committing: nobody can tell, so the id's outcome is recorded as
      // unresolved after the grace window (on the mock clock).
      mock.faults.next(1, { status: 503 }, CREATE);
      expect(await caught(client.applicantGroups.createOnce(body))).toBeInstanceOf(
        GroupMayHaveBeenCreatedError,
      );
      // Without a reset the record stands: the id is refused (the grace window since that create
      // was sent has passed already, so one lookup and no further wait).
      const waitFrom = mock.clock.now();
      expect(await caught(client.applicantGroups.createOnce(body))).toBeInstanceOf(
        GroupMayHaveBeenCreatedError,
      );
      expect(mock.clock.now()).toBe(waitFrom);
      expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(1);

      mock.reset();
      const resetAt = mock.clock.now();
      const result = await client.applicantGroups.createOnce(body);
      expect(result.created).toBe(true);
      expect(mock.clock.now()).toBe(resetAt);
      expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(1);
      expect(mock.outbox.forGroup(result.group.id)).toHaveLength(2);
    } finally {
      await mock.close();
    }
  });

  it('mock.close() closes every client it made, over HTTP and in process', async () => {
    const close = vi.spyOn(VerificationClient.prototype, 'close');
    try {
      const server = await createMockServer();
      const api = createMockApi();
      const made = [server.client(), server.client({ logLevel: 'off' }), api.client()];
      const own = new VerificationClient({ baseURL: server.url, clientId: 'x', secretKey: 'y' });
      await server.close();
      await api.close();
      expect(close.mock.contexts).toEqual(made);
      await own.close();
    } finally {
      close.mockRestore();
    }
  });
});
