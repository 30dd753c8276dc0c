/**
 * No call path enters `execute` from inside `execute` (CONTRIBUTING, "Layers"): the token
 * exchange is one attempt of its own (`sendOnce`), and a create's recovery lookups are calls the
 * creates layer makes between its own sends, never from inside the core's retry loop. The probe
 * counts `execute` calls still running when another begins, over the calls that used to nest.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpCore } from '../../src/core/call/http.js';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { clientFor } from '../support/mock-client.js';

const GROUPS = '/api/v1/applicant_groups';

/** Wraps `HttpCore.execute`: how many ran, and the most that were running at once. */
function probeExecute(): { calls: number; deepest: number } {
  const seen = { calls: 0, deepest: 0 };
  let running = 0;
  const original = HttpCore.prototype.execute;
  vi.spyOn(HttpCore.prototype, 'execute').mockImplementation(function (this: HttpCore, call) {
    seen.calls++;
    running++;
    seen.deepest = Math.max(seen.deepest, running);
    return original.call(this, call).finally(() => {
      running--;
    });
  });
  return seen;
}

describe('execute is never entered from inside execute', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ seed: 7 });
  });
  afterAll(() => mock.close());
  afterEach(() => {
    vi.restoreAllMocks();
    mock.reset();
  });

  it('the first call exchanges its token without a nested execute', async () => {
    const probe = probeExecute();
    const client = clientFor(mock);
    try {
      await client.applicantGroups.list();
      expect(mock.stats.count('POST /api/v1/tenants/auth')).toBe(1);
      expect(probe).toEqual({ calls: 1, deepest: 1 });
    } finally {
      await client.close();
    }
  });

  it('a create committed then answered 503 is found by lookups made one at a time, outside its send', async () => {
    const probe = probeExecute();
    const client = clientFor(mock, { createGraceWindow: 0 });
    try {
      mock.faults.next(1, { status: 503, afterCommit: true }, { method: 'POST', path: GROUPS });
      const group = await client.applicantGroups.create(groupCreateBody('ana@example.com', 'REENTRY-1'));
      expect(mock.groups.applicant().map((held) => held.id)).toEqual([group.id]);
      expect(mock.stats.count(`POST ${GROUPS}`)).toBe(1);
      // The lookups ran through execute (the list), each alone: never inside another call.
      expect(probe.calls).toBeGreaterThan(0);
      expect(probe.deepest).toBe(1);
    } finally {
      await client.close();
    }
  });
});
