/**
 * What `groups create` reads of a household's groups and of `createOnce`'s reports: its live group
 * first, else its newest expired one; the `possible_duplicate` cell of the results log.
 */
import { describe, expect, it } from 'vitest';
import {
  householdGroup,
  liveGroups,
  possibleDuplicateCell,
} from '../../src/cli/commands/groups-create/expiry.js';
import type { ApplicantGroup, PossibleDuplicate } from '../../src/index.js';

const group = (id: string, createdAt: number, expired: boolean) =>
  ({ id, created_at_timestamp: createdAt, is_expired: expired }) as ApplicantGroup;

const report = (kind: PossibleDuplicate['kind'], others: string[]): PossibleDuplicate => ({
  kind,
  correlationId: 'cli-1',
  groupId: 'g-own',
  otherGroupIds: others,
  at: '2026-12-07T00:00:00.000Z',
  reason: 'test',
});

describe('householdGroup and liveGroups', () => {
  it('the first live group listed, whatever expired groups come before or after it', () => {
    const groups = [group('old', 100, true), group('live-a', 200, false), group('live-b', 300, false)];
    expect(householdGroup(groups)?.id).toBe('live-a');
    expect(liveGroups(groups).map((each) => each.id)).toEqual(['live-a', 'live-b']);
  });

  it('only expired groups: the newest of them; none: undefined', () => {
    expect(householdGroup([group('b', 200, true), group('c', 300, true), group('a', 100, true)])?.id).toBe(
      'c',
    );
    expect(householdGroup([])).toBeUndefined();
    expect(liveGroups([group('a', 1, true)])).toEqual([]);
  });
});

describe('possibleDuplicateCell', () => {
  it('the other groups the reports named, each once, in order', () => {
    expect(
      possibleDuplicateCell({
        duplicates: [
          report('lease_lost_after_send', []),
          report('several_groups', ['g-2', 'g-3']),
          report('several_groups', ['g-3']),
        ],
      }),
    ).toBe('g-2 g-3');
  });

  it('a lease lost in flight with no other group shown yet: its kind; no report: empty', () => {
    expect(possibleDuplicateCell({ duplicates: [report('lease_lost_after_send', [])] })).toBe(
      'lease_lost_after_send',
    );
    expect(possibleDuplicateCell({})).toBe('');
    expect(possibleDuplicateCell({ duplicates: [] })).toBe('');
  });
});
