/**
 * Fault suite, creates with correlation ids: exactly one group per body (see fault-scenarios.ts).
 * Every correlation id is already used by an older group for other applicants, as reused unit ids
 * are: no call resolves with the older group, and the older groups are untouched.
 */
import { describe, expect, it } from 'vitest';
import {
  BATCH,
  committed,
  expectFailuresNameTheirCorrelationIds,
  expectFormerGroupsUntouched,
  mock,
  runBatch,
  seedFormerGroups,
  serverGroupsOf,
  slug,
  useFaultMock,
} from './fault-scenarios.js';

useFaultMock();

describe.each(committed)('fault: $name', (scenario) => {
  it('200 creates under reused correlation_ids: exactly 200 new groups and 200 invitation sets, 0 wrong', async () => {
    const run = `with-${slug(scenario.name)}`;
    const former = await seedFormerGroups(run);
    const results = await runBatch(scenario, run, true);
    expectFailuresNameTheirCorrelationIds(run, results);
    const onServer = serverGroupsOf(run);
    expect(onServer.size).toBe(BATCH);
    for (const [index, ids] of onServer) {
      expect(ids, `body ${index} has one group`).toHaveLength(1);
      const result = results[index];
      if (result?.ok) expect(result.value.id).toBe(ids[0]);
      expect(mock.outbox.forGroup(ids[0] ?? '')).toHaveLength(1);
    }
    // The recovery finds what was committed: with these faults every call gets its group.
    expect(results.filter((result) => !result.ok)).toEqual([]);
    expect(mock.faults.pending()).toEqual([]);
    expectFormerGroupsUntouched(run, former);
  });
});
