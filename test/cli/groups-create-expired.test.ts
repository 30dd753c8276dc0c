/**
 * `groups create` and expired groups (docs/cli.md, "Expired groups and duplicates"): fifteen
 * days on, a rerun reports the households as `expired`, apart from those that exist, and sends
 * nothing; `--reinvite-expired` gives each a new group recorded as a re-invitation (results log
 * and journal), which no duplicate report counts; a household with two live groups is a possible
 * duplicate in the summary and on its row.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalLine } from '../../src/cli/commands/groups-create/journal.js';
import type { VerificationClient } from '../../src/index.js';
import { createMockServer, createTestClock, type MockServer } from '../../src/testing/index.js';
import { clientFor } from '../support/mock-client.js';
import { correlationIds, groupsByKey, householdBodies, runCli, tempDir, writeHouseholds } from './helpers.js';

const CREATE = 'POST /api/v1/applicant_groups';
const DAY = 24 * 60 * 60_000;

interface LogDocument {
  summary: Record<string, number>;
  possible_duplicates: number;
  reinvitations: number;
  results: Record<string, string | number>[];
}

describe('groups create: expired groups and duplicates', () => {
  let mock: MockServer;
  let dir: string;

  beforeEach(async () => {
    mock = await createMockServer();
    dir = tempDir();
  });

  afterEach(async () => {
    await mock.close();
  });

  const run = (args: string[]) =>
    runCli(['groups', 'create', '--decision-maker', 'Leasing', ...args], mock, {
      clock: createTestClock(mock.clock),
    });
  const readLog = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as LogDocument;

  it('15 days on: "3 expired", apart from existing, nothing sent; --reinvite-expired invites them again', async () => {
    const { path } = writeHouseholds(dir, 'office.csv', { households: 4 });
    const ids = await correlationIds(path);
    expect((await run(['--csv', path, '--log', join(dir, 'first.json')])).code).toBe(0);
    const original = groupsByKey(mock, ids);
    mock.clock.advance(15 * DAY);
    // U-4 was re-invited meanwhile by a script: its live group is the household's.
    const u4 = original.get('U-4')?.[0];
    if (!u4) throw new Error('U-4 has no group');
    await using sdk = disposable(clientFor(mock, { clock: createTestClock(mock.clock) }));
    const body = (await householdBodies(path)).get('U-4');
    if (!body) throw new Error('no body for U-4');
    const live = await sdk.client.applicantGroups.createOnce(body, { reinviteExpired: true });
    expect(live.reinvitationOf).toBe(u4.id);

    const rerun = await run(['--csv', path, '--log', join(dir, 'rerun.json')]);
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toContain('0 created, 1 already existed, 3 expired, 0 failed, of 4 household(s).');
    expect(rerun.stderr).toContain(
      '3 household(s) have only expired groups (not completed within 14 days): they were not invited again',
    );
    expect(rerun.stderr).not.toContain('possible duplicate');
    const log = readLog('rerun.json');
    expect(log.summary).toMatchObject({ created: 0, skipped_existing: 1, expired: 3 });
    expect(log.possible_duplicates).toBe(0);
    expect(
      log.results.map((row) => [row.household_key, row.status, row.group_id, row.reinvitation_of]),
    ).toEqual([
      ['U-1', 'expired', original.get('U-1')?.[0]?.id, ''],
      ['U-2', 'expired', original.get('U-2')?.[0]?.id, ''],
      ['U-3', 'expired', original.get('U-3')?.[0]?.id, ''],
      ['U-4', 'skipped_existing', live.group.id, ''],
    ]);
    // Nothing sent by the rerun: four creates, and the one re-invitation made above.
    expect(mock.stats.count(CREATE)).toBe(5);

    const reinvite = await run(['--csv', path, '--reinvite-expired', '--log', join(dir, 'reinvite.json')]);
    expect(reinvite.code).toBe(0);
    expect(reinvite.stderr).toContain(
      '3 created (3 re-invitation(s) of expired groups), 1 already existed, 0 failed, of 4 household(s).',
    );
    const reinvited = readLog('reinvite.json');
    expect(reinvited.reinvitations).toBe(3);
    expect(reinvited.possible_duplicates).toBe(0);
    const now = groupsByKey(mock, ids);
    for (const key of ['U-1', 'U-2', 'U-3']) {
      const row = reinvited.results.find((result) => result.household_key === key);
      const groups = now.get(key) ?? [];
      expect(groups.map((group) => group.is_expired).sort()).toEqual([false, true]);
      const fresh = groups.find((group) => !group.is_expired);
      expect(row).toMatchObject({
        status: 'created',
        group_id: fresh?.id,
        reinvitation_of: original.get(key)?.[0]?.id,
      });
      // Invited again: the new group's own invitations.
      expect(mock.outbox.forGroup(fresh?.id ?? '').length).toBeGreaterThan(0);
    }
    // The journal records each re-invitation.
    const journal = readFileSync(join(dir, `office.${mock.clientId}.journal.jsonl`), 'utf8');
    const settled = journal
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.type === 'settled' && entry.reinvitation_of !== undefined);
    expect(settled.map((entry) => [entry.household_key, entry.reinvitation_of])).toEqual(
      expect.arrayContaining([
        ['U-1', original.get('U-1')?.[0]?.id],
        ['U-2', original.get('U-2')?.[0]?.id],
        ['U-3', original.get('U-3')?.[0]?.id],
      ]),
    );
    expect(settled).toHaveLength(3);

    // From now on: every household already exists, nothing sent, no duplicate anywhere.
    const after = await run(['--csv', path, '--reinvite-expired']);
    expect(after.stderr).toContain('0 created, 4 already existed, 0 failed, of 4 household(s).');
    expect(mock.stats.count(CREATE)).toBe(8);
    const duplicates = await runCli(['groups', 'duplicates', '--since', '20d'], mock, {
      clock: createTestClock(mock.clock),
    });
    expect(duplicates.code).toBe(0);
  });

  it('a re-invitation a killed run sent is found live, not called expired', async () => {
    const { path } = writeHouseholds(dir, 'killed.csv', { households: 2 });
    const ids = await correlationIds(path);
    expect((await run(['--csv', path])).code).toBe(0);
    const expiredU1 = groupsByKey(mock, ids).get('U-1')?.[0];
    mock.clock.advance(15 * DAY);
    // A --reinvite-expired run was killed after journaling U-1's create; its group was committed.
    const body = (await householdBodies(path)).get('U-1');
    if (!body) throw new Error('no body for U-1');
    appendFileSync(
      join(dir, `killed.${mock.clientId}.journal.jsonl`),
      `${journalLine({
        type: 'sending',
        at: new Date(mock.clock.now()).toISOString(),
        household_key: 'U-1',
        correlation_id: ids.get('U-1') ?? '',
        batch_id: '',
        line: 2,
      })}\n`,
    );
    await using sdk = disposable(clientFor(mock, { clock: createTestClock(mock.clock) }));
    const reinvited = await sdk.client.applicantGroups.createOnce(body, { reinviteExpired: true });
    expect(reinvited.reinvitationOf).toBe(expiredU1?.id);
    const rerun = await run(['--csv', path, '--log', join(dir, 'killed.json')]);
    expect(rerun.stderr).toContain('0 created, 1 already existed, 1 expired, 0 failed, of 2 household(s).');
    expect(
      readLog('killed.json').results.map((row) => [row.household_key, row.status, row.group_id]),
    ).toEqual([
      ['U-1', 'skipped_existing', reinvited.group.id],
      ['U-2', 'expired', groupsByKey(mock, ids).get('U-2')?.[0]?.id],
    ]);
  });

  it('a household with two live groups: "1 possible duplicate(s)", the other group on its row', async () => {
    const { path } = writeHouseholds(dir, 'twice.csv', { households: 2 });
    const ids = await correlationIds(path);
    const body = (await householdBodies(path)).get('U-1');
    if (!body) throw new Error('no body for U-1');
    // Created twice by writers off the command's gate.
    await using sdk = disposable(clientFor(mock));
    const first = await sdk.client.applicantGroups.create(body);
    const second = await sdk.client.applicantGroups.create(body);
    const result = await run(['--csv', path, '--log', join(dir, 'twice.json')]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      '1 created, 1 already existed, 1 possible duplicate(s), 0 failed, of 2 household(s).',
    );
    expect(result.stderr).toContain(`2 groups under its correlation id ${ids.get('U-1')}`);
    const log = readLog('twice.json');
    expect(log.possible_duplicates).toBe(1);
    const row = log.results.find((entry) => entry.household_key === 'U-1');
    expect(row?.status).toBe('skipped_existing');
    // The group the run counts, and the other live one on its row.
    expect([row?.group_id, row?.possible_duplicate].sort()).toEqual([first.id, second.id].sort());
  });
});

/** A client closed when the test's `await using` scope ends. */
function disposable(client: VerificationClient) {
  return { client, [Symbol.asyncDispose]: () => client.close() };
}
