/**
 * `applicantGroups.findDuplicates` against the mock (docs/fault-model.md, "A duplicate was
 * reported"): every household with more than one live group in a period, over every page; an
 * expired group beside a newer one (a re-invitation) is not a duplicate, nor are other households
 * under a reused correlation id; a bad period is refused before any I/O.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequestValidationError, type VerificationClient } from '../../src/index.js';
import { createMockServer, createTestClock, type MockServer } from '../../src/testing/index.js';
import { groupCreateBody } from '../support/bodies.js';
import { caught } from '../support/exposure.js';
import { clientFor } from '../support/mock-client.js';

const LIST = 'GET /api/v1/applicant_groups';
const DAY = 24 * 60 * 60_000;

describe('findDuplicates', () => {
  let mock: MockServer;
  let client: VerificationClient;

  beforeEach(async () => {
    // Two groups a page: the walk crosses pages.
    mock = await createMockServer({ pageSize: 2 });
    client = clientFor(mock, { clock: createTestClock(mock.clock) });
  });

  afterEach(async () => {
    await client.close();
    await mock.close();
  });

  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

  it('lists the households with two live groups, newest first; not re-invitations, not other households', async () => {
    const groups = client.applicantGroups;
    // A re-invitation: the first group expired, the household invited again.
    const lapsed = await groups.createOnce(groupCreateBody('bo@example.com', 'HH-REINVITED'));
    mock.clock.advance(15 * DAY);
    const reinvited = await groups.createOnce(groupCreateBody('bo@example.com', 'HH-REINVITED'), {
      reinviteExpired: true,
    });
    expect(reinvited.reinvitationOf).toBe(lapsed.group.id);
    const twiceBody = groupCreateBody('ana@example.com', 'HH-TWICE');
    const older = await groups.create(twiceBody);
    mock.clock.advance(1_000);
    const newer = await groups.create(twiceBody);
    // A reused correlation id: two households, one group each.
    await groups.create(groupCreateBody('cy@example.com', 'HH-REUSED'));
    await groups.create(groupCreateBody('di@example.com', 'HH-REUSED'));
    await groups.create(groupCreateBody('ed@example.com', 'HH-ONCE'));
    // A group without a correlation id is nobody's household.
    const { correlation_id: _, ...anonymous } = groupCreateBody('fa@example.com', 'unused');
    await groups.create(anonymous);
    await groups.create(anonymous);
    const before = mock.stats.count(LIST);

    const found = await groups.findDuplicates();
    expect(found).toEqual([
      {
        correlationId: 'HH-TWICE',
        groups: [
          { id: newer.id, createdAt: iso(newer.created_at_timestamp), status: newer.status },
          { id: older.id, createdAt: iso(older.created_at_timestamp), status: older.status },
        ],
      },
    ]);
    // Ten groups, two a page: every page read once.
    expect(mock.stats.count(LIST) - before).toBe(5);
  });

  it('a period: groups created outside it are not read', async () => {
    const body = groupCreateBody('ana@example.com', 'HH-PERIOD');
    const first = await client.applicantGroups.create(body);
    mock.clock.advance(10_000);
    const second = await client.applicantGroups.create(body);
    mock.clock.advance(10_000);
    const third = await client.applicantGroups.create(body);
    const inside = await client.applicantGroups.findDuplicates({
      createdAfter: Math.floor(first.created_at_timestamp) + 1,
      createdBefore: new Date(mock.clock.now() + 1_000),
    });
    expect(inside).toEqual([
      {
        correlationId: 'HH-PERIOD',
        groups: [expect.objectContaining({ id: third.id }), expect.objectContaining({ id: second.id })],
      },
    ]);
    const lastOnly = await client.applicantGroups.findDuplicates({
      createdAfter: Math.floor(second.created_at_timestamp) + 1,
    });
    expect(lastOnly).toEqual([]);
  });

  it('none: an empty list', async () => {
    await client.applicantGroups.create(groupCreateBody('ana@example.com', 'HH-1'));
    expect(await client.applicantGroups.findDuplicates({ createdAfter: 0 })).toEqual([]);
  });

  it('milliseconds or an invalid Date: RequestValidationError naming the field, nothing sent', async () => {
    const ms = await caught(client.applicantGroups.findDuplicates({ createdAfter: Date.now() }));
    expect(ms).toBeInstanceOf(RequestValidationError);
    expect(ms).toMatchObject({ issues: [expect.objectContaining({ path: 'createdAfter' })] });
    const invalid = await caught(
      client.applicantGroups.findDuplicates({ createdBefore: new Date(Number.NaN) }),
    );
    expect(invalid).toMatchObject({ issues: [expect.objectContaining({ path: 'createdBefore' })] });
    expect(mock.stats.count(LIST)).toBe(0);
  });
});
