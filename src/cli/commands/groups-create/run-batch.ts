/**
 * The network half of `groups create`, in two phases.
 *
 * 1. Resolve: every household is looked up by its correlation id. A create an earlier run sent
 *    and never saw settle (the journal says so) is polled until its group appears or the grace
 *    window after its send has passed. Ids the household had before it was edited are looked up
 *    too. A group found is either the household (already existed) or a conflict.
 * 2. Create: each missing household is journaled (on disk) as `sending`, created through
 *    `applicantGroups.createOnce`, and journaled as settled. `createOnce` takes the household's
 *    lease from the client's coordination (the state directory's, or Redis) and looks it up under
 *    that lease: a household another run or a script created meanwhile, even in another folder
 *    or at the same moment, is found there and not created again. The SDK resolves an ambiguous
 *    failure through the correlation id itself.
 *
 * The lookups also prove the credentials: with wrong ones the first fails, the batch stops, and
 * neither journal nor results are written.
 *
 * Nothing is created before every household is resolved.
 */
import { setTimeout as delay } from 'node:timers/promises';
import {
  APIError,
  APIUserAbortError,
  CorrelationConflictError,
  type CreateOnceResult,
  type CreateOutcomeRecord,
  GroupMayHaveBeenCreatedError,
  type RequestOptions,
  RequestValidationError,
  type VerificationClient,
} from 'applicant-verification';
import type { Household, HouseholdSummary } from 'applicant-verification/households';
import { mapSettled, maskText } from '../../../internal.js';
import { BatchStop, describeError, describeRowError, InterruptedError } from '../../errors.js';
import type { CliIO } from '../../shared/io.js';
import type { Reporter } from '../../shared/progress.js';
import { inFlight } from '../../shared/shutdown.js';
import { eachConcurrently } from '../../shared/stream-pool.js';
import { safeCell } from '../../shared/terminal.js';
import {
  type ComparedGroup,
  type Conflict,
  compactGroup,
  describeConflict,
  findConflict,
} from './conflicts.js';
import { householdGroup, liveGroups, possibleDuplicateCell } from './expiry.js';
import { isUnsettled, type Journal, type JournalOutcome, type JournalState } from './journal.js';
import type { HouseholdResult, HouseholdStatus } from './result-log.js';

/**
 * Below this many correlation ids a batch looks each up (a request each); from it on, it first
 * asks how long a listing of the account's groups is, and reads them from one when that is
 * shorter.
 */
export const LISTING_FROM = 100;

/** What a result names of a household: where it is in the file and its correlation id. */
export type HouseholdRef = Pick<HouseholdSummary, 'key' | 'line' | 'lines' | 'correlationId'>;

/** Time between lookups while waiting for the group of an unsettled create. */
const POLL_MS = 500;

/** Options of {@link runBatch}. */
export interface BatchRunOptions {
  concurrency: number;
  /** How long after its send an unsettled create's group may still appear (ms). */
  graceMs: number;
  batchId: string;
  io: CliIO;
  reporter: Reporter;
  /**
   * Opens the journal for appending; called once, just before the first create. Until then
   * nothing is written: a run whose lookups fail (wrong credentials) leaves no trace.
   */
  openJournal: () => Promise<Journal>;
  /** What earlier runs journaled, by correlation id. */
  previous: ReadonlyMap<string, JournalState>;
  /**
   * The full households (bodies) of the correlation ids given, read again from the file as the
   * creates need them (`CheckedHouseholds.bodies`): a run holds its households' summaries, not
   * their bodies. It reads `wanted` when called: the batch empties that set as rows settle.
   */
  bodies: (wanted: ReadonlySet<string>) => AsyncIterable<Household>;
  /** `--reinvite-expired`: a household whose groups have all expired gets a new group. */
  reinviteExpired?: boolean;
  /**
   * Called with each household's result as it settles (the results log appends it, the summary
   * counts it): the batch keeps none of them.
   */
  onResult: (result: HouseholdResult) => void;
  /**
   * What the gate last recorded for a correlation id (the run's client id), to tell the records
   * of another server (a mock that was reset, one client id on two environments) before creating.
   */
  gateRecord?: ((correlationId: string) => Promise<CreateOutcomeRecord | undefined>) | undefined;
  /** Where the gate is (its folder, or the Redis without credentials), for messages. */
  gateWhere?: string | undefined;
}

/**
 * What a run found besides each household's result (given to `onResult`), and the error that
 * stopped it early, if one did.
 */
