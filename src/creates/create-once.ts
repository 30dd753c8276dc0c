/**
 * `applicantGroups.createOnce`: a create that treats its correlation id as one household. It
 * looks the household up before sending, so a double submit (a double click, a retried web
 * request, a job run twice, two pods) invites once. Concurrent calls in one process share one
 * request; across processes, the client's `coordination` hands out a fenced lease per
 * (client id, correlation id), and the outcome its holder records is what the next holder reads
 * instead of creating again.
 */
import type * as z from 'zod';
import type { RequestOptions } from '../core/call/call.js';
import { exponentialBackoffMs } from '../core/call/retry.js';
import { parseRequest } from '../core/call/validate.js';
import type { CoordinationFailurePolicy } from '../core/coordination/coordination.js';
import { RequestValidationError } from '../core/errors.js';
import type { PagePromise } from '../core/results/pagination.js';
import { loadZod, zodIfLoaded } from '../load/zod.js';
import type {
  ApplicantGroup,
  ApplicantGroupCreateParams,
  ApplicantGroupListParams,
} from '../schemas/applicant-groups.js';
import { rentCentsMeant } from '../schemas/rent.js';
import { CorrelationConflictError } from './correlation-conflict.js';
import { type BeforeAttempt, type HeldGate, passGate } from './create-gate.js';
import type { ApplicantGroupCreateOptions } from './create-options.js';
import type { Creates } from './creates.js';
import type { PossibleDuplicate } from './duplicates.js';
import { GroupMayHaveBeenCreatedError } from './errors.js';
import { groupsUnder, newestGroup } from './group-lookup.js';
import {
  type HouseholdBody,
  type HouseholdGroup,
  householdDifferences,
  isSameHousehold,
} from './household-match.js';

/** What `applicantGroups.createOnce` resolves to. */
export interface CreateOnceResult {
  /**
   * The household's group: the live one found, or the one just created; when `expired` is `true`,
   * the household's newest group, which has expired.
   */
  group: ApplicantGroup;
  /** `true` when this call created it (and sent its invitations); `false` when it already existed. */
  created: boolean;
  /**
   * `true` when the household has no live group, only expired ones: `group` is the newest of
   * them and nothing was sent. An expired group cannot be completed; pass `reinviteExpired: true`
   * to invite the household again (docs/fault-model.md, "Expired groups and re-invitations").
   * Absent otherwise.
   */
  expired?: true | undefined;
  /**
   * When this call created a new group because the household's groups had all expired
   * (`reinviteExpired: true`): the id of the newest expired one, which the new group re-invites.
   * A re-invitation is made on purpose and is never reported as a duplicate. Absent otherwise.
   */
  reinvitationOf?: string | undefined;
  /**
   * When it already existed, how this call knew of it: `'gate'` when the coordination had it
   * recorded (a writer sharing this gate made or found it), `'lookup'` when only the lookup found
   * it (a writer that does not share the gate, such as a script with another coordination folder,
   * made it: such writers can both create when they send at the same moment). Absent when created.
   */
  via?: 'gate' | 'lookup' | undefined;
  /**
   * Present only when the call noticed that the household may have more than one group: its
   * create lease was lost while its request was in flight, or the lookup found several live
   * groups of the household. Each is also logged at error level and published on the tracing
   * `alert` channel (docs/fault-model.md, "A duplicate was reported").
   */
  duplicates?: readonly PossibleDuplicate[];
}

/** The options of `applicantGroups.createOnce`: a create's options, and one of its own. */
export interface CreateOnceOptions extends ApplicantGroupCreateOptions {
  /**
   * What this call does when the client's `coordination` fails (throws) as it takes the create
   * lease: `'refuse'` fails it and sends nothing; `'continue'` logs one warning and creates
   * without the lease. Default: the client option `coordinationFailure` (`'refuse'`).
   */
  coordinationFailure?: CoordinationFailurePolicy | undefined;
  /**
   * When every group of the household has expired (14 days without completion): `false`
   * (default) sends nothing and resolves `{ group: <the newest expired>, created: false,
   * expired: true }`; `true` creates a new group, which invites the applicants again, and
   * resolves `{ created: true, reinvitationOf: <the expired group's id> }`. A live group is always
   * returned as it is. Concurrent calls of one household share one request, and the first call's
   * choice.
   */
  reinviteExpired?: boolean | undefined;
}

