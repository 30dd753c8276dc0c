/**
 * The integrator's helpers against the mock over loopback: `householdReport`, `affordability` on
 * the mock's reports, and `sync` with no webhooks at all (every change found by polling).
 */
import { describe, expect, it } from 'vitest';
import {
  type ApplicantGroupCreateParams,
  affordability,
  type GroupChange,
  type GroupStore,
  isIncomeReport,
  MemoryGroupStore,
  ReportExpiredError,
  type VerificationClient,
} from '../../src/index.js';
import { createMockServer, type MockServer, REQUEST_EXPIRY_MS } from '../../src/testing/index.js';
import { mockWithClient } from '../support/mock-client.js';

let mock: MockServer;
let client: VerificationClient;
// A small page size, so a pass walks several pages.
mockWithClient((pair) => ({ mock, client } = pair), { mock: { seed: 25, pageSize: 2 }, reset: true });

function household(tag: string, people: number, rent = 2400): ApplicantGroupCreateParams {
  return {
    applicants: Array.from({ length: people }, (_, i) => ({
      first_name: `P${i}`,
      last_name: tag,
      email: `p${i}.${tag}@example.com`,
    })),
    property: {
      name: `House ${tag}`,
      street_address: '1 Main St',
      city: 'Boston',
      state: 'Massachusetts',
      zip_code: '02110',
    },
    decision_maker_display_name: 'Leasing',
    monthly_rent: rent,
    correlation_id: `lease-${tag}`,
  };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const GROUPS = 'GET /api/v1/applicant_groups';

describe('applicantGroups.householdReport', () => {
  it('is undefined until every applicant completed, then the newest household report', async () => {
    const group = await client.applicantGroups.create(household('hr', 2));
    const [ada, bob] = group.applicants.map((a) => a.id) as [string, string];
    expect(await client.applicantGroups.householdReport(group.id)).toBeUndefined();
    mock.applicants.complete(ada);
    expect(await client.applicantGroups.householdReport(group.id)).toBeUndefined();
    mock.applicants.complete(bob);
    const first = await client.applicantGroups.householdReport(group.id);
    const households = mock.reports.forGroup(group.id).filter((r) => r.kind === 'household');
    expect(households).toHaveLength(1);
    expect(first?.report_id).toBe(households[0]?.id);
    expect(first?.applicant_id ?? null).toBeNull();

    // Re-opened and completed again an hour later: a second household report, and it is current.
    mock.clock.advance(HOUR);
    mock.applicants.reopen(bob);
    mock.applicants.complete(bob);
    const second = await client.applicantGroups.householdReport(group.id);
    const now = mock.reports.forGroup(group.id).filter((r) => r.kind === 'household');
    expect(now).toHaveLength(2);
    expect(second?.report_id).toBe(now[1]?.id);

    // The current one expired: the older report is not returned in its place.
    mock.reports.expire(now[1]?.id ?? '');
    await expect(client.applicantGroups.householdReport(group.id)).rejects.toBeInstanceOf(ReportExpiredError);
  });
});

describe('affordability on the mock reports', () => {
  it('matches the report figures, its criteria rule and the rent', async () => {
    const group = await client.applicantGroups.create(household('aff', 2, 1800));
    for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
    const report = await client.applicantGroups.householdReport(group.id);
    if (!report || !isIncomeReport(report)) throw new Error('no household income report');
    const result = affordability(report);

    const { data } = report;
    const rule = data.criteria_rule_results?.[0];
    expect(rule?.criteria_used).toBe('three_month_avg_monthly');
    // Household: the report's recurring three-month average, dollars to cents.
    const dollars = data.recurring?.three_month_avg_monthly;
    if (typeof dollars !== 'number') throw new Error('the mock wrote no household figure');
    const cents = Math.round(dollars * 100);
    expect(result.householdMonthlyIncomeCents).toBe(cents);
    // Rent: $1,800 sent on create, 180000 cents in the report.
    expect(result.rentCents).toBe(180000);
    expect(result.ratio).toBeCloseTo(cents / 180000, 12);
    expect(result.threshold).toBe(rule?.multiplier_threshold);
    expect(result.passed).toBe(cents >= 2.5 * 180000);
    // The mock's own rule agrees with the SDK's arithmetic.
    expect(result.passed).toBe(rule?.result === 'passed');
    // Each applicant: their entry's recurring three-month average.
    expect(result.applicants.map((a) => a.monthlyIncomeCents)).toEqual(
      (data.reports ?? []).map((entry) => {
        const value = entry.recurring?.three_month_avg_monthly;
        return typeof value === 'number' ? Math.round(value * 100) : null;
      }),
    );
  });

  it('gives income_unknown reasons for an applicant who shares a bank', async () => {
    const group = await client.applicantGroups.create(household('share', 1, 2000));
    mock.applicants.complete(group.applicants[0]?.id ?? '', 'share_bank');
    const report = await client.applicantGroups.householdReport(group.id);
    if (!report) throw new Error('no household report');
    const result = affordability(report);
    // share_bank carries no income data: the mock writes null averages, never zeros.
    expect(result.householdMonthlyIncomeCents).toBeNull();
    expect(result.reasons.map((r) => r.code)).toEqual(['income_unknown', 'applicant_income_unknown']);
  });
});

/** A change as a short string, so a pass's output reads as a list. */
function describeChange(change: GroupChange, names: Map<string, string>): string {
  const name = names.get(change.group.id) ?? change.group.id;
  switch (change.type) {
    case 'added':
      return `added ${name}`;
    case 'status_changed':
      return `${name} ${change.previous.status} -> ${change.group.status}`;
    case 'expired':
      return `expired ${name}`;
    case 'report_added':
      return `${change.scope} report ${name}`;
  }
}

describe('applicantGroups.sync with webhooks dropped', () => {
  const store = () => new MemoryGroupStore();
  const options = { now: () => mock.clock.now() };

  async function pass(s: MemoryGroupStore, names: Map<string, string>): Promise<string[]> {
    const out: string[] = [];
    for await (const change of client.applicantGroups.sync(s, options))
      out.push(describeChange(change, names));
    return out;
  }

  /** A new store, and a new one-applicant group `tag` (the name its changes print under). */
  async function oneGroup(tag: string) {
    const s = store();
    const names = new Map<string, string>();
    const group = await client.applicantGroups.create(household(tag, 1));
    names.set(group.id, tag);
    return { s, names, group, applicant: group.applicants[0]?.id ?? '' };
  }

  /** `oneGroup`, started, then left to expire: the store has seen the expiry. */
  async function expiredGroup(tag: string) {
    const tracked = await oneGroup(tag);
    mock.applicants.start(tracked.applicant);
    await pass(tracked.s, tracked.names);
    mock.clock.advance(REQUEST_EXPIRY_MS + 1);
    expect(await pass(tracked.s, tracked.names)).toEqual([`expired ${tag}`]);
    return tracked;
  }

  it('yields every new group, completion, expiry and report exactly once', async () => {
    const s = store();
    const names = new Map<string, string>();
    // Every webhook of these groups is lost: the receiver would never hear of any change.
    mock.webhookFaults.next(1_000, { drop: true });
    const make = async (tag: string, people: number) => {
      const group = await client.applicantGroups.create({
        ...household(tag, people),
        webhook_url: 'http://127.0.0.1:9/webhooks',
      });
      names.set(group.id, tag);
      return group;
    };
    const a = await make('A', 1);
    const b = await make('B', 2);
    await make('C', 1);
    expect((await pass(s, names)).sort()).toEqual(['added A', 'added B', 'added C']);
    expect(await pass(s, names)).toEqual([]);

    mock.applicants.complete(a.applicants[0]?.id ?? '');
    mock.applicants.start(b.applicants[0]?.id ?? '');
    expect((await pass(s, names)).sort()).toEqual([
      'A not_started -> completed',
      'B not_started -> in_progress',
      'household report A',
      'individual report A',
    ]);
    expect(await pass(s, names)).toEqual([]);

    // Fourteen days on: B and C expire; A completed in time and does not.
    mock.clock.advance(REQUEST_EXPIRY_MS + 1);
    expect((await pass(s, names)).sort()).toEqual(['expired B', 'expired C']);
    expect(await pass(s, names)).toEqual([]);

    // A re-opened and completed again: two status changes the pass sees as one (completed to
    // completed is no change), and two new reports.
    mock.applicants.reopen(a.applicants[0]?.id ?? '');
    expect(await pass(s, names)).toEqual(['A completed -> in_progress']);
    mock.clock.advance(HOUR);
    mock.applicants.complete(a.applicants[0]?.id ?? '');
    expect((await pass(s, names)).sort()).toEqual([
      'A in_progress -> completed',
      'household report A',
      'individual report A',
    ]);
    expect(await pass(s, names)).toEqual([]);
    // Every change above came from the list and reports endpoints: each event was dropped.
    const deliveries = mock.deliveries.all();
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.every((d) => d.dropped === true && d.attempts === 0)).toBe(true);
  });

  it('reports a group that expires while the pass runs', async () => {
    const s = store();
    const names = new Map<string, string>();
    const old = await client.applicantGroups.create(household('old', 1));
    names.set(old.id, 'old');
    expect(await pass(s, names)).toEqual(['added old']);
    // A minute before the old group's deadline, a new group is created.
    mock.clock.advance(REQUEST_EXPIRY_MS - 60_000);
    const fresh = await client.applicantGroups.create(household('fresh', 1));
    names.set(fresh.id, 'fresh');
    const seen: string[] = [];
    for await (const change of client.applicantGroups.sync(s, options)) {
      seen.push(describeChange(change, names));
      // Handling the new group takes two minutes: meanwhile the old group's 14 days end.
      if (change.type === 'added') mock.clock.advance(2 * 60_000);
    }
    expect(seen.sort()).toEqual(['added fresh', 'expired old']);
    expect(await pass(s, names)).toEqual([]);
  });

  it('sees an expiry after the group left the list window (a pass missed for weeks)', async () => {
    const s = store();
    const names = new Map<string, string>();
    const g = await client.applicantGroups.create(household('gone', 1));
    names.set(g.id, 'gone');
    expect(await pass(s, names)).toEqual(['added gone']);
    mock.clock.advance(40 * 24 * HOUR);
    expect(await pass(s, names)).toEqual(['expired gone']);
    expect(s.live()).toEqual([]);
  });

  it('a consumer that fails on a change sees it again in the next pass', async () => {
    const s = store();
    const names = new Map<string, string>();
    const g = await client.applicantGroups.create(household('crash', 1));
    names.set(g.id, 'crash');
    await pass(s, names);
    mock.applicants.complete(g.applicants[0]?.id ?? '');
    const handled: string[] = [];
    await expect(
      (async () => {
        for await (const change of client.applicantGroups.sync(s, options)) {
          const line = describeChange(change, names);
          if (change.type === 'report_added') throw new Error(`crashed on ${line}`);
          handled.push(line);
        }
      })(),
    ).rejects.toThrow(/crashed on individual report crash/);
    expect(handled).toEqual(['crash not_started -> completed']);
    // The status change was recorded; the report that crashed comes again, then the household one.
    expect(await pass(s, names)).toEqual(['individual report crash', 'household report crash']);
    expect(await pass(s, names)).toEqual([]);
  });

  it('a pass reads the groups of the last 16 days (the 14-day expiry and a 2-day margin), not the whole history', async () => {
    const names = new Map<string, string>();
    const old = await client.applicantGroups.create(household('old', 1));
    names.set(old.id, 'old');
    mock.applicants.complete(old.applicants[0]?.id ?? '');
    mock.clock.advance(2 * DAY);
    const recent = await client.applicantGroups.create(household('recent', 1));
    names.set(recent.id, 'recent');
    mock.clock.advance(15 * DAY);
    // A new store: 'old' (17 days) is out of the window, 'recent' (15 days) inside it.
    expect(await pass(store(), names)).toEqual(['added recent']);
    // Without the margin the window is the 14 days alone.
    const seen: string[] = [];
    for await (const change of client.applicantGroups.sync(store(), { ...options, marginMs: 0 }))
      seen.push(describeChange(change, names));
    expect(seen).toEqual([]);
  });

  it.each([
    ['a clock', () => mock.clock],
    ['a Date', () => new Date(mock.clock.now())],
    ['epoch milliseconds', () => mock.clock.now()],
  ])('takes now as %s, as affordability does: the window is read from it', async (_form, nowOf) => {
    const names = new Map<string, string>();
    const group = await client.applicantGroups.create(household('now-forms', 1));
    names.set(group.id, 'now-forms');
    mock.clock.advance(15 * DAY);
    // 15 days on: inside the 16-day window counted from the given now.
    const seen: string[] = [];
    for await (const change of client.applicantGroups.sync(store(), { now: nowOf() })) {
      if (change.group.id === group.id) seen.push(describeChange(change, names));
    }
    expect(seen).toEqual(['added now-forms']);
    // Counted from a now 3 days further on, the group (18 days old) is out of the window.
    const later = mock.clock.now() + 3 * DAY;
    const none: string[] = [];
    for await (const change of client.applicantGroups.sync(store(), { now: later }))
      if (change.group.id === group.id) none.push(describeChange(change, names));
    expect(none).toEqual([]);
  });

  it('refuses a now that is no time before any request, naming the option', async () => {
    const before = mock.stats.count();
    const walk = async () => {
      for await (const _ of client.applicantGroups.sync(store(), { now: 'today' as unknown as number }))
        void _;
    };
    await expect(walk()).rejects.toThrow(/sync: now must be a Date, epoch milliseconds, a clock/);
    expect(mock.stats.count()).toBe(before);
  });

  it('a group the store saw live that the API no longer finds is skipped, and the pass goes on', async () => {
    const s = store();
    const names = new Map<string, string>();
    const kept = await client.applicantGroups.create(household('kept', 1));
    names.set(kept.id, 'kept');
    s.put({
      id: 'grp_not_on_this_account',
      status: 'in_progress',
      is_expired: false,
      created_at_timestamp: Math.floor(mock.clock.now() / 1000) - 20 * 24 * 3600,
      correlation_id: null,
      verification_ids: [],
      report_ids: [],
      progress: '',
    });
    expect(await pass(s, names)).toEqual(['added kept']);
    expect(s.get('grp_not_on_this_account')?.status).toBe('in_progress');
  });

  it('a group that starts and expires between two passes reports the status change and the expiry, once each', async () => {
    const { s, names, group: g, applicant } = await oneGroup('late');
    expect(await pass(s, names)).toEqual(['added late']);
    mock.applicants.start(applicant);
    mock.clock.advance(REQUEST_EXPIRY_MS + 1);
    expect(await pass(s, names)).toEqual(['late not_started -> in_progress', 'expired late']);
    expect(s.get(g.id)).toMatchObject({ status: 'in_progress', is_expired: true });
    expect(await pass(s, names)).toEqual([]);
  });

  it('an expired group that completes late reports the status change, never a second expiry', async () => {
    const { s, names, group: g, applicant } = await expiredGroup('slow');
    // Completed after the deadline: the API keeps it expired (docs/wire-contract.md §8).
    mock.applicants.complete(applicant);
    expect((await pass(s, names)).sort()).toEqual([
      'household report slow',
      'individual report slow',
      'slow in_progress -> completed',
    ]);
    expect(s.get(g.id)).toMatchObject({ status: 'completed', is_expired: true });
    expect(await pass(s, names)).toEqual([]);
  });

  it('an expired group re-opened under the same status is reported live again, and its new expiry too', async () => {
    const { s, names, group: g, applicant } = await expiredGroup('again');
    // Completed late and re-opened before the next pass: in progress as before, live again.
    mock.applicants.complete(applicant);
    mock.applicants.reopen(applicant);
    const changes: GroupChange[] = [];
    for await (const change of client.applicantGroups.sync(s, options)) changes.push(change);
    const reopened = changes.filter((change) => change.type === 'status_changed');
    expect(reopened).toHaveLength(1);
    expect(reopened[0]).toMatchObject({
      group: { id: g.id, status: 'in_progress', is_expired: false },
      previous: { status: 'in_progress', is_expired: true },
    });
    expect(changes.some((change) => change.type === 'expired')).toBe(false);
    expect(s.get(g.id)).toMatchObject({ status: 'in_progress', is_expired: false });
    expect(s.live().map((snapshot) => snapshot.id)).toEqual([g.id]);
    expect(await pass(s, names)).toEqual([]);
    mock.clock.advance(REQUEST_EXPIRY_MS + 1);
    expect(await pass(s, names)).toEqual(['expired again']);
  });

  it('a pass over groups that did not move costs the list pages alone: no reports, no group read one by one', async () => {
    const s = store();
    const names = new Map<string, string>();
    const waiting = await client.applicantGroups.create(household('waiting', 1));
    names.set(waiting.id, 'waiting');
    mock.stats.reset();
    // A group that has not started has no reports to read.
    expect(await pass(s, names)).toEqual(['added waiting']);
    expect(mock.stats.routes()).toEqual({ [GROUPS]: 1 });
    const started = await client.applicantGroups.create(household('started', 2));
    names.set(started.id, 'started');
    mock.applicants.start(started.applicants[0]?.id ?? '');
    const done = await client.applicantGroups.create(household('done', 1));
    names.set(done.id, 'done');
    mock.applicants.complete(done.applicants[0]?.id ?? '');
    expect((await pass(s, names)).sort()).toEqual([
      'added done',
      'added started',
      'household report done',
      'individual report done',
    ]);
    mock.stats.reset();
    expect(await pass(s, names)).toEqual([]);
    // Three groups, two a page: two list requests, each within the window.
    expect(mock.stats.routes()).toEqual({ [GROUPS]: 2 });
    expect(mock.stats.log().every((entry) => /created_after=\d+/.test(entry.url))).toBe(true);
    expect(mock.stats.log().some((entry) => entry.url.includes('created_before'))).toBe(false);
  });

  it('reads the reports again when an applicant re-opens and completes between two passes', async () => {
    const { s, names, applicant } = await oneGroup('redo');
    mock.applicants.complete(applicant);
    expect((await pass(s, names)).sort()).toEqual([
      'added redo',
      'household report redo',
      'individual report redo',
    ]);
    mock.clock.advance(HOUR);
    mock.applicants.reopen(applicant);
    mock.clock.advance(HOUR);
    mock.applicants.complete(applicant);
    // Completed before and after: only the applicant's update time moved, and two new reports exist.
    expect((await pass(s, names)).sort()).toEqual(['household report redo', 'individual report redo']);
  });

  it('reads a group that left the list window with one request narrowed to its creation time', async () => {
    const s = store();
    const names = new Map<string, string>();
    const g = await client.applicantGroups.create(household('far', 1));
    names.set(g.id, 'far');
    for (let i = 0; i < 4; i++) {
      mock.clock.advance(10_000);
      await client.applicantGroups.create(household(`other${i}`, 1));
    }
    await pass(s, new Map());
    mock.clock.advance(40 * 24 * HOUR);
    mock.stats.reset();
    expect(await pass(s, names)).toContain('expired far');
    const narrowed = mock.stats
      .log()
      .filter((entry) => entry.url.includes('created_before'))
      .map((entry) => entry.url);
    expect(narrowed.length).toBe(5);
    expect(mock.stats.count(GROUPS)).toBe(1 + 5);
  });

  it('refuses a margin that is negative or not a number, before any request', async () => {
    mock.stats.reset();
    for (const marginMs of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const pass = client.applicantGroups.sync(store(), { ...options, marginMs });
      await expect(pass.next()).rejects.toThrow(RangeError);
    }
    expect(mock.stats.count()).toBe(0);
  });

  it('records what each group looks like, verifications included', async () => {
    const s = store();
    const g = await client.applicantGroups.create(household('snap', 2));
    await pass(s, new Map());
    const verifications = g.applicants.flatMap((a) => (a.verifications ?? []).map((v) => v.id));
    expect(verifications.length).toBeGreaterThan(0);
    for (const id of verifications) expect(s.groupOfVerification(id)).toBe(g.id);
    expect(s.get(g.id)).toMatchObject({
      id: g.id,
      status: 'not_started',
      is_expired: false,
      correlation_id: 'lease-snap',
      report_ids: [],
    });
  });
});

