/**
 * A correlation id reused for another household (a unit id, as the API's own reference uses): under
 * every ambiguous failure, `create` never resolves with the older group, never sends twice, and
 * leaves the older group untouched. On the mock (its time shared with the SDK through the test
 * clock) and on hostile servers this file writes.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type ApplicantGroup,
  GroupMayHaveBeenCreatedError,
  type VerificationClient,
} from '../../src/index.js';
import { createTestClock, type Fault, type MockServer } from '../../src/testing/index.js';
import { loadFixture } from '../fixtures/load.js';
import { groupCreateBody } from '../support/bodies.js';
import { recordingClock } from '../support/clock.js';
import { caught } from '../support/exposure.js';
import { serverWithClient } from '../support/http-server.js';
import { clientFor, mockWithClient } from '../support/mock-client.js';

const UNIT = 'PROP-123-UNIT-4B';
const CREATE = 'POST /api/v1/applicant_groups';
const POST_GROUPS = { method: 'POST', path: '/api/v1/applicant_groups' };
const DAY = 86_400_000;

describe('a reused correlation id on the mock', () => {
  let mock: MockServer;
  let client: VerificationClient;
  let former: ApplicantGroup;

  mockWithClient((pair) => ({ mock, client } = pair), {
    per: 'test',
    client: (server) => ({ clock: createTestClock(server.clock), timeout: 150, createGraceWindow: 5_000 }),
  });
  beforeEach(async () => {
    former = await client.applicantGroups.create(groupCreateBody('old.tenant@example.com', UNIT));
    // The old tenant applied a month ago.
    mock.clock.advance(30 * DAY);
  });

  /** The former group as it was: same applicants, one set of invitations. */
  function expectFormerUntouched() {
    const now = mock.groups.applicant().find((group) => group.id === former.id);
    expect(now?.applicants.map((applicant) => applicant.email)).toEqual(['old.tenant@example.com']);
    expect(mock.outbox.forGroup(former.id)).toHaveLength(2);
  }

  it.each<[string, Fault]>([
    ['5xx after commit', { status: 503, afterCommit: true }],
    ['reset after processing', { reset: 'after' }],
    ['timeout after the request was written', { delayAfterMs: 400 }],
    ['unreadable body after commit', { malformedJson: true }],
  ])('%s: resolves with the new group, sent once', async (_name, fault) => {
    mock.faults.next(1, fault, POST_GROUPS);
    const group = await client.applicantGroups.create(groupCreateBody('new.tenant@example.com', UNIT));
    expect(group.id).not.toBe(former.id);
    expect(group.applicants.map((applicant) => applicant.email)).toEqual(['new.tenant@example.com']);
    expect(mock.stats.count(CREATE)).toBe(2);
    expect(mock.groups.applicant()).toHaveLength(2);
    expectFormerUntouched();
  });

  it.each<[string, Fault]>([
    ['5xx before commit', { status: 503 }],
    ['reset before processing', { reset: 'before' }],
  ])('%s: GroupMayHaveBeenCreatedError, never the former group, nothing resent', async (_name, fault) => {
    mock.faults.next(1, fault, POST_GROUPS);
    const error = await caught(
      client.applicantGroups.create(groupCreateBody('new.tenant@example.com', UNIT)),
    );
    expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect((error as GroupMayHaveBeenCreatedError).correlationId).toBe(UNIT);
    expect(mock.stats.count(CREATE)).toBe(2);
    expect(mock.groups.applicant()).toHaveLength(1);
    expectFormerUntouched();
  });

  it('the same household a month later, 5xx before commit: the month-old group is not this create', async () => {
    mock.faults.next(1, { status: 503 }, POST_GROUPS);
    const error = await caught(
      client.applicantGroups.create(groupCreateBody('old.tenant@example.com', UNIT)),
    );
    expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect(mock.stats.count(CREATE)).toBe(2);
    expectFormerUntouched();
  });

  it('the lookup asks for every group under the id and keeps those the API stamped since the call began', async () => {
    mock.faults.next(1, { status: 503, afterCommit: true }, POST_GROUPS);
    const group = await client.applicantGroups.create(groupCreateBody('new.tenant@example.com', UNIT));
    const lookup = mock.stats.log().find((entry) => entry.method === 'GET');
    const query = new URL(lookup?.url ?? '', mock.url).searchParams;
    expect(query.get('correlation_id')).toBe(UNIT);
    // The bound is placed on the API's clock (its Date header), known only from the answer.
    expect(query.has('created_after')).toBe(false);
    expect(group.id).not.toBe(former.id);
    expect(mock.groups.applicant().map((held) => held.id)).toEqual([former.id, group.id]);
  });

  it.each([
    ['11 minutes ahead of', 11 * 60_000],
    ['11 minutes behind', -11 * 60_000],
  ])(
    'a client whose clock runs %s the API’s recovers its committed group, never the month-old one',
    async (_name, offset) => {
      const skewed = createTestClock(mock.clock);
      const ahead = clientFor(mock, {
        clock: { now: () => skewed.now() + offset, sleep: (ms, signal) => skewed.sleep(ms, signal) },
        timeout: 150,
        createGraceWindow: 5_000,
      });
      try {
        mock.faults.next(1, { status: 503, afterCommit: true }, POST_GROUPS);
        const group = await ahead.applicantGroups.create(groupCreateBody('new.tenant@example.com', UNIT));
        expect(group.id).not.toBe(former.id);
        expect(mock.stats.count(CREATE)).toBe(2);
        expect(mock.groups.applicant().map((held) => held.id)).toEqual([former.id, group.id]);
        // Not committed: the month-old group of the same id is still not this create's.
        mock.faults.next(1, { status: 503 }, POST_GROUPS);
        const error = await caught(
          ahead.applicantGroups.create(groupCreateBody('old.tenant@example.com', UNIT)),
        );
        expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
        expect(mock.stats.count(CREATE)).toBe(3);
        expectFormerUntouched();
      } finally {
        await ahead.close();
      }
    },
  );
});

