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

import type { RequestOptions } from '../core/call/call.js';
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
import { GroupMayHaveBeenCreatedError } from './errors.js';

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
}

/**
 * A create's pass through the gate: checks the body (once: `send` gets it as it goes on the wire),
 * takes the lease (waiting for a concurrent create of the same id), sends, records, releases.
 * Without a correlation id, `send` runs as it is. A lease held by another for the whole wait ends
 * in `GroupMayHaveBeenCreatedError`.
 */
export async function gatedCreate<T>(
  creates: Creates,
  create: GatedCreate,
  send: (wireBody: unknown) => Promise<T>,
  idOf: (created: T) => string,
): Promise<T> {
  const { correlationId, caller, path } = create;
  // The body's schema is built with zod, which a process loads on its first need.
  if (zodIfLoaded() === undefined) await loadZod();
  const wireBody = create.validate();
  if (correlationId === undefined) return send(wireBody);
  const pass: GatePass = {
    correlationId,
    leaseKey: create.leaseKey,
    caller,
    options: create.options ?? {},
    policy: creates.coordinationFailure,
    heldThroughout: (reason) =>
      new GroupMayHaveBeenCreatedError(path, correlationId, undefined, `${caller} (POST ${path})`, reason),
  };
  return passGate(creates, pass, (held) => held.send(() => send(wireBody), idOf));
}

/** The lease a create holds, and its records. */
export class HeldGate {
  readonly #creates: Creates;
  readonly #pass: GatePass;
  /** `undefined` when the coordination failed and the policy let the create go on without it. */
  readonly lease: CreateLease | undefined;
  #warned = false;

  /** @internal Built by {@link passGate}. */
  constructor(creates: Creates, pass: GatePass, lease: CreateLease | undefined) {
    this.#creates = creates;
    this.#pass = pass;
    this.lease = lease;
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
    if (!this.lease) return undefined;
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

  /** Records `outcome` under the lease (nothing without one); a failing write is logged. */
  async record(outcome: CreateOutcome): Promise<void> {
    if (!this.lease) return;
    try {
      await this.#creates.coordination.recordCreateOutcome(this.lease, outcome);
    } catch (error) {
      this.warn(`the create's outcome could not be recorded (${describe(error)})`);
    }
  }

  /**
   * Sends the create under the lease: records `unresolved` first (so a holder that dies mid-send
   * leaves that, dated now), then what it came to: the object's id, `refused` when the server
   * refused it or it never left, or `unresolved` (kept from before sending) when nobody knows.
   */
  async send<T>(create: () => Promise<T>, idOf: (created: T) => string): Promise<T> {
    await this.record({ state: 'unresolved' });
    let created: T;
    try {
      created = await create();
    } catch (error) {
      if (outcomeOfFailure(error) === 'refused') await this.record({ state: 'refused' });
      throw error;
    }
    await this.record({ state: 'created', id: idOf(created) });
    return created;
  }

  /** Gives the lease back; a failing release is logged (the lease lapses on its own). */
  async release(): Promise<void> {
    if (!this.lease) return;
    await this.#creates.coordination.releaseCreateLease(this.lease).catch((error: unknown) => {
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
      const held = new HeldGate(creates, pass, undefined);
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
      return new HeldGate(creates, pass, lease);
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