describe('applicantGroups.syncEvent: a webhook as a hint', () => {
  const options = { now: () => mock.clock.now() };
  async function changes(event: Parameters<typeof client.applicantGroups.syncEvent>[0], s: MemoryGroupStore) {
    const out: GroupChange[] = [];
    for await (const change of client.applicantGroups.syncEvent(event, s, options)) out.push(change);
    return out;
  }

  it('a late or repeated event yields nothing and never rolls the status back', async () => {
    const s = new MemoryGroupStore();
    const group = await client.applicantGroups.create(household('late', 1));
    const verificationId = group.applicants[0]?.verifications?.[0]?.id ?? '';
    mock.applicants.complete(group.applicants[0]?.id ?? '');
    // The group is unknown to the store: the first event runs a sync pass that records it.
    const reportId = mock.reports.forGroup(group.id)[0]?.id ?? '';
    const first = await changes(
      { code: 'REPORT_READY', applicant_group_id: group.id, report_id: reportId, report_type: 'income' },
      s,
    );
    expect(first.map((c) => c.type)).toEqual(['added', 'report_added', 'report_added']);
    expect(s.get(group.id)?.status).toBe('completed');
    // VERIFICATION_STARTED arriving last, and the REPORT_READY again: nothing changes.
    expect(await changes({ code: 'VERIFICATION_STARTED', verification_id: verificationId }, s)).toEqual([]);
    expect(
      await changes(
        { code: 'REPORT_READY', applicant_group_id: group.id, report_id: reportId, report_type: 'income' },
        s,
      ),
    ).toEqual([]);
    expect(s.get(group.id)?.status).toBe('completed');
    // A re-open is real news, whichever event points at it.
    mock.applicants.reopen(group.applicants[0]?.id ?? '');
    const reopened = await changes(
      { code: 'VERIFICATION_COMPLETED', verification_id: verificationId, reason_completed: 'finished' },
      s,
    );
    expect(
      reopened.map((c) =>
        c.type === 'status_changed' ? `${c.previous.status} -> ${c.group.status}` : c.type,
      ),
    ).toEqual(['completed -> in_progress']);
  });

  it('an event for a group the store knows costs one read narrowed to that group', async () => {
    const s = new MemoryGroupStore();
    const group = await client.applicantGroups.create(household('known', 1));
    const verificationId = group.applicants[0]?.verifications?.[0]?.id ?? '';
    expect((await changes({ code: 'VERIFICATION_STARTED', verification_id: verificationId }, s)).length).toBe(
      1,
    );
    mock.applicants.start(group.applicants[0]?.id ?? '');
    mock.stats.reset();
    const news = await changes({ code: 'VERIFICATION_STARTED', verification_id: verificationId }, s);
    expect(news.map((change) => change.type)).toEqual(['status_changed']);
    const reads = mock.stats.log().filter((entry) => entry.route === GROUPS);
    expect(reads).toHaveLength(1);
    expect(reads[0]?.url).toContain('created_before');
  });

  it('an event for a group the API no longer has yields nothing', async () => {
    const s = new MemoryGroupStore();
    s.put({
      id: 'grp_deleted',
      status: 'in_progress',
      is_expired: false,
      created_at_timestamp: Math.floor(mock.clock.now() / 1000) - 3600,
      correlation_id: null,
      verification_ids: ['ver_of_a_deleted_group'],
      report_ids: [],
      progress: '',
    });
    expect(
      await changes({ code: 'VERIFICATION_STARTED', verification_id: 'ver_of_a_deleted_group' }, s),
    ).toEqual([]);
    expect(s.get('grp_deleted')?.status).toBe('in_progress');
  });

  it('ignores screening-group events and unknown codes', async () => {
    const s = new MemoryGroupStore();
    await client.applicantGroups.create(household('other', 1));
    expect(await changes({ code: 'SCREENING_GROUP_COMPLETED', screening_group_id: 'x' }, s)).toEqual([]);
    expect(await changes({ code: 'SOMETHING_NEW' }, s)).toEqual([]);
    expect(s.all()).toEqual([]);
  });
});