describe('a reused correlation id on hostile servers', () => {
  const setup = serverWithClient({ createGraceWindow: 2_000 });
  const GROUPS = '/api/v1/applicant_groups';
  const fixture = loadFixture('applicant-group') as ApplicantGroup;
  const body = groupCreateBody('new.tenant@example.com', UNIT);
  /** A group under UNIT: the new household unless `emails` says otherwise, created `ageMs` ago. */
  const groupOf = (id: string, ageMs: number, emails = ['new.tenant@example.com']): ApplicantGroup => ({
    ...fixture,
    id,
    correlation_id: UNIT,
    monthly_rent_cents: 195_000,
    unit_number: '',
    created_at_timestamp: (Date.now() - ageMs) / 1000,
    applicants: emails.map((email, index) => ({
      ...(fixture.applicants[0] as ApplicantGroup['applicants'][0]),
      id: `a-${index}`,
      email,
    })),
  });
  const list = (groups: ApplicantGroup[], total = groups.length) => ({
    applicant_groups: groups,
    total_count: total,
  });

  it('a 503 and only other households (or this one, created before the call) listed: never returned', async () => {
    const listed = [
      groupOf('other-now', 0, ['someone.else@example.com']),
      groupOf('this-last-month', 30 * DAY),
      { ...groupOf('no-time', 0), created_at_timestamp: 0 },
    ];
    const { server, client } = await setup(
      {
        [`POST ${GROUPS}`]: () => ({ status: 503, body: { error: 'unavailable' } }),
        [`GET ${GROUPS}`]: () => ({ status: 200, body: list(listed) }),
      },
      { clock: recordingClock() },
    );
    const error = await caught(client.applicantGroups.create(body));
    expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect(server.to(GROUPS).filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('list lag: the new group shows on a later lookup, on the second page, beside the former: the newest match wins', async () => {
    const { server, client } = await setup(
      {
        [`POST ${GROUPS}`]: () => ({ status: 503, body: { error: 'unavailable' } }),
        [`GET ${GROUPS}`]: (request, count) => {
          const page = Number(request.query.get('page') ?? 1);
          const first = [groupOf('former', 30 * DAY, ['old.tenant@example.com'])];
          if (count < 3) return { status: 200, body: page === 1 ? list(first) : list([], 1) };
          const second = [groupOf('older-copy', 2_000), groupOf('new', 1_000)];
          return { status: 200, body: page === 1 ? list(first, 3) : list(second, 3) };
        },
      },
      { clock: recordingClock() },
    );
    const group = await client.applicantGroups.create(body);
    expect(group.id).toBe('new');
    expect(server.to(GROUPS).filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('a reset after the request was written and a lookup listing the former group: not returned, not resent', async () => {
    const { server, client } = await setup(
      {
        [`POST ${GROUPS}`]: () => ({ destroy: true }),
        [`GET ${GROUPS}`]: () => ({
          status: 200,
          body: list([groupOf('former', 30 * DAY, ['old.tenant@example.com'])]),
        }),
      },
      { clock: recordingClock() },
    );
    const error = await caught(client.applicantGroups.create(body));
    expect(error).toBeInstanceOf(GroupMayHaveBeenCreatedError);
    expect(server.to(GROUPS).filter((request) => request.method === 'POST')).toHaveLength(1);
  });
});