export interface BatchOutcome {
  fatalError: unknown;
  /** The conflicts, for the terminal (their text in the results log keeps the emails). */
  conflicts: { household: HouseholdRef; conflict: Conflict }[];
  /**
   * Households missing when this run looked, found when it came to create them, that the gate had
   * recorded: another run or a script on the same gate created them meanwhile (counted as already
   * existing).
   */
  foundAtCreate: number;
  /**
   * Households missing when this run looked, found when it came to create them, that the gate had
   * no record of: a writer that does not share this run's gate created them meanwhile.
   */
  foundOffGate: string[];
  /** Households with more than one group under their correlation id: created (and invited) twice. */
  twice: { household: HouseholdRef; groups: ComparedGroup[] }[];
  /**
   * What stopped reading the households' bodies again before every create had started (the file
   * was changed during the run, say): the households not started are `not_attempted`.
   */
  readError: unknown;
  /**
   * Households the gate recorded as created (longer ago than the grace window) whose group the
   * server does not have: records of another server, most likely. Not sent; `unresolved`.
   */
  recordedNotThere: { household: HouseholdRef; groupId: string }[];
}

type Resolution =
  | { kind: 'existing'; groupId: string }
  | { kind: 'expired'; groupId: string }
  | { kind: 'conflict'; conflict: Conflict }
  | { kind: 'missing'; resent: boolean };

function resultOf(
  household: HouseholdRef,
  status: HouseholdStatus,
  groupId = '',
  error = '',
): HouseholdResult {
  return {
    line: household.line,
    household_key: household.key,
    correlation_id: household.correlationId,
    status,
    group_id: groupId,
    applicants: household.lines.length,
    error,
    retry_after: '',
    reinvitation_of: '',
    possible_duplicate: '',
  };
}

// Why an item did not finish: a stop before it started, a stop that cut its request, or a failure.
function failedResult(
  household: HouseholdRef,
  error: unknown,
  context = '',
  body?: Household['body'],
): HouseholdResult {
  if (error instanceof APIUserAbortError) {
    return resultOf(
      household,
      'interrupted',
      '',
      'stopped while in flight; a rerun finds out whether it was created',
    );
  }
  // Not started, or stopped while waiting between lookups (a timer's AbortError).
  if (error instanceof InterruptedError || (error instanceof Error && error.name === 'AbortError')) {
    return resultOf(household, 'not_attempted');
  }
  if (error instanceof GroupMayHaveBeenCreatedError) {
    return resultOf(
      household,
      'unresolved',
      '',
      `the create may have reached the server and its group has not appeared; it was not resent. A rerun looks it up (correlation id ${household.correlationId}): ${describeError(error)}`,
    );
  }
  return resultOf(household, 'failed', '', `${context}${describeRowError(error, body)}`);
}

// The server answered and refused, or the request never left: no group can exist.
function journalOutcomeOf(error: unknown): JournalOutcome {
  // Another household under the id: createOnce sent nothing.
  if (error instanceof CorrelationConflictError) return 'failed';
  if (error instanceof RequestValidationError) return 'failed';
  if (error instanceof APIError && error.status >= 400 && error.status < 500) return 'failed';
  return 'unknown';
}

/**
 * The groups listed under each correlation id the batch looks up (its households' ids and
 * the ids they had before an edit), read in one walk of the account's groups, when there are
 * {@link LISTING_FROM} ids or more and that walk takes fewer requests than a lookup per id
 * would; otherwise `undefined`. The first page's
 * `total_count` and length tell how many pages the walk takes. The list is in the API's order, so
 * the first group of an id is the one a lookup of that id would find first.
 */
async function listingOf(
  client: VerificationClient,
  households: readonly HouseholdSummary[],
  previous: ReadonlyMap<string, JournalState>,
  request: RequestOptions,
): Promise<ReadonlyMap<string, readonly ComparedGroup[]> | undefined> {
  const wanted = new Set<string>();
  for (const household of households) wanted.add(household.correlationId);
  for (const state of previous.values()) wanted.add(state.correlationId);
  if (wanted.size < LISTING_FROM) return undefined;
  const first = await client.applicantGroups.list({}, request);
  if (first.totalCount === undefined || (first.items.length === 0 && first.totalCount > 0)) return undefined;
  const pages = first.items.length === 0 ? 0 : Math.ceil(first.totalCount / first.items.length);
  if (pages >= wanted.size) return undefined;
  // What the conflict check reads of each group (a rerun of 100,000 households finds 100,000).
  const byCorrelation = new Map<string, ComparedGroup[]>();
  for await (const group of first.iterate()) {
    const id = group.correlation_id;
    if (!id || !wanted.has(id)) continue;
    const groups = byCorrelation.get(id);
    if (groups) groups.push(compactGroup(group));
    else byCorrelation.set(id, [compactGroup(group)]);
  }
  return byCorrelation;
}