/** What createOnce needs from the resource. */
export interface CreateOnceDeps {
  creates: Creates;
  path: string;
  /**
   * Sends the create, recovery included, without passing the gate (createOnce holds its lease);
   * `wireBody` is `body` as checked, once, by {@link CreateOnceDeps.bodySchema}.
   */
  create(
    body: ApplicantGroupCreateParams,
    wireBody: unknown,
    options: ApplicantGroupCreateOptions,
    beforeAttempt: BeforeAttempt | undefined,
    held: HeldGate | undefined,
  ): Promise<ApplicantGroup>;
  /** The create body's schema under these options (the client's rent unit, the rent floor). */
  bodySchema(options: ApplicantGroupCreateOptions): z.ZodType<unknown, ApplicantGroupCreateParams>;
  list(params: ApplicantGroupListParams, options?: RequestOptions): PagePromise<ApplicantGroup>;
}

/**
 * How long (ms) after an earlier create under the id ended unresolved `createOnce` keeps refusing
 * to send it: a group committed late shows within minutes; after this, an empty lookup means it
 * was never created. The command line adds it to the recorded time to say when a household can go.
 */
export const UNRESOLVED_RECHECK_MS = 10 * 60_000;

/** What a result says besides its group: how it was known, and expiry. */
interface ResultFacts {
  via?: 'gate' | 'lookup' | undefined;
  expired?: true | undefined;
  reinvitationOf?: string | undefined;
}

/** The call's result, with the possible duplicates it noticed when there are any. */
function result(
  group: ApplicantGroup,
  created: boolean,
  held: HeldGate,
  facts: ResultFacts = {},
): CreateOnceResult {
  const settled: CreateOnceResult = { group, created };
  if (facts.via !== undefined) settled.via = facts.via;
  if (facts.expired) settled.expired = true;
  if (facts.reinvitationOf !== undefined) settled.reinvitationOf = facts.reinvitationOf;
  if (held.duplicates.length > 0) settled.duplicates = [...held.duplicates];
  return settled;
}

/** The household's groups a lookup found: its newest live one, and its newest expired one. */
interface Picked {
  live: ApplicantGroup | undefined;
  expired: ApplicantGroup | undefined;
}

interface Running {
  bodyKey: string;
  body: HouseholdBody;
  promise: Promise<CreateOnceResult>;
}

/** The createOnce calls in flight in this process, by (origin, client id, correlation id). */
const running = new Map<string, Running>();

/** JSON with sorted keys: equal bodies give equal text whatever their key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // sort() without a comparator: by UTF-16 code units, one order whatever order the keys were written in.
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    const fields = keys.map((key) => `${JSON.stringify(key)}:${stableJson(record[key])}`);
    // Stryker disable next-line StringLiteral: fields joined without a comma read back one way all the same (each key is quoted, each value self-delimiting)
    const joined = fields.join(',');
    return `{${joined}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A body seen as the group it would create, for comparing two concurrent bodies. */
function asGroup(body: HouseholdBody): HouseholdGroup {
  return {
    applicants: body.applicants,
    monthly_rent_cents: rentCentsMeant(body) ?? Number.NaN,
    // Stryker disable next-line OptionalChaining: the body passed the schema, which requires property
    unit_number: body.property?.unit ?? '',
  };
}

/** Checks the body before any I/O (once: the create sends what this returns) and returns its correlation id. */
function checked(
  body: ApplicantGroupCreateParams,
  schema: z.ZodType<unknown, ApplicantGroupCreateParams>,
): { correlationId: string; wireBody: unknown } {
  const wireBody = parseRequest(schema, body, 'Invalid request body');
  if (typeof body.correlation_id === 'string') return { correlationId: body.correlation_id, wireBody };
  throw new RequestValidationError(
    [
      {
        path: 'correlation_id',
        message: 'createOnce needs a correlation_id: it names the household (use create() without one)',
        code: 'invalid_type',
      },
    ],
    'Invalid request body',
  );
}

/** See {@link CreateOnceResult}; the method's documentation is on `ApplicantGroups.createOnce`. */
export function createOnce(
  deps: CreateOnceDeps,
  body: ApplicantGroupCreateParams,
  options: CreateOnceOptions = {},
): Promise<CreateOnceResult> {
  // The body's schema is built with zod, which a process loads on its first need.
  if (zodIfLoaded() === undefined) return loadZod().then(() => createOnceLoaded(deps, body, options));
  return createOnceLoaded(deps, body, options);
}

