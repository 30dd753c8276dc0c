/**
 * The mock's list indexes (src/testing/state/group-index.ts): every list answer the indexes give equals
 * the answer of filtering every group, over random stores, life-cycle moves and queries; and
 * the paths that must look at every group (a substring search, a list lag, a clock set back) do.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerBound, pageOfUnion } from '../../src/testing/state/group-index.js';
import { queryApplicantGroups, queryScreeningGroups } from '../../src/testing/state/queries.js';
import {
  type ApplicantGroupRecord,
  groupStatus,
  MockStore,
  type Progress,
  type ScreeningGroupRecord,
} from '../../src/testing/state/store.js';

const START = Date.UTC(2026, 0, 15, 12, 0, 0);

function group(
  id: number,
  account: string,
  createdAt: number,
  correlationId: string | null,
  name = `Tenant ${id}`,
): ApplicantGroupRecord {
  return {
    family: 'applicant_group',
    account,
    id: `g-${id}`,
    decisionMakerDisplayName: 'Landlord',
    property: {
      id: `p-${id}`,
      name: 'Elm Court',
      streetAddress: '1 Elm',
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
    },
    unitNumber: '',
    unitId: null,
    monthlyRentCents: 100_000,
    isFree: false,
    isDecisionMakerPaying: false,
    correlationId,
    webhookUrl: null,
    isInvitationDisabled: true,
    blockBusinessAccounts: null,
    createdAt,
    expiryStart: createdAt,
    completedAt: null,
    applicants: [0, 1].map((n) => ({
      id: `a-${id}-${n}`,
      firstName: name,
      lastName: `Member${n}`,
      email: `t${id}.${n}@example.com`,
      phoneNumber: null,
      createdAt,
      updatedAt: createdAt,
      status: 'not_started' as Progress,
      reasonCompleted: 'not_completed' as const,
      verifications: [],
    })),
  };
}

/** What the list endpoint means, written plainly: filter every group of the account, then slice. */
function reference(
  groups: readonly ApplicantGroupRecord[],
  account: string,
  query: { after?: number; before?: number; correlationId?: string; statuses: string[]; page: number },
  size: number,
): { ids: string[]; total: number } {
  const matching = groups.filter((g) => {
    const seconds = g.createdAt / 1000;
    return (
      g.account === account &&
      (query.after === undefined || seconds > query.after) &&
      (query.before === undefined || seconds < query.before) &&
      (query.correlationId === undefined || g.correlationId === query.correlationId) &&
      (query.statuses.length === 0 || query.statuses.includes(groupStatus(g.applicants)))
    );
  });
  return {
    ids: matching.slice((query.page - 1) * size, query.page * size).map((g) => g.id),
    total: matching.length,
  };
}

function params(query: {
  after?: number;
  before?: number;
  correlationId?: string;
  statuses: string[];
  page: number;
}): URLSearchParams {
  const search = new URLSearchParams({ page: String(query.page) });
  if (query.after !== undefined) search.set('created_after', String(query.after));
  if (query.before !== undefined) search.set('created_before', String(query.before));
  if (query.correlationId !== undefined) search.set('correlation_id', query.correlationId);
  if (query.statuses.length > 0) search.set('statuses', query.statuses.join(','));
  return search;
}

const queryArbitrary = fc.record({
  after: fc.option(fc.integer({ min: START / 1000 - 2, max: START / 1000 + 60 }), { nil: undefined }),
  before: fc.option(fc.integer({ min: START / 1000 - 2, max: START / 1000 + 60 }), { nil: undefined }),
  correlationId: fc.option(fc.constantFrom('unit-1', 'unit-2', 'unit-3'), { nil: undefined }),
  statuses: fc.subarray(['not_started', 'in_progress', 'completed', 'unknown']),
  page: fc.integer({ min: 1, max: 12 }),
});

