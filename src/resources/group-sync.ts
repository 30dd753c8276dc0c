/**
 * Reconciliation: one pass over every group that can still change, yielding what changed since a
 * store last saw it. Webhooks can be lost, repeated or reordered, so a pass (nightly, or on each
 * webhook as a hint) reads the API's current state instead of trusting events.
 *
 * The list window is the 14-day request expiry plus a margin: a window of exactly 14 days loses a
 * group the moment it expires, so its expiry is never seen. Groups the store last saw live that
 * have left the window are read one by one, and so are groups whose deadline passed while the pass
 * ran, so an expiry is reported whatever the timing. A completed group older than the window is
 * no longer watched: a re-open after that is seen through its webhook (`syncEvent`) only.
 */

import type { RequestOptions } from '../core/call/http.js';
import type { PagePromise } from '../core/results/pagination.js';
import { toDate } from '../helpers/dates.js';
import { epochMsOf, type TimeSource } from '../helpers/now.js';
import type { ApplicantGroup, ApplicantGroupListParams } from '../schemas/applicant-groups.js';
import type { ApplicantGroupReports, ReportSummary } from '../schemas/lazy/reports.js';

/** Requests expire when not fully completed within 14 days (docs/wire-contract.md §8). */
const EXPIRY_MS = 14 * 24 * 60 * 60 * 1000;
/** Default margin beyond the 14 days: a pass missed for up to two days still sees every expiry. */
export const DEFAULT_SYNC_MARGIN_MS = 2 * 24 * 60 * 60 * 1000;

/** What a {@link GroupStore} keeps of a group: what sync compares the API's state with. Plain JSON. */
export interface GroupSnapshot {
  /** Group identifier. */
  id: string;
  /** `status` as last seen. */
  status: string;
  /** `is_expired` as last seen. */
  is_expired: boolean;
  /** `created_at_timestamp` as the API sent it: narrows the lookup of a group that left the list window. */
  created_at_timestamp: number;
  /** The group's `correlation_id`, `null` when none. */
  correlation_id: string | null;
  /** Ids of the group's verifications: how an event naming only a verification finds its group. */
  verification_ids: string[];
  /** Ids of every report already reported. */
  report_ids: string[];
  /** The applicants' progress when the reports were last read (sync reads them again when it moves). */
  progress: string;
  /**
   * The account whose group this is (the syncing client's client id), written by every save sync
   * makes. A snapshot read back under another account is refused with a `ConfigurationError`, so
   * a store that ignores its `account` argument cannot mix landlords; absent on snapshots saved
   * before snapshots carried it (read as the asking account's).
   */
  account?: string;
}

/**
 * Where sync remembers what it has seen. Methods may return promises (a database). One store
 * serves every account: each method gets the account (the client id of the client that syncs) as
 * its last argument, so one table keyed by (account, group id) serves a platform's landlords.
 * `account` is the one thing "account" means across the SDK: a client id (the delivery store's
 * `account` is the same). A store that ignores `account` works for one account; shared between
 * accounts, the first snapshot it hands one account's sync from another's is refused with a
 * `ConfigurationError` (every snapshot sync saves carries its {@link GroupSnapshot.account}).
 */
export interface GroupStore {
  /** The snapshot of a group of `account`, or `undefined` when the store has not seen it. */
  get(groupId: string, account: string): GroupSnapshot | undefined | Promise<GroupSnapshot | undefined>;
  /** Saves a snapshot of a group of `account` (replacing the group's previous one). */
  put(snapshot: GroupSnapshot, account: string): void | Promise<void>;
  /** Every snapshot of `account` that is neither completed nor expired: groups that can still change. */
  live(account: string): Iterable<GroupSnapshot> | Promise<Iterable<GroupSnapshot>>;
  /** The id of the group of `account` a verification belongs to, or `undefined` when unknown. */
  groupOfVerification(
    verificationId: string,
    account: string,
  ): string | undefined | Promise<string | undefined>;
}

/** A {@link GroupStore} as one account's sync sees it: every method already bound to the account. */
export interface AccountGroupStore {
  /** The snapshot of a group of the account, or `undefined`. */
  get(groupId: string): GroupSnapshot | undefined | Promise<GroupSnapshot | undefined>;
  /** Saves a snapshot of a group of the account. */
  put(snapshot: GroupSnapshot): void | Promise<void>;
  /** The account's snapshots that can still change. */
  live(): Iterable<GroupSnapshot> | Promise<Iterable<GroupSnapshot>>;
  /** The id of the account's group a verification belongs to, or `undefined`. */
  groupOfVerification(verificationId: string): string | undefined | Promise<string | undefined>;
}

/** The key of the snapshots {@link MemoryGroupStore.put} gets without an account. */
const NO_ACCOUNT = '';

interface AccountGroups {
  groups: Map<string, GroupSnapshot>;
  verifications: Map<string, string>;
}

/**
 * A {@link GroupStore} in memory: for tests, and for one long-lived process. It keeps each
 * account's groups apart; read without an account (your own code looking a group up), it looks
 * across every account (the API's group ids are unique).
 */