function createOnceLoaded(
  deps: CreateOnceDeps,
  body: ApplicantGroupCreateParams,
  { coordinationFailure, reinviteExpired, ...options }: CreateOnceOptions,
): Promise<CreateOnceResult> {
  let correlationId: string;
  let wireBody: unknown;
  try {
    ({ correlationId, wireBody } = checked(body, deps.bodySchema(options)));
  } catch (error) {
    return Promise.reject(error);
  }
  const { creates } = deps;
  const key = JSON.stringify([creates.origin, creates.coordinationKey, correlationId]);
  const bodyKey = stableJson({ body, extraBody: options.extraBody });
  const current = running.get(key);
  if (current) {
    if (current.bodyKey === bodyKey) return current.promise;
    return Promise.reject(
      new CorrelationConflictError(
        correlationId,
        undefined,
        householdDifferences(asGroup(current.body), body),
      ),
    );
  }
  const policy = coordinationFailure ?? creates.coordinationFailure;
  if (policy !== 'refuse' && policy !== 'continue') {
    return Promise.reject(
      new TypeError(
        `createOnce: coordinationFailure must be 'refuse' or 'continue', got "${String(policy)}".`,
      ),
    );
  }
  const promise = new OnceCall(
    deps,
    { body, wireBody, correlationId },
    options,
    policy,
    reinviteExpired === true,
  )
    .run()
    .finally(() => {
      running.delete(key);
    });
  running.set(key, { bodyKey, body, promise });
  return promise;
}

/**
 * One createOnce: through the create gate (lease, look up, create if absent, record, release).
 * Without a lease (the coordination failed and the caller opted to continue) it only looks up and
 * creates.
 */
class OnceCall {
  readonly #deps: CreateOnceDeps;
  readonly #body: ApplicantGroupCreateParams;
  /** The body as checked: what the create sends. */
  readonly #wireBody: unknown;
  readonly #correlationId: string;
  readonly #options: ApplicantGroupCreateOptions;
  readonly #policy: CoordinationFailurePolicy;
  readonly #reinviteExpired: boolean;

  constructor(
    deps: CreateOnceDeps,
    household: { body: ApplicantGroupCreateParams; wireBody: unknown; correlationId: string },
    options: ApplicantGroupCreateOptions,
    policy: CoordinationFailurePolicy,
    reinviteExpired: boolean,
  ) {
    this.#deps = deps;
    this.#body = household.body;
    this.#wireBody = household.wireBody;
    this.#correlationId = household.correlationId;
    this.#options = options;
    this.#policy = policy;
    this.#reinviteExpired = reinviteExpired;
  }