describe('the mock answers list queries from its indexes', () => {
  it('gives the same page and total_count as filtering every group, after any life-cycle moves', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            account: fc.constantFrom('acct-a', 'acct-b'),
            step: fc.integer({ min: 0, max: 1500 }),
            correlationId: fc.constantFrom(null, 'unit-1', 'unit-2', 'unit-3'),
          }),
          { maxLength: 80 },
        ),
        fc.array(
          fc.record({
            target: fc.nat(),
            member: fc.nat(1),
            to: fc.constantFrom<Progress>('not_started', 'in_progress', 'completed'),
          }),
          { maxLength: 40 },
        ),
        fc.array(queryArbitrary, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 5 }),
        (creates, moves, queries, size) => {
          const store = new MockStore();
          const all: ApplicantGroupRecord[] = [];
          let at = START;
          creates.forEach((create, i) => {
            at += create.step; // creation times never go back
            const record = group(i, create.account, at + 0.25, create.correlationId);
            store.addApplicantGroup(record);
            all.push(record);
          });
          for (const move of moves) {
            if (all.length === 0) break;
            const target = all[move.target % all.length]!;
            target.applicants[move.member]!.status = move.to;
            store.applicantGroupStatusChanged(target);
          }
          for (const query of queries) {
            for (const account of ['acct-a', 'acct-b']) {
              const answer = queryApplicantGroups(store, params(query), size, account);
              if (!answer.ok) throw new Error('the query was refused');
              expect({ ids: answer.page.items.map((g) => g.id), total: answer.page.totalCount }).toEqual(
                reference(all, account, query, size),
              );
            }
          }
        },
      ),
      { numRuns: 150, seed: 51 },
    );
  });

  it('scans every group when the clock was set back, and still answers in creation order', () => {
    const store = new MockStore();
    const records = [
      group(1, 'acct', START + 5000, null),
      group(2, 'acct', START, null),
      group(3, 'acct', START + 9000, null),
    ];
    for (const record of records) store.addApplicantGroup(record);
    expect(store.applicantGroupsOf('acct').createdInOrder).toBe(false);
    const answer = queryApplicantGroups(
      store,
      params({ after: START / 1000 + 1, statuses: [], page: 1 }),
      25,
      'acct',
    );
    expect(answer.ok && answer.page.items.map((g) => g.id)).toEqual(['g-1', 'g-3']);
    expect(answer.ok && answer.page.totalCount).toBe(2);
  });

  it('keeps a group out of lists while its list lag lasts, then lists it', () => {
    const store = new MockStore();
    let now = 0;
    store.addApplicantGroup(group(1, 'acct', START, null));
    store.addApplicantGroup(group(2, 'acct', START + 1, null));
    store.hideFromLists('g-2', 100, () => now);
    const first = queryApplicantGroups(store, params({ statuses: [], page: 1 }), 25, 'acct');
    expect(first.ok && first.page.items.map((g) => g.id)).toEqual(['g-1']);
    expect(first.ok && first.page.totalCount).toBe(1);
    expect(store.hasListLag()).toBe(true);
    now = 100;
    expect(store.hasListLag()).toBe(false);
    const later = queryApplicantGroups(store, params({ statuses: [], page: 1 }), 25, 'acct');
    expect(later.ok && later.page.items.map((g) => g.id)).toEqual(['g-1', 'g-2']);
  });

  it('matches a substring search by scanning, within the other filters', () => {
    const store = new MockStore();
    store.addApplicantGroup(group(1, 'acct', START, 'unit-1', 'Ada'));
    store.addApplicantGroup(group(2, 'acct', START + 1, 'unit-1', 'Grace'));
    store.addApplicantGroup(group(3, 'acct', START + 2, 'unit-2', 'Ada'));
    const search = params({ correlationId: 'unit-1', statuses: [], page: 1 });
    search.set('search', 'ADA');
    const answer = queryApplicantGroups(store, search, 25, 'acct');
    expect(answer.ok && answer.page.items.map((g) => g.id)).toEqual(['g-1']);
  });

  it('pages screening groups of one account only, 25 a page, hiding lagged ones', () => {
    const store = new MockStore();
    const screening = (id: number, account: string): ScreeningGroupRecord => ({
      family: 'screening_group',
      account,
      id: `s-${id}`,
      propertyName: 'Elm',
      streetAddress: '1 Elm',
      city: 'Austin',
      state: 'Texas',
      zipCode: '78701',
      unit: null,
      monthlyRentCents: 1,
      isDecisionMakerPaying: false,
      decisionMakerDisplayName: 'L',
      incomeMultiplierThreshold: 3,
      criteriaRuleSetId: null,
      correlationId: null,
      webhookUrl: null,
      isInvitationDisabled: true,
      createdAt: START + id,
      expiryStart: START + id,
      completedAt: null,
      hasReport: false,
      reportExpired: false,
      screenings: [],
    });
    for (let i = 0; i < 60; i++) store.addScreeningGroup(screening(i, i % 2 === 0 ? 'even' : 'odd'));
    const page2 = queryScreeningGroups(store, new URLSearchParams({ page: '2' }), 'even');
    expect(page2.ok && page2.page.items.map((g) => g.id)).toEqual(
      Array.from({ length: 5 }, (_, i) => `s-${(25 + i) * 2}`),
    );
    expect(page2.ok && page2.page.totalCount).toBe(30);
    store.hideFromLists('s-0', 1000, () => 0);
    const lagged = queryScreeningGroups(store, new URLSearchParams({ page: '1' }), 'even');
    expect(lagged.ok && lagged.page.items[0]?.id).toBe('s-2');
    expect(lagged.ok && lagged.page.totalCount).toBe(29);
  });
});

describe('pageOfUnion', () => {
  it('returns the page of the merged lists within the range and their count', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 120 }),
        fc.array(fc.nat(2), { minLength: 120, maxLength: 120 }),
        fc.integer({ min: 0, max: 210 }),
        fc.integer({ min: 0, max: 210 }),
        fc.nat(130),
        fc.integer({ min: 0, max: 30 }),
        (values, owners, low, high, offset, size) => {
          const lists: number[][] = [[], [], []];
          values.forEach((value, i) => {
            lists[owners[i]!]!.push(value);
          });
          for (const list of lists) list.sort((a, b) => a - b);
          const inRange = [...values].sort((a, b) => a - b).filter((v) => v >= low && v < high);
          expect(pageOfUnion(lists, low, Math.max(low, high), offset, size)).toEqual({
            sequences: inRange.slice(offset, offset + size),
            total: inRange.length,
          });
        },
      ),
      { numRuns: 300, seed: 51 },
    );
  });

  it('lowerBound finds the first value at least the one asked for', () => {
    expect(lowerBound([1, 3, 3, 7], 3)).toBe(1);
    expect(lowerBound([1, 3, 3, 7], 4)).toBe(3);
    expect(lowerBound([1, 3, 3, 7], 8)).toBe(4);
    expect(lowerBound([], 0)).toBe(0);
  });
});