describe('MemoryGroupStore', () => {
  const snapshot = (id: string, status: string, isExpired: boolean) => ({
    id,
    status,
    is_expired: isExpired,
    created_at_timestamp: 1_767_225_600,
    correlation_id: null,
    verification_ids: [`ver-${id}`],
    report_ids: [],
    progress: '',
  });

  it('keeps copies: what a caller does to a snapshot it read changes nothing stored', () => {
    const s = new MemoryGroupStore();
    s.put(snapshot('a', 'in_progress', false));
    const read = s.get('a');
    read?.report_ids.push('rep-1');
    if (read) read.status = 'completed';
    const listed = s.all()[0];
    if (listed) listed.status = 'completed';
    expect(s.get('a')).toEqual(snapshot('a', 'in_progress', false));
    expect(s.get('unknown')).toBeUndefined();
    expect(s.groupOfVerification('ver-a')).toBe('a');
  });

  it('live() leaves out completed and expired groups; all() has every one, oldest first', () => {
    const s = new MemoryGroupStore();
    s.put(snapshot('live', 'in_progress', false));
    s.put(snapshot('done', 'completed', false));
    s.put(snapshot('lapsed', 'in_progress', true));
    s.put(snapshot('new', 'not_started', false));
    expect(s.live().map((group) => group.id)).toEqual(['live', 'new']);
    expect(s.all().map((group) => group.id)).toEqual(['live', 'done', 'lapsed', 'new']);
  });

  it('keeps each account’s groups apart; read without an account, it looks across them all', () => {
    const s = new MemoryGroupStore();
    s.put(snapshot('a1', 'in_progress', false), 'landlord-a');
    s.put(snapshot('b1', 'in_progress', false), 'landlord-b');
    s.put(snapshot('b2', 'completed', false), 'landlord-b');
    expect(s.get('a1', 'landlord-a')?.id).toBe('a1');
    expect(s.get('a1', 'landlord-b')).toBeUndefined();
    expect(s.get('b1', 'landlord-c')).toBeUndefined();
    expect(s.get('b1')?.id).toBe('b1');
    expect(s.live('landlord-b').map((group) => group.id)).toEqual(['b1']);
    expect(s.live('landlord-c')).toEqual([]);
    expect(s.live().map((group) => group.id)).toEqual(['a1', 'b1']);
    expect(s.groupOfVerification('ver-b1', 'landlord-b')).toBe('b1');
    expect(s.groupOfVerification('ver-b1', 'landlord-a')).toBeUndefined();
    expect(s.groupOfVerification('ver-b2')).toBe('b2');
    expect(s.groupOfVerification('ver-none')).toBeUndefined();
    expect(s.all('landlord-b').map((group) => group.id)).toEqual(['b1', 'b2']);
    expect(s.all('landlord-c')).toEqual([]);
    expect(s.all().map((group) => group.id)).toEqual(['a1', 'b1', 'b2']);
  });
});

