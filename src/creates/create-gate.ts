/**
 * The gate every create with a correlation id passes: the coordination's lease on (client id,
 * correlation id), held while the create runs, so that concurrent paths (`create`, `createOnce`,
 * `createMany`, the CLI, another process on the same coordination) wait for one another's
 * outcome instead of sending the same household twice. Under the lease the holder records
 * `unresolved` just before its request leaves (a holder that dies mid-send leaves that behind,
 * dated when it was sent) and what the create came to once it knows.
 *
 * The lease's waits read the client's clock; its expiry is the coordination's (docs/safe-creates.md,
 * "Which clock").
 */

import type * as z from 'zod';
import type { Call, RequestOptions } from '../core/call/call.js';
import { exponentialBackoffMs } from '../core/call/retry.js';
import type {
  CoordinationFailurePolicy,
  CreateLease,
  CreateOutcome,
  CreateOutcomeRecord,
  HeldCreateLease,
} from '../core/coordination/coordination.js';
import { APIConnectionError, APIError, RequestValidationError } from '../core/errors.js';
import { loadZod, zodIfLoaded } from '../load/zod.js';
import type { Creates } from './creates.js';
import { announceDuplicate, type PossibleDuplicate } from './duplicates.js';
import { GroupMayHaveBeenCreatedError } from './errors.js';
import { CreateLeaseLostError, type LeaseLostReason } from './lease-lost.js';

/** The longest pause between two tries of a lease another holder has (ms). */
const LEASE_POLL_MAX_MS = 1_000;

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
}

/** What a create's failure says about the server: refused (nothing exists), or unknown. */
export function outcomeOfFailure(error: unknown): CreateOutcome['state'] {
  if (error instanceof RequestValidationError) return 'refused';
  // Any 4xx, a 429 (RateLimitError) included: the server refused it before creating anything.
  if (error instanceof APIError && error.status >= 400 && error.status < 500) return 'refused';
  if (error instanceof APIConnectionError && error.requestNotSent) return 'refused';
  // Stopped before the request left; an earlier attempt of the call was refused, or none was sent.
  if (error instanceof CreateLeaseLostError) return 'refused';
  return 'unresolved';
}

/** How one pass through the gate goes: who it is for, and what to do when the coordination fails. */
export interface GatePass {
  /** The correlation id the lease covers, as log lines show it. */
  correlationId: string;
  /**
   * The key the lease is taken on, when it is not the correlation id itself (screening groups
   * prefix theirs: the two families' ids name different objects).
   */
  leaseKey?: string | undefined;
  /** Names the call in log lines ("create", "createOnce"). */
  caller: string;
  /** The create's options: its signal, and its budget (the lease outlives it). */
  options: RequestOptions;
  /** What to do when the coordination throws as the lease is taken. */
  policy: CoordinationFailurePolicy;
  /** Builds the error thrown when another holder keeps the lease for the whole wait. */
  heldThroughout(reason: string): Error;
  /** Called with each possible duplicate this pass reports (the caller's `onPossibleDuplicate`). */
  onPossibleDuplicate?: ((report: PossibleDuplicate) => void) | undefined;
}

function leaseKeyOf(pass: GatePass): string {
  return pass.leaseKey ?? pass.correlationId;
}

/** A create that has nothing to look up first, as a resource hands it to {@link gatedCreate}. */
export interface GatedCreate {
  /** The body's correlation id; without one there is no key to coordinate on. */
  correlationId: string | undefined;
  /** The lease key, when it is not the correlation id (see {@link GatePass.leaseKey}). */
  leaseKey?: string | undefined;
  /** Names the call in log lines and errors ("create", "screeningGroups.create"). */
  caller: string;
  /** The path the create posts to, for the error when the lease stays held. */
  path: string;
  /** The create's options. */
  options: RequestOptions | undefined;
  /**
   * Checks the body (throws `RequestValidationError`) and returns it as it goes on the wire: bad
   * input never reaches the coordination, and the body is checked once.
   */
  validate(): unknown;
  /** Called with each possible duplicate the create reports (the caller's `onPossibleDuplicate`). */
  onPossibleDuplicate?: ((report: PossibleDuplicate) => void) | undefined;
}