/** Runs both phases over `households`. */
export async function runBatch(
  client: VerificationClient,
  households: readonly HouseholdSummary[],
  options: BatchRunOptions,
): Promise<BatchOutcome> {
  const { concurrency, graceMs, io, reporter, previous } = options;
  const flight = inFlight(io, reporter);
  const request: RequestOptions = { signal: flight.signal };
  const stop = new BatchStop(io.signal);
  const emit = options.onResult;
  const conflicts: BatchOutcome['conflicts'] = [];
  let foundAtCreate = 0;
  const foundOffGate: string[] = [];
  const conflictRow = (household: HouseholdRef, conflict: Conflict): HouseholdResult => {
    conflicts.push({ household, conflict });
    return resultOf(household, 'conflict', conflict.groupId, describeConflict(conflict));
  };

  // Filled before the lookups when one listing of the account's groups costs fewer requests than
  // a lookup per household: then a household's groups are read from it (docs/cli.md, "Large files").
  let listed: ReadonlyMap<string, readonly ComparedGroup[]> | undefined;
  // Every group the API lists under the id (from the listing, or one request, as
  // findByCorrelationId makes): more than one is a household created twice, by writers that did
  // not share a gate.
  const duplicates = new Map<string, ComparedGroup[]>();
  const find = async (id: string): Promise<ComparedGroup | undefined> => {
    const groups = listed
      ? [...(listed.get(id) ?? [])]
      : (await client.applicantGroups.list({ correlation_id: id }, request)).items
          .filter((group) => group.correlation_id === id)
          .map(compactGroup);
    if (liveGroups(groups).length > 1) duplicates.set(id, groups);
    return householdGroup(groups);
  };
  // One request: the household's live group under the id (else its newest expired one).
  const lookUpAfresh = async (id: string): Promise<ComparedGroup | undefined> =>
    householdGroup(
      (await client.applicantGroups.list({ correlation_id: id }, request)).items
        .filter((group) => group.correlation_id === id)
        .map(compactGroup),
    );
  // The command's own polls keep the time the SDK keeps: `io.clock` when a test passes one.
  const now = () => io.clock?.now() ?? Date.now();
  const pause = (ms: number) =>
    io.clock ? io.clock.sleep(ms, stop.signal) : delay(ms, undefined, { signal: stop.signal });

  // One lookup; for a create still unsettled, more until its grace window has passed, saying what
  // it waits for and until when (a silent "check 0/183" for half a minute reads as a hang).
  const lookup = async (id: string, state: JournalState | undefined): Promise<ComparedGroup | undefined> => {
    const unsettled = state !== undefined && isUnsettled(state);
    // A create an earlier run left unsettled is looked up afresh, not read from the listing.
    let group = unsettled ? await lookUpAfresh(id) : await find(id);
    if ((group && !group.is_expired) || !state || !unsettled) return group;
    const deadline = (state.sentAt ?? 0) + graceMs;
    if (now() < deadline) {
      reporter.note(
        `household ${safeCell(state.householdKey)}: waiting until ${new Date(deadline).toISOString()} for the create an earlier run sent at ${new Date(state.sentAt ?? 0).toISOString()} to appear (--grace ${graceMs / 1000} s: the server may still be committing it)`,
      );
    }
    // An expired group beside an unsettled create: that create was a re-invitation, waited for too.
    while ((!group || group.is_expired) && now() < deadline) {
      await pause(Math.max(1, Math.min(POLL_MS, deadline - now())));
      // The listing was read once: a group that appears later is seen by a lookup of its own.
      group = await lookUpAfresh(id);
    }
    return group;
  };

  // The journal's ids by household key, made once: looking through every id for each household
  // would cost a rerun of 100,000 households 10^10 steps (docs/benchmarks.md, "Scale").
  const previousByKey = new Map<string, JournalState[]>();
  for (const state of previous.values()) {
    const states = previousByKey.get(state.householdKey);
    if (states === undefined) previousByKey.set(state.householdKey, [state]);
    else states.push(state);
  }

  const resolve = async (household: HouseholdSummary): Promise<Resolution> => {
    const own = previous.get(household.correlationId);
    const group = await lookup(household.correlationId, own);
    if (group) {
      const conflict = findConflict(group, household.match);
      if (conflict) return { kind: 'conflict', conflict };
      return { kind: group.is_expired ? 'expired' : 'existing', groupId: group.id };
    }
    // The ids this household had, in this batch, before its row was edited.
    for (const state of previousByKey.get(household.key) ?? []) {
      if (state.correlationId === household.correlationId) continue;
      if (state.batchId !== options.batchId) continue;
      if (state.outcome !== 'created' && !isUnsettled(state)) continue;
      const earlier = await lookup(state.correlationId, state);
      if (!earlier) continue;
      const conflict = findConflict(earlier, household.match);
      return conflict ? { kind: 'conflict', conflict } : { kind: 'existing', groupId: earlier.id };
    }
    return { kind: 'missing', resent: own !== undefined && isUnsettled(own) };
  };

  try {
    // A listing that fails changes nothing: the lookups then run as they would have (after a fatal
    // failure, wrong credentials say, the batch has stopped and they do not start).
    listed = await stop.guard(() => listingOf(client, households, previous, request)).catch(() => undefined);
    const checking = reporter.start('check', households.length);
    const resolved = await mapSettled(households, (household) => stop.guard(() => resolve(household)), {
      concurrency,
      signal: stop.signal,
      // Once stopped, rows that never started would count as failures: freeze the display.
      onProgress: (progress) => !stop.signal.aborted && checking.update(progress),
    });
    checking.finish();
    const missing: HouseholdSummary[] = [];
    resolved.forEach((outcome, index) => {
      const household = households[index];
      if (!household) return;
      if (!outcome.ok) {
        emit(failedResult(household, outcome.error, 'could not check for an existing group: '));
      } else if (outcome.value.kind === 'existing') {
        const row = resultOf(household, 'skipped_existing', outcome.value.groupId);
        // Found with other live groups under its id: created twice, reported on its row.
        row.possible_duplicate = liveGroups(duplicates.get(household.correlationId) ?? [])
          .filter((group) => group.id !== row.group_id)
          .map((group) => group.id)
          .join(' ');
        emit(row);
      } else if (outcome.value.kind === 'expired' && !options.reinviteExpired) {
        emit(resultOf(household, 'expired', outcome.value.groupId));
      } else if (outcome.value.kind === 'conflict') {
        emit(conflictRow(household, outcome.value.conflict));
      } else if (stop.signal.aborted) {
        emit(resultOf(household, 'not_attempted'));
      } else {
        if (outcome.value.kind === 'missing' && outcome.value.resent) {
          reporter.note(
            `line ${household.line} (household ${household.key}): the create an earlier run sent has not appeared within --grace; sending it again, unless the gate still holds it unresolved (for 10 minutes after it was sent)`,
          );
        }
        missing.push(household);
      }
    });

    // A household the gate recorded as created, long enough ago for its group to be listed, that the
    // server does not have: the gate's records are not this server's. createOnce would wait the
    // grace window and refuse it; say so at once instead, and send nothing for it.
    const recordedNotThere: BatchOutcome['recordedNotThere'] = [];
    const gateRecord = options.gateRecord;
    if (gateRecord && missing.length > 0 && !stop.signal.aborted) {
      const records = await mapSettled(missing, (household) => gateRecord(household.correlationId), {
        concurrency,
        signal: stop.signal,
      });
      for (let index = missing.length - 1; index >= 0; index--) {
        const household = missing[index];
        const outcome = records[index];
        const record = outcome?.ok ? outcome.value : undefined;
        if (!household || record?.state !== 'created' || (record.ageMs ?? 0) <= graceMs) continue;
        missing.splice(index, 1);
        recordedNotThere.unshift({ household, groupId: record.id });
      }
      // Read: let go of a record per household (the async function's frame would keep them).
      records.length = 0;
      for (const { household, groupId } of recordedNotThere) {
        emit(
          resultOf(
            household,
            'unresolved',
            '',
            `the gate (${options.gateWhere ?? 'the state folder'}) recorded its group ${groupId} as created, but the server has no group under its correlation id: the state may belong to another server; not sent (see "applicant-verification state show")`,
          ),
        );
      }
    }

    // Each household's resolution is emitted or in `missing` now: let go of them during the creates.
    resolved.length = 0;
    let readError: unknown;
    if (missing.length > 0 && !stop.signal.aborted) {
      const journal = await options.openJournal();
      const creating = reporter.start('create', missing.length);
      const progress = { done: 0, total: missing.length, failed: 0 };
      // The correlation ids not settled yet (one leaves as its row settles); `households` keeps
      // their summaries, so `missing` is let go during the creates.
      const unsettled = new Set(missing.map((household) => household.correlationId));
      missing.length = 0;
      const settle = (row: HouseholdResult) => {
        unsettled.delete(row.correlation_id);
        emit(row);
        progress.done++;
        if (row.status !== 'created' && row.status !== 'skipped_existing') progress.failed++;
        if (!stop.signal.aborted) creating.update(progress);
      };
      const create = async (household: Household): Promise<void> => {
        // What the results name of it (the body is not kept once its create settles).
        const summary: HouseholdRef = {
          key: household.key,
          line: household.line,
          lines: household.lines,
          correlationId: household.correlationId,
        };
        try {
          const once = await stop.guard(async () => {
            // Appended, not waited for: the write-ahead rule is the `sending` line's (on disk before
            // the create). A `settled` line a kill or power loss takes back leaves the create
            // unsettled, which the next run looks up; the household's slot does not wait for a sync.
            const settled = (outcome: JournalOutcome, groupId: string, reinvitationOf?: string) => {
              journal
                .append({
                  type: 'settled',
                  at: new Date().toISOString(),
                  household_key: household.key,
                  correlation_id: household.correlationId,
                  outcome,
                  group_id: groupId,
                  ...(reinvitationOf === undefined ? {} : { reinvitation_of: reinvitationOf }),
                })
                .catch((error: unknown) =>
                  reporter.error(
                    `warning: could not journal how the create of household ${safeCell(household.key)} settled (${describeError(error)}); the next run looks it up`,
                  ),
                );
            };
            // Write-ahead: on disk before the request leaves, so a kill at any later point is seen.
            await journal.append({
              type: 'sending',
              at: new Date().toISOString(),
              household_key: household.key,
              correlation_id: household.correlationId,
              batch_id: options.batchId,
              line: household.line,
            });
            let once: CreateOnceResult;
            try {
              // Through the gate: a run that waited for another's lease finds its group here.
              once = await client.applicantGroups.createOnce(
                household.body,
                options.reinviteExpired ? { ...request, reinviteExpired: true } : request,
              );
            } catch (error) {
              // An aborted create stays unsettled: the next run resolves it by lookup.
              if (!(error instanceof APIUserAbortError)) settled(journalOutcomeOf(error), '');
              throw error;
            }
            // Found or created, the household's group exists: later runs look for this id.
            settled('created', once.group.id, once.reinvitationOf);
            return once;
          });
          const { group, created, via } = once;
          if (!created && via === 'lookup' && !once.expired) foundOffGate.push(household.key);
          else if (!created && !once.expired) foundAtCreate++;
          const status = created ? 'created' : once.expired ? 'expired' : 'skipped_existing';
          const row = resultOf(summary, status, group.id);
          row.reinvitation_of = once.reinvitationOf ?? '';
          row.possible_duplicate = possibleDuplicateCell(once);
          settle(row);
        } catch (error) {
          // Another household got the id since the lookup: the conflict the resolve phase reports.
          const existing = error instanceof CorrelationConflictError ? error.existing : undefined;
          const conflict = existing && findConflict(compactGroup(existing), household.body);
          settle(
            conflict ? conflictRow(summary, conflict) : failedResult(summary, error, '', household.body),
          );
        }
      };
      try {
        // The bodies are read from the file again as slots free up: a few households at a time
        // (the reading takes what it needs of `unsettled` when it starts: nothing has settled yet).
        await eachConcurrently(options.bodies(unsettled), create, {
          concurrency,
          signal: stop.signal,
        });
      } catch (error) {
        readError = error;
      }
      creating.finish();
      // Items the batch never started (stopped first, or the file could not be read again) settle here.
      for (const household of households) {
        if (!unsettled.has(household.correlationId)) continue;
        emit(
          stop.signal.aborted
            ? failedResult(household, stop.signal.reason)
            : resultOf(household, 'not_attempted'),
        );
      }
    } else {
      for (const household of missing) emit(resultOf(household, 'not_attempted'));
    }
    const twice = households.flatMap((household) => {
      const groups = duplicates.get(household.correlationId);
      return groups ? [{ household, groups: liveGroups(groups) }] : [];
    });
    return {
      fatalError: stop.fatalError,
      conflicts,
      foundAtCreate,
      foundOffGate,
      twice,
      readError,
      recordedNotThere,
    };
  } finally {
    flight.dispose();
  }
}

/** A conflict as the terminal shows it: emails masked (the results log has them in full). */
export function conflictLine(household: HouseholdRef, conflict: Conflict): string {
  return `line ${household.line} (household ${household.key}): ${describeConflict(conflict, maskText)}`;
}
