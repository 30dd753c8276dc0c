/**
 * The bin's clock ticks with real time, so a bin that has run for minutes stamps a group with
 * the time its clients read, and the SDK's create recovery (which only takes groups created
 * since the call began, less five minutes, on the API's clock as its Date header tells it) finds
 * the group a failed create committed; a frozen bin's too, whose Date stays at its start. The bin's
 * elapsed time is injected: the test ages it six minutes without waiting them, and the bin's
 * start is set six minutes back, as a bin started then would have it.
 */
import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_ALLOWANCE_MS } from '../../src/creates/group-lookup.js';
import { VerificationClient } from '../../src/index.js';
import { startMockBin } from '../../src/testing/bin-main.js';
import { groupCreateBody } from '../support/bodies.js';

const SIX_MINUTES = 6 * 60_000;

/** A bin started six minutes ago (`--now`), its elapsed time then moved six minutes on. */
async function binRunForSixMinutes(extraArgs: string[]) {
  let elapsed = 0;
  const mock = await startMockBin(['--port', '0', '--now', String(Date.now() - SIX_MINUTES), ...extraArgs], {
    out: () => {},
    err: () => {},
    env: {},
    elapsedMs: () => elapsed,
  });
  if (mock === undefined) throw new Error('the bin did not start');
  elapsed += SIX_MINUTES;
  return mock;
}

/** A client on the real clock, as a service pointed at the bin has. */
function realClockClient(url: string, createGraceWindow?: number) {
  return new VerificationClient({
    baseURL: url,
    clientId: 'mock-client-id',
    secretKey: 'mock-secret-key',
    logLevel: 'off',
    ...(createGraceWindow === undefined ? {} : { createGraceWindow }),
  });
}

describe('the bin after six minutes', () => {
  it('ticking: a create that commits and then answers 503 is recovered, not GroupMayHaveBeenCreatedError', async () => {
    const mock = await binRunForSixMinutes([]);
    const client = realClockClient(mock.url);
    try {
      mock.faults.next(
        1,
        { status: 503, afterCommit: true },
        { method: 'POST', path: '/api/v1/applicant_groups' },
      );
      const callStart = Date.now();
      const group = await client.applicantGroups.create(groupCreateBody('ana@example.com', 'bin-aged'));
      expect(group.correlation_id).toBe('bin-aged');
      expect(group.created_at_timestamp * 1000).toBeGreaterThanOrEqual(callStart - CLOCK_SKEW_ALLOWANCE_MS);
      expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(1);
      expect(mock.groups.applicant().map((held) => held.id)).toEqual([group.id]);
    } finally {
      await client.close();
      await mock.close();
    }
  });

  it('--frozen (the old clock): the group and the Date header carry the start-up time, and the recovery finds the group', async () => {
    const mock = await binRunForSixMinutes(['--frozen']);
    const client = realClockClient(mock.url, 1);
    try {
      mock.faults.next(
        1,
        { status: 503, afterCommit: true },
        { method: 'POST', path: '/api/v1/applicant_groups' },
      );
      // Six minutes behind this machine: the lookup places the call's start on the API's clock.
      const group = await client.applicantGroups.create(groupCreateBody('ana@example.com', 'bin-frozen'));
      expect(group.correlation_id).toBe('bin-frozen');
      expect(mock.stats.count('POST /api/v1/applicant_groups')).toBe(1);
      expect(mock.groups.applicant().map((held) => held.id)).toEqual([group.id]);
    } finally {
      await client.close();
      await mock.close();
    }
  });
});