/** The check a create runs in each attempt, just before its request leaves (see {@link Call.beforeAttempt}). */
export type BeforeAttempt = NonNullable<Call<z.ZodType>['beforeAttempt']>;

/**
 * A create's pass through the gate: checks the body (once: `send` gets it as it goes on the wire),
 * takes the lease (waiting for a concurrent create of the same id), sends (each attempt checking
 * the lease first, through the hook `send` is given), records, releases. Without a correlation
 * id, `send` runs as it is. A lease held by another for the whole wait ends in
 * `GroupMayHaveBeenCreatedError`.
 */
export async function gatedCreate<T>(
  creates: Creates,
  create: GatedCreate,
  send: (
    wireBody: unknown,
    beforeAttempt: BeforeAttempt | undefined,
    held: HeldGate | undefined,
  ) => Promise<T>,
  idOf: (created: T) => string,
): Promise<T> {
  const { correlationId, caller, path } = create;
  // The body's schema is built with zod, which a process loads on its first need.
  if (zodIfLoaded() === undefined) await loadZod();
  const wireBody = create.validate();
  if (correlationId === undefined) return send(wireBody, undefined, undefined);
  const pass: GatePass = {
    correlationId,
    leaseKey: create.leaseKey,
    caller,
    options: create.options ?? {},
    policy: creates.coordinationFailure,
    heldThroughout: (reason) =>
      new GroupMayHaveBeenCreatedError(path, correlationId, undefined, `${caller} (POST ${path})`, reason),
    onPossibleDuplicate: create.onPossibleDuplicate,
  };
  return passGate(creates, pass, (held) =>
    held.send((beforeAttempt) => send(wireBody, beforeAttempt, held), idOf),
  );
}

/** The lease a create holds, and its records. */
export class HeldGate {
  readonly #creates: Creates;
  readonly #pass: GatePass;
  /** The lease's time to live (ms): what each renewal asks for. */
  readonly #ttlMs: number;
  #lease: CreateLease | undefined;
  #warned = false;
  /**
   * Whether this pass may have stored `unresolved`: an attempt wrote it (or tried to: a write
   * whose answer was lost may have landed), so a failure that sent nothing must turn it into
   * `refused`, or the household stays refused for the unresolved rule's 10 minutes.
   */
  #unresolvedMayBeStored = false;
  /** The possible duplicates this pass noticed (docs/fault-model.md). */
  readonly duplicates: PossibleDuplicate[] = [];

  /** @internal Built by {@link passGate}. */
  constructor(creates: Creates, pass: GatePass, lease: CreateLease | undefined, ttlMs: number) {
    this.#creates = creates;
    this.#pass = pass;
    this.#lease = lease;
    this.#ttlMs = ttlMs;
  }

  /** `undefined` when the coordination failed and the policy let the create go on without it. */
  get lease(): CreateLease | undefined {
    return this.#lease;
  }

  /** Logs a coordination problem, once per pass. */
  warn(problem: string): void {
    if (this.#warned) return;
    this.#warned = true;
    this.#creates.logger.warn(
      `${this.#pass.caller} (correlation_id "${this.#pass.correlationId}"): ${problem}.`,
    );
  }