export class MemoryGroupStore implements GroupStore {
  readonly #accounts = new Map<string, AccountGroups>();

  /** The accounts a read looks in: `account`'s, or every one. */
  #in(account: string | undefined): AccountGroups[] {
    if (account === undefined) return [...this.#accounts.values()];
    const held = this.#accounts.get(account);
    return held ? [held] : [];
  }

  /** The snapshot of a group (of `account`, or of any account). */
  get(groupId: string, account?: string): GroupSnapshot | undefined {
    for (const held of this.#in(account)) {
      const snapshot = held.groups.get(groupId);
      if (snapshot) return structuredClone(snapshot);
    }
    return undefined;
  }

  /** Saves a snapshot of `account`'s group. */
  put(snapshot: GroupSnapshot, account?: string): void {
    const key = account ?? NO_ACCOUNT;
    let held = this.#accounts.get(key);
    if (!held) {
      held = { groups: new Map(), verifications: new Map() };
      this.#accounts.set(key, held);
    }
    held.groups.set(snapshot.id, structuredClone(snapshot));
    for (const id of snapshot.verification_ids) held.verifications.set(id, snapshot.id);
  }

  /** Snapshots neither completed nor expired (of `account`, or of every account). */
  live(account?: string): GroupSnapshot[] {
    return this.all(account).filter((s) => !isSettled(s));
  }

  /** The group of a verification (of `account`, or of any account). */
  groupOfVerification(verificationId: string, account?: string): string | undefined {
    for (const held of this.#in(account)) {
      const groupId = held.verifications.get(verificationId);
      if (groupId !== undefined) return groupId;
    }
    return undefined;
  }

  /** Every snapshot, oldest first (of `account`, or of every account, one account after another). */
  all(account?: string): GroupSnapshot[] {
    return this.#in(account).flatMap((held) => [...held.groups.values()].map((s) => structuredClone(s)));
  }
}

/** One change sync found. Every change carries the group as the API holds it now. */
export type GroupChange =
  | {
      /** The store had not seen this group. It may already be completed or expired. */
      type: 'added';
      /** The group now. */
      group: ApplicantGroup;
    }
  | {
      /** `status` changed (or an expired group became live again after a re-open). */
      type: 'status_changed';
      /** The group now. */
      group: ApplicantGroup;
      /** What the store had seen. */
      previous: { status: string; is_expired: boolean };
    }
  | {
      /** The group expired since the store last saw it. */
      type: 'expired';
      /** The group now. */
      group: ApplicantGroup;
    }
  | {
      /** A report the store had not seen. */
      type: 'report_added';
      /** The group now. */
      group: ApplicantGroup;
      /** The report, as the reports list gives it; `reports.retrieve(report.id)` reads it. */
      report: ReportSummary;
      /** `household` or `individual`. */
      scope: 'household' | 'individual';
    };

/** Options of `applicantGroups.sync`. */
export interface SyncOptions extends RequestOptions {
  /** How far beyond the 14-day expiry the list window reaches, in ms. Default 2 days. */
  marginMs?: number;
  /**
   * Now: a `Date`, epoch ms, a clock (`{ now() }`) or a function returning epoch ms, the forms
   * `affordability` takes too. Default: the client's clock. (Tests pass the mock's clock.)
   */
  now?: TimeSource;
}

/** What sync needs of the client. */
export interface SyncSource {
  /** `applicantGroups.list`. */
  list(params: ApplicantGroupListParams, options?: RequestOptions): PagePromise<ApplicantGroup>;
  /** `applicantGroups.findById`. */
  findById(
    id: string,
    hint: { created_at_timestamp?: number; correlation_id?: string | null },
    options?: RequestOptions,
  ): Promise<ApplicantGroup | undefined>;
  /** `applicantGroups.listReports`. */
  listReports(groupId: string, options?: RequestOptions): PromiseLike<ApplicantGroupReports>;
  /** The client's clock. */
  now(): number;
}

function isSettled(snapshot: Pick<GroupSnapshot, 'status' | 'is_expired'>): boolean {
  return snapshot.status === 'completed' || snapshot.is_expired;
}

/** The applicants' progress: reports appear when an applicant completes, which moves this. */
function progressOf(group: ApplicantGroup): string | undefined {
  const applicants = group.applicants;
  // Without applicants in the list answer, progress is unknowable: read the reports every pass.
  if (!Array.isArray(applicants)) return undefined;
  // Stryker disable StringLiteral,ArrayDeclaration: equivalent, whatever stands in for a missing field or joins the parts, every pass builds the same string from the same state
  return applicants
    .map((a) => `${a.id}:${a.updated_at ?? ''}:${(a.verifications ?? []).map((v) => v.status).join(',')}`)
    .join('|');
  // Stryker restore StringLiteral,ArrayDeclaration
}

