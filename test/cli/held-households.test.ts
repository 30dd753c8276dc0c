/**
 * Every wait says what it waits for and until when; a household left blocked says when it can go
 * (issue 50, point 4): the resolve phase's wait for a killed run's create, and an unresolved
 * household's hold by the gate, in the summary and in the results log's `retry_after` column.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { recordingClock } from '../support/clock.js';
import { correlationIds, latestResults, runCli, tempDir, writeHouseholds } from './helpers.js';

const CREATE = { method: 'POST', path: '/api/v1/applicant_groups' } as const;
const HOLD_MS = 10 * 60_000;

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ seed: 504, pageSize: 50 });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.faults.clear();
});

describe('groups create: waits and holds say until when', () => {
  it("the wait for a killed run's create names the household, the time it was sent and the time it ends", async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'waiting.csv', { households: 2, tag: 'waiting' });
    const ids = await correlationIds(path);
    const sentAt = new Date(Date.now() - 1_000);
    writeFileSync(
      join(dir, `waiting.${mock.clientId}.journal.jsonl`),
      `${JSON.stringify({ type: 'sending', at: sentAt.toISOString(), household_key: 'U-2', correlation_id: ids.get('U-2'), batch_id: '', line: 3 })}\n`,
    );
    const clock = recordingClock();
    const result = await runCli(['groups', 'create', '--csv', path, '--grace', '30'], mock, { clock });
    expect(result.code, result.stderr).toBe(0);
    const until = new Date(sentAt.getTime() + 30_000).toISOString();
    expect(result.stderr).toContain(
      `household U-2: waiting until ${until} for the create an earlier run sent at ${sentAt.toISOString()} to appear (--grace 30 s`,
    );
  });

  it('an unresolved household says when the gate lets it go, in the summary and the log', async () => {
    const dir = tempDir();
    const { path } = writeHouseholds(dir, 'held.csv', { households: 3 });
    // The server commits one create 2 s after receiving it: the 200 ms timeout fires first, and the
    // grace window (on the recording clock) ends before the group exists: unresolved.
    mock.faults.next(1, { commitDelayMs: 2_000 }, CREATE);
    const clock = recordingClock();
    const before = Date.now();
    const result = await runCli(
      ['groups', 'create', '--csv', path, '--timeout', '0.2', '--grace', '5', '--max-retries', '2'],
      mock,
      { clock },
    );
    const after = Date.now();
    expect(result.code, result.stderr).toBe(1);
    const unresolved = latestResults(dir, 'held').filter((entry) => entry.status === 'unresolved');
    expect(unresolved).toHaveLength(1);
    const retryAfter = Date.parse(unresolved[0]?.retry_after ?? '');
    // Recorded while this run worked; held 10 minutes from then.
    expect(retryAfter).toBeGreaterThanOrEqual(before + HOLD_MS);
    expect(retryAfter).toBeLessThanOrEqual(after + HOLD_MS);
    const time = new Date(retryAfter).toISOString();
    expect(result.stderr).toContain(
      `1 unresolved household(s) are held by the gate until ${time} (10 minutes after`,
    );
    expect(result.stderr).toContain(`Run the same command again after ${time} to finish them`);
    // The others have nothing to wait for.
    for (const entry of latestResults(dir, 'held').filter((row) => row.status === 'created')) {
      expect(entry.retry_after).toBe('');
    }
  });
});