  /** The outcome an earlier holder recorded; with `'continue'`, a failing read counts as none. */
  async readOutcome(): Promise<CreateOutcomeRecord | undefined> {
    if (!this.#lease) return undefined;
    const { coordination, coordinationKey } = this.#creates;
    try {
      return await coordination.readCreateOutcome(coordinationKey, leaseKeyOf(this.#pass));
    } catch (error) {
      if (this.#pass.policy === 'refuse') throw error;
      this.warn(
        `the coordination could not read an earlier create's outcome (${describe(error)}); going on from the lookup alone (coordinationFailure: 'continue')`,
      );
      return undefined;
    }
  }

  /**
   * Records `outcome` under the lease (nothing without one). Resolves whether it was recorded: a
   * failing write is logged and counts as not recorded.
   */
  async record(outcome: CreateOutcome): Promise<boolean> {
    if (!this.#lease) return true;
    try {
      return await this.#creates.coordination.recordCreateOutcome(this.#lease, outcome);
    } catch (error) {
      this.warn(`the create's outcome could not be recorded (${describe(error)})`);
      return false;
    }
  }

  #lost(reason: LeaseLostReason, detail?: string): CreateLeaseLostError {
    const error = new CreateLeaseLostError(this.#pass.correlationId, reason, this.#pass.caller, detail);
    this.#creates.logger.warn(error.message);
    return error;
  }

  /**
   * The check in each attempt, after every wait and just before the request leaves: the lease is
   * renewed for the create's whole budget (or, on a coordination without renewal, must outlast the
   * attempt), then `unresolved` is recorded under it, dated now (a holder that dies mid-send leaves
   * that behind). A lease lost, or a write refused, stops the create with
   * {@link CreateLeaseLostError}, nothing sent; a write that fails does too, unless the policy is
   * `'continue'`.
   */
  readonly beforeAttempt: BeforeAttempt = async ({ timeoutMs }) => {
    const lease = this.#lease;
    if (!lease) return;
    const { coordination, clock } = this.#creates;
    let recorded: boolean;
    try {
      if (coordination.renewCreateLease) {
        const renewed = await coordination.renewCreateLease(lease, this.#ttlMs);
        if (!renewed) throw this.#lost('superseded');
        this.#lease = renewed;
      } else if (lease.expiresAt - clock.now() < timeoutMs) {
        throw this.#lost('expiring');
      }
      // Until the write answers, it may have landed; a refusal says it did not.
      this.#unresolvedMayBeStored = true;
      recorded = await coordination.recordCreateOutcome(this.#lease ?? lease, { state: 'unresolved' });
      this.#unresolvedMayBeStored = recorded;
    } catch (error) {
      if (error instanceof CreateLeaseLostError) throw error;
      if (this.#pass.policy === 'refuse') throw this.#lost('coordination_failed', describe(error));
      this.warn(
        `the coordination could not confirm the create lease (${describe(error)}); sending without it (coordinationFailure: 'continue'), so another process may send the same create`,
      );
      return;
    }
    if (!recorded) throw this.#lost('superseded');
  };

  /**
   * Sends the create under the lease: `create` is given {@link HeldGate.beforeAttempt} for each of
   * its attempts (so a holder that dies mid-send leaves `unresolved`, dated when it sent), then
   * records what it came to: the object's id, `refused` when the server refused it, or
   * `unresolved` (kept from before sending) when nobody knows. A write after the request left
   * that is refused or fails means the lease was lost while it was in flight: a possible
   * duplicate, reported at once ({@link HeldGate.duplicates}, the log, the `alert` channel).
   */
  async send<T>(
    create: (beforeAttempt: BeforeAttempt) => Promise<T>,
    idOf: (created: T) => string,
  ): Promise<T> {
    let created: T;
    try {
      created = await create(this.beforeAttempt);
    } catch (error) {
      // A lease lost meanwhile still takes this `refused` over its own `unresolved` (the
      // coordination's exception): the next holder may then send.
      if (this.#unresolvedMayBeStored && outcomeOfFailure(error) === 'refused')
        await this.record({ state: 'refused' });
      throw error;
    }
    const id = idOf(created);
    if (!(await this.record({ state: 'created', id })) && this.#lease && !(await this.#knownToOthers(id))) {
      this.reportDuplicate({
        kind: 'lease_lost_after_send',
        groupId: id,
        otherGroupIds: [],
        reason:
          'the create lease was lost while the request was in flight (the coordination refused or failed its outcome), so another holder may have created this household too.',
      });
    }
    return created;
  }

  /**
   * Whether the holder that took the lease over has recorded this very group as the household's
   * (its lookup found it): then no second create went out under the lease, and a report would be a
   * false alarm. A read that fails counts as not known, so the report goes out.
   */
  async #knownToOthers(id: string): Promise<boolean> {
    const stored = await this.readOutcome().catch(() => undefined);
    return stored?.state === 'created' && stored.id === id;
  }

  /** Adds a possible duplicate of this pass's household and announces it. */
  reportDuplicate(report: Omit<PossibleDuplicate, 'correlationId' | 'at'>): PossibleDuplicate {
    const full: PossibleDuplicate = {
      ...report,
      correlationId: this.#pass.correlationId,
      at: new Date(this.#creates.clock.now()).toISOString(),
    };
    this.duplicates.push(full);
    announceDuplicate(this.#creates.logger, full);
    const listener = this.#pass.onPossibleDuplicate;
    if (listener) {
      try {
        listener(full);
      } catch (error) {
        this.#creates.logger.warn(`onPossibleDuplicate threw (${describe(error)}); the report stands.`);
      }
    }
    return full;
  }

  /** Gives the lease back; a failing release is logged (the lease lapses on its own). */
  async release(): Promise<void> {
    if (!this.#lease) return;
    await this.#creates.coordination.releaseCreateLease(this.#lease).catch((error: unknown) => {
      this.warn(`the create lease could not be released (${describe(error)}); it lapses on its own`);
    });
  }
}

/**
 * Runs `task` holding the lease on (client id, `pass.correlationId`), waiting while another holder
 * has it (up to the lease's time to live: twice the create's budget), and releases it after.
 */
export async function passGate<T>(
  creates: Creates,
  pass: GatePass,
  task: (held: HeldGate) => Promise<T>,
): Promise<T> {
  creates.refuseWithoutAccount(pass.caller);
  const held = await acquire(creates, pass);
  try {
    return await task(held);
  } finally {
    await held.release();
  }
}

function holderText(held: HeldCreateLease | undefined): string {
  const holder = held?.holder;
  const who = holder ? `process ${holder.pid} on ${holder.host}` : 'another holder';
  return held ? `${who}, until ${new Date(held.expiresAt).toISOString()} at the latest` : who;
}

/**
 * Takes the lease, waiting while another holder has it. `lease: undefined` when the coordination
 * failed and the policy is `'continue'`, but only if no other holder was seen: a lease held by
 * another process is never bypassed.
 */
async function acquire(creates: Creates, pass: GatePass): Promise<HeldGate> {
  const { coordination, coordinationKey, clock } = creates;
  // The lease outlives a lookup and the whole create, grace window included.
  const ttl = 2 * creates.budgetMs(pass.options);
  const waitEnd = clock.now() + ttl;
  let told = false;
  for (let poll = 0; ; poll++) {
    let lease: CreateLease | undefined;
    try {
      lease = await coordination.acquireCreateLease(coordinationKey, leaseKeyOf(pass), ttl);
    } catch (error) {
      if (pass.policy === 'refuse' || poll > 0) throw error;
      const held = new HeldGate(creates, pass, undefined, ttl);
      held.warn(
        `the coordination failed (${describe(error)}); creating without the lease (coordinationFailure: 'continue'), so another process may send the same create`,
      );
      return held;
    }
    if (lease) {
      const dead = lease.takenOverFrom;
      if (dead) {
        creates.logger.warn(
          `${pass.caller} (correlation_id "${pass.correlationId}"): took over the create lease from process ${dead.pid} on ${dead.host}, which no longer runs; a create it had sent counts as unresolved from when it was sent, and is looked up, not resent.`,
        );
      }
      return new HeldGate(creates, pass, lease, ttl);
    }
    const left = waitEnd - clock.now();
    if (left <= 0)
      throw pass.heldThroughout(
        'another holder kept the create lease for this correlation id for the whole wait',
      );
    if (!told) {
      told = true;
      const held = await coordination
        .describeCreateLease?.(coordinationKey, pass.correlationId)
        .catch(() => undefined);
      creates.logger.warn(
        `${pass.caller} (correlation_id "${pass.correlationId}"): waiting for the create lease, held by ${holderText(held)}; it creates nothing meanwhile.`,
      );
    }
    await clock.sleep(Math.min(exponentialBackoffMs(poll), LEASE_POLL_MAX_MS, left), pass.options.signal);
  }
}