  get #creates(): Creates {
    return this.#deps.creates;
  }

  run(): Promise<CreateOnceResult> {
    return passGate(
      this.#creates,
      {
        correlationId: this.#correlationId,
        caller: 'createOnce',
        options: this.#options,
        policy: this.#policy,
        heldThroughout: (reason) => this.#unresolved(reason),
        onPossibleDuplicate: this.#options.onPossibleDuplicate,
      },
      (held) => this.#decide(held),
    );
  }

  /** Looks up, then creates if absent; under the gate's lease when there is one. */
  async #decide(held: HeldGate): Promise<CreateOnceResult> {
    const recorded = await held.readOutcome();
    const groups = await this.#lookup();
    const { live, expired } = this.#pick(groups);
    if (live) {
      const known = recorded?.state === 'created' && recorded.id === live.id;
      if (!known) await held.record({ state: 'created', id: live.id });
      this.#reportSeveral(held, groups, live, 'the lookup found');
      // A create this gate recorded (created, or sent and unresolved) made it; else a writer off it.
      const onGate = known || recorded?.state === 'unresolved';
      return result(live, false, held, { via: onGate ? 'gate' : 'lookup' });
    }
    // No live group. A group recorded as created that the lookup shows (expired now) is settled;
    // one it does not show yet, or a create recorded unresolved (a re-invitation, say), may still
    // appear as the household's live group, and is waited for below, never passed over.
    const recordedShows = recorded?.state === 'created' && groups.some((group) => group.id === recorded.id);
    const pending = recorded !== undefined && recorded.state !== 'refused' && !recordedShows;
    if (expired && !this.#reinviteExpired && !pending) {
      // Never counted as the household's live group without saying so; never re-invited unasked.
      const knownExpired = recorded?.state === 'created' && recorded.id === expired.id;
      return result(expired, false, held, { via: knownExpired ? 'gate' : 'lookup', expired: true });
    }
    // Every age is the coordination's (its own clock: Redis's TIME), never this process's clock
    // against a stamp another process's write left (docs/safe-creates.md, "Which clock").
    const age = recorded && (recorded.ageMs ?? this.#creates.clock.now() - recorded.recordedAt);
    // An unresolved create long past is settled by the lookup above: its group never appeared.
    const settledLongAgo =
      recorded?.state === 'unresolved' && age !== undefined && age > UNRESOLVED_RECHECK_MS;
    if (recorded && pending && !settledLongAgo) {
      // An earlier create under this id: its group has not shown in the list yet, or nobody knows
      // whether it exists. Either way it is not sent again: wait for it over the grace window that
      // began when it was sent (a holder that died long ago gets one more lookup, no wait).
      const grace = this.#options.createGraceWindow ?? this.#creates.graceWindowMs;
      const windowLeft = Math.max(0, grace - Math.max(0, age ?? 0));
      const group = await this.#awaitEarlier(windowLeft);
      if (group) return result(group, false, held, { via: 'gate' });
      throw this.#unresolved(
        recorded.state === 'created'
          ? `group ${recorded.id}, recorded as created under it, did not appear in the list within the grace window`
          : 'an earlier create under it may have reached the server (it ended unresolved, or its process stopped while sending it), and its group did not appear within the grace window',
      );
    }
    if (expired && !this.#reinviteExpired) {
      // The earlier create was settled long ago and never showed: the household is expired.
      return result(expired, false, held, { via: 'lookup', expired: true });
    }
    const group = await held.send(
      (beforeAttempt) => this.#deps.create(this.#body, this.#wireBody, this.#options, beforeAttempt, held),
      (created) => created.id,
    );
    if (held.duplicates.some((report) => report.kind === 'lease_lost_after_send')) {
      // The lease was lost in flight: look again, and name the household's other groups if any show.
      const again = await this.#lookup().catch(() => []);
      this.#reportSeveral(
        held,
        [...again.filter((other) => other.id !== group.id), group],
        group,
        'after the lease was lost, a lookup found',
      );
    }
    return result(group, true, held, { reinvitationOf: expired?.id });
  }

  /**
   * Reports the household's live groups when the lookup found more than one. An expired group
   * beside a newer one is a re-invitation made on purpose, not a duplicate.
   */
  #reportSeveral(held: HeldGate, groups: readonly ApplicantGroup[], own: ApplicantGroup, what: string): void {
    const live = groups.filter(
      (group) => !group.is_expired && isSameHousehold(householdDifferences(group, this.#body)),
    );
    if (live.length < 2) return;
    const others = live.filter((group) => group.id !== own.id).map((group) => group.id);
    held.reportDuplicate({
      kind: 'several_groups',
      groupId: own.id,
      otherGroupIds: others,
      reason: `${what} ${live.length} live groups of this household under its correlation id.`,
    });
  }

  #lookup(): Promise<ApplicantGroup[]> {
    const { signal, timeout, maxRetries, headers, deadline } = this.#options;
    return groupsUnder((params, options) => this.#deps.list(params, options), this.#correlationId, {
      signal,
      timeout,
      maxRetries,
      headers,
      deadline,
    });
  }

  /**
   * The newest live and the newest expired group of this household; a
   * {@link CorrelationConflictError} when only others exist.
   */
  #pick(groups: readonly ApplicantGroup[]): Picked {
    const matching = groups.filter((group) => isSameHousehold(householdDifferences(group, this.#body)));
    if (matching.length > 0) {
      return {
        live: newestGroup(matching.filter((group) => !group.is_expired)),
        // Stryker disable next-line MethodExpression: equivalent, `expired` is read only when no group is live, and then every match is expired
        expired: newestGroup(matching.filter((group) => group.is_expired)),
      };
    }
    const other = newestGroup(groups);
    if (other)
      throw new CorrelationConflictError(this.#correlationId, other, householdDifferences(other, this.#body));
    // Stryker disable next-line ObjectLiteral: equivalent, `{}` reads the same two undefined fields
    return { live: undefined, expired: undefined };
  }

  /** Polls the lookup for `windowMs` for the group an earlier holder may have created. */
  async #awaitEarlier(windowMs: number): Promise<ApplicantGroup | undefined> {
    const clock = this.#creates.clock;
    const end = clock.now() + windowMs;
    for (let poll = 0; ; poll++) {
      const left = end - clock.now();
      if (left <= 0) return undefined;
      await clock.sleep(Math.min(exponentialBackoffMs(poll), left), this.#options.signal);
      const found = this.#pick(await this.#lookup()).live;
      if (found) return found;
    }
  }

  #unresolved(searched: string): GroupMayHaveBeenCreatedError {
    return new GroupMayHaveBeenCreatedError(
      this.#deps.path,
      this.#correlationId,
      undefined,
      `createOnce (POST ${this.#deps.path})`,
      searched,
    );
  }
}