function verificationIds(group: ApplicantGroup): string[] {
  // Stryker disable next-line ArrayDeclaration: equivalent for the groups the API returns: every applicant lists its verifications
  return (group.applicants ?? []).flatMap((a) => (a.verifications ?? []).map((v) => v.id));
}

/**
 * The changes of one group against its snapshot, saving the snapshot after each yield (so a
 * consumer that fails on a change sees it again next pass, and never loses it).
 */
export async function* diffGroup(
  source: SyncSource,
  store: AccountGroupStore,
  group: ApplicantGroup,
  options?: RequestOptions,
): AsyncGenerator<GroupChange, void, undefined> {
  const previous = await store.get(group.id);
  const snapshot: GroupSnapshot = previous
    ? { ...previous, verification_ids: verificationIds(group) }
    : {
        id: group.id,
        status: group.status,
        is_expired: group.is_expired,
        created_at_timestamp: group.created_at_timestamp,
        correlation_id: group.correlation_id ?? null,
        verification_ids: verificationIds(group),
        report_ids: [],
        // Stryker disable next-line StringLiteral: equivalent, a group has an applicant, so its progress is never this value
        progress: '',
      };
  if (!previous) {
    yield { type: 'added', group };
    await store.put(snapshot);
  } else {
    const was = { status: previous.status, is_expired: previous.is_expired };
    if (was.status !== group.status || (was.is_expired && !group.is_expired)) {
      yield { type: 'status_changed', group, previous: was };
      snapshot.status = group.status;
      if (!group.is_expired) snapshot.is_expired = false;
      await store.put(snapshot);
    }
    if (!snapshot.is_expired && group.is_expired) {
      yield { type: 'expired', group };
      snapshot.is_expired = true;
      await store.put(snapshot);
    }
  }
  const progress = progressOf(group);
  // Stryker disable next-line ConditionalExpression: the left side is equivalent to true, a stored progress is always a string
  if (progress !== undefined && snapshot.progress === progress) return;
  if (group.status !== 'not_started') {
    const reports = await source.listReports(group.id, options);
    const scoped = [
      ...reports.individual_reports.map((report) => ({ report, scope: 'individual' as const })),
      ...reports.household_reports.map((report) => ({ report, scope: 'household' as const })),
    ];
    for (const { report, scope } of scoped) {
      if (snapshot.report_ids.includes(report.id)) continue;
      yield { type: 'report_added', group, report, scope };
      snapshot.report_ids = [...snapshot.report_ids, report.id];
      await store.put(snapshot);
    }
  }
  if (progress === undefined) return;
  snapshot.progress = progress;
  await store.put(snapshot);
}

/** One reconciliation pass; see `applicantGroups.sync`. */
export async function* syncGroups(
  source: SyncSource,
  store: AccountGroupStore,
  options: SyncOptions = {},
): AsyncGenerator<GroupChange, void, undefined> {
  const { marginMs = DEFAULT_SYNC_MARGIN_MS, now: given, ...request } = options;
  const now = () => epochMsOf(given, source.now, 'sync: now');
  if (!(Number.isFinite(marginMs) && marginMs >= 0)) {
    throw new RangeError(`sync: marginMs must be a non-negative number of ms, got ${marginMs}`);
  }
  const createdAfter = Math.floor((now() - EXPIRY_MS - marginMs) / 1000);
  const seen = new Map<string, ApplicantGroup>();
  for await (const group of source.list({ created_after: createdAfter }, request)) {
    // Stryker disable next-line ConditionalExpression: equivalent, the list (core/results/pagination.ts) already drops an id it gave before
    if (seen.has(group.id)) continue; // a page shifted by a new group repeats an item
    seen.set(group.id, group);
    yield* diffGroup(source, store, group, request);
  }
  // Groups last seen live that the window no longer lists, and listed groups whose 14 days ended
  // while the pass ran: read each again so its expiry is reported now.
  const end = now();
  const recheck = [...(await store.live())].filter((snapshot) => {
    const listed = seen.get(snapshot.id);
    if (!listed) return true;
    // Seconds for applicant groups (docs/wire-contract.md §2.9); toDate also reads milliseconds.
    return !isSettled(listed) && toDate(listed.created_at_timestamp).getTime() + EXPIRY_MS <= end;
  });
  for (const snapshot of recheck) {
    const group = await source.findById(
      snapshot.id,
      { created_at_timestamp: snapshot.created_at_timestamp },
      request,
    );
    if (group) yield* diffGroup(source, store, group, request);
  }
}

/**
 * Brings one group's snapshot up to the API's state and yields what changed: what a webhook,
 * taken as a hint, should trigger. `undefined` group id (a verification the store does not know)
 * yields nothing.
 */
export async function* refreshGroup(
  source: SyncSource,
  store: AccountGroupStore,
  groupId: string,
  options?: RequestOptions,
): AsyncGenerator<GroupChange, void, undefined> {
  const known = await store.get(groupId);
  const group = await source.findById(
    groupId,
    known ? { created_at_timestamp: known.created_at_timestamp } : {},
    options,
  );
  if (group) yield* diffGroup(source, store, group, options);
}