describe('one sync store for several accounts', () => {
  it('each account’s sync sees and records its own groups only, under its client id', async () => {
    const accounts = [
      { clientId: 'landlord-a', secretKey: 'sk-landlord-a' },
      { clientId: 'landlord-b', secretKey: 'sk-landlord-b' },
    ];
    const shared = await createMockServer({ seed: 26, accounts });
    try {
      const root = shared.client({ account: 'landlord-a' });
      const other = root.withOptions(accounts[1] as (typeof accounts)[number]);
      const a = await root.applicantGroups.create(household('a', 1));
      const b = await other.applicantGroups.create(household('b', 1));
      const calls: string[] = [];
      const memory = new MemoryGroupStore();
      const store: GroupStore = {
        get: (id, account) => {
          calls.push(`get ${account}`);
          return memory.get(id, account);
        },
        put: (snapshot, account) => {
          calls.push(`put ${account}`);
          memory.put(snapshot, account);
        },
        live: (account) => {
          calls.push(`live ${account}`);
          return memory.live(account);
        },
        groupOfVerification: (id, account) => memory.groupOfVerification(id, account),
      };
      const changes = async (client: VerificationClient) => {
        const seen: string[] = [];
        for await (const change of client.applicantGroups.sync(store))
          seen.push(`${change.type} ${change.group.id}`);
        return seen;
      };
      expect(await changes(root)).toEqual([`added ${a.id}`]);
      expect(await changes(other)).toEqual([`added ${b.id}`]);
      expect(new Set(calls)).toEqual(
        new Set([
          'get landlord-a',
          'put landlord-a',
          'live landlord-a',
          'get landlord-b',
          'put landlord-b',
          'live landlord-b',
        ]),
      );
      expect(memory.all('landlord-a').map((g) => g.id)).toEqual([a.id]);
      expect(memory.all('landlord-b').map((g) => g.id)).toEqual([b.id]);
      // An event of account b's group, taken as a hint by account a's client, changes nothing of a's.
      const [verification] = b.applicants[0]?.verifications ?? [];
      const hint = { code: 'VERIFICATION_STARTED' as const, verification_id: verification?.id ?? '' };
      const fromA: string[] = [];
      for await (const change of root.applicantGroups.syncEvent(hint, store)) fromA.push(change.type);
      expect(memory.all('landlord-a').map((g) => g.id)).toEqual([a.id]);
      expect(fromA).toEqual([]);
    } finally {
      await shared.close();
    }
  });
});
