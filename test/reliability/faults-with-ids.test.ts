/** Fault suite, creates with correlation ids: exactly one group per body (see fault-scenarios.ts). */
import { describe, expect, it } from 'vitest';
import {
  BATCH,
  committed,
  expectFailuresNameTheirCorrelationIds,
  mock,
  runBatch,
  serverGroupsOf,
  slug,
  useFaultMock,
} from './fault-scenarios.js';

useFaultMock();

describe.each(committed)('fault: $name', (scenario) => {
  it('200 creates with correlation_ids: exactly 200 groups and 200 invitation sets', async () => {
    const run = `with-${slug(scenario.name)}`;
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
  });
});
