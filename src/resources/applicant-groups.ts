/** Applicant groups: the current interface (docs/wire-contract.md §4.1 to §4.3). */
import { APIPromise, type WithResponse } from '../core/call/api-promise.js';
import type { HttpCore, RequestOptions } from '../core/call/http.js';
import { defineOperation, operationCall } from '../core/call/operation.js';
import { pollUntilSettled } from '../core/call/poll.js';
import { exponentialBackoffMs } from '../core/call/retry.js';
import { parseRequest } from '../core/call/validate.js';
import { type BatchOptions, mapSettled, type Settled } from '../core/results/batch.js';
import { type ListOptions, listPages, type PagePromise } from '../core/results/pagination.js';
import { type BeforeAttempt, gatedCreate, type HeldGate } from '../creates/create-gate.js';
import { type CreateOnceOptions, type CreateOnceResult, createOnce } from '../creates/create-once.js';
import { type ApplicantGroupCreateOptions, rentFloorApplies } from '../creates/create-options.js';
import type { Creates } from '../creates/creates.js';
import { GroupNotFoundError } from '../creates/errors.js';
import {
  type DuplicateHousehold,
  type FindDuplicatesParams,
  findDuplicates,
} from '../creates/find-duplicates.js';
import { recoveryLookup } from '../creates/group-lookup.js';
import { groupCreateRecovery } from '../creates/unresolved.js';
import {
  type ApplicantGroup,
  type ApplicantGroupCreateParams,
  type ApplicantGroupListParams,
  applicantGroupCreateWireSchema,
  applicantGroupSchemas,
} from '../schemas/lazy/applicant-groups.js';
import { type ApplicantGroupReports, type ReportDetail, reportSchemas } from '../schemas/lazy/reports.js';
import type { WebhookEvent } from '../schemas/lazy/webhooks.js';
import { rentCentsMeant } from '../schemas/rent.js';
import { applicantGroupsList } from './cold-checks.generated.js';
import { accountView } from './group-store-view.js';
import {
  type GroupChange,
  type GroupStore,
  type SyncOptions,
  type SyncSource,
  syncGroups,
} from './group-sync.js';
import { householdReport } from './household-report.js';
import { RentEchoCheck } from './rent-echo.js';
import { Reports } from './reports.js';
import { APIResource } from './resource.js';
import { changesFromEvent } from './webhook-hints.js';

/** The operations of `client.applicantGroups`, one descriptor each (CONTRIBUTING.md, "A new endpoint"). */
export const applicantGroupOperations = {
  list: defineOperation({
    name: 'applicantGroups.list',
    method: 'GET',
    path: '/api/v1/applicant_groups',
    get query() {
      return applicantGroupSchemas().applicantGroupListParamsSchema;
    },
    get response() {
      return applicantGroupSchemas().applicantGroupListResponseSchema;
    },
    // A cold process's first page is checked without zod (src/core/call/cold-call.ts).
    cold: applicantGroupsList,
    doc: 'One page of applicant groups matching the filters.',
  }),
  create: defineOperation({
    name: 'applicantGroups.create',
    method: 'POST',
    path: '/api/v1/applicant_groups',
    get body() {
      return applicantGroupCreateWireSchema('dollars');
    },
    get response() {
      return applicantGroupSchemas().applicantGroupSchema;
    },
    create: 'lookup',
    doc: 'Creates a group and invites its applicants (email, text).',
  }),
  listReports: defineOperation({
    name: 'applicantGroups.listReports',
    method: 'GET',
    path: '/api/v1/applicant_groups/{groupId}/reports',
    get response() {
      return reportSchemas().applicantGroupReportsSchema;
    },
    doc: 'The household and individual reports of a group.',
  }),
};

/** What narrows the search for one group: the API has no retrieve-by-id endpoint. */
export type GroupLookupHint = Partial<Pick<ApplicantGroup, 'correlation_id' | 'created_at_timestamp'>>;

/** Options of {@link ApplicantGroups.waitForCompletion}. */
export interface WaitOptions extends RequestOptions {
  /** Milliseconds between polls. Default 30 000; never less than 1 000 (shorter values are raised). */
  pollInterval?: number;
  /** Called with the group each time its status (or expiry) changes. */
  onStatusChange?: (group: ApplicantGroup) => void;
  /**
   * Called with the group as each poll reads it, changed or not (before `onStatusChange`): for
   * progress finer than the status, such as how many applicants have completed.
   */
  onPoll?: (group: ApplicantGroup) => void;
}

/** Options of {@link ApplicantGroups.createMany}. */
export interface CreateManyOptions extends BatchOptions {
  /** Each call's options; `coordinationFailure` applies with `once` only. */
  request?: CreateOnceOptions;
  /**
   * Create each through {@link ApplicantGroups.createOnce}: a household whose group exists is
   * returned without sending (every body then needs a `correlation_id`), and each item settles
   * with `{ group, created }`. Default false: each settles with the group `create` returned.
   */
  once?: boolean;
}

/** Whether a group will change no more: completed, or expired before completion. */
export function isSettledGroup(group: ApplicantGroup): boolean {
  return group.status === 'completed' || group.is_expired;
}

/** `client.applicantGroups`. */
export class ApplicantGroups extends APIResource {
  readonly #creates: Creates;
  readonly #rent: RentEchoCheck;

  /**
   * @internal Resources are built by the client; creates go through `creates`, and `rent` checks
   * each create's echoed rent.
   */
  constructor(
    core: HttpCore,
    creates: Creates,
    rent: RentEchoCheck = new RentEchoCheck('dollars', 'refuse', core.logger),
  ) {
    super(core);
    this.#creates = creates;
    this.#rent = rent;
  }

  /**
   * Lists groups matching the filters. `await` gives the first page; `for await` walks every
   * group of every page.
   */
  list(params: ApplicantGroupListParams = {}, options?: ListOptions): PagePromise<ApplicantGroup> {
    return listPages(this.core, {
      operation: applicantGroupOperations.list,
      params: { ...params },
      items: (body) => body.applicant_groups,
      // Optional on the wire: without it, the walk ends on an empty page.
      totalCount: (body) => body.total_count,
      options,
    });
  }

  /**
   * Creates a group and, unless `is_invitation_disabled`, emails (and texts) every applicant.
   * Pass a `correlation_id`: after an ambiguous failure the SDK then looks the group up (over the
   * grace window) instead of sending the invitations twice, and the create passes the client's
   * create gate (the coordination's lease on the id), so a concurrent `createOnce` of the same
   * household, here or in another process, waits for it and finds its group. It still creates a
   * new group under a reused id: use {@link ApplicantGroups.createOnce} to find one first.
   */
  create(
    body: ApplicantGroupCreateParams,
    options?: ApplicantGroupCreateOptions,
  ): APIPromise<ApplicantGroup> {
    const gate = {
      correlationId: typeof body?.correlation_id === 'string' ? body.correlation_id : undefined,
      caller: 'create',
      path: applicantGroupOperations.create.path,
      options,
      validate: () => parseRequest(this.#bodySchema(options), body, 'Invalid request body'),
      onPossibleDuplicate: options?.onPossibleDuplicate,
    };
    return new APIPromise(
      gatedCreate(
        this.#creates,
        gate,
        (wireBody, beforeAttempt, held) => this.#send(body, wireBody, options, beforeAttempt, held),
        (created) => created.data.id,
      ),
    );
  }

  /** The create body's schema for this client's rent unit, with the $100 floor unless allowed off. */
  #bodySchema(options: ApplicantGroupCreateOptions | undefined) {
    return applicantGroupCreateWireSchema(this.#rent.unit, { rentFloor: rentFloorApplies(options) });
  }

  /**
   * Sends a create through the creates layer (recovery included) without passing the gate: its
   * caller holds the lease (`held`, which reports a recovery lookup that finds several live groups
   * of the household), and checked `body` once (`wireBody` is what goes on the wire).
   */
  #send(
    body: ApplicantGroupCreateParams,
    wireBody: unknown,
    options: ApplicantGroupCreateOptions | undefined,
    beforeAttempt: BeforeAttempt | undefined,
    held: HeldGate | undefined,
  ): Promise<WithResponse<ApplicantGroup>> {
    const refusal = this.#rent.refusal();
    if (refusal) return Promise.reject(refusal);
    const correlationId = typeof body?.correlation_id === 'string' ? body.correlation_id : undefined;
    // Only a group of this household created since the call began is this create's result.
    const startedAt = this.#creates.clock.now();
    // Checked already, in this client's rent unit: the core sends the body as it is.
    const call = operationCall(applicantGroupOperations.create, {
      body: wireBody,
      bodyChecked: true,
      options,
      beforeAttempt,
    });
    const recovery = groupCreateRecovery(
      correlationId,
      correlationId
        ? recoveryLookup(
            (params, opts) => this.list(params, opts),
            correlationId,
            body,
            startedAt,
            () => this.#creates.clock.now(),
            held &&
              ((chosen, others) =>
                held.reportDuplicate({
                  kind: 'several_groups',
                  groupId: chosen.id,
                  otherGroupIds: others.map((other) => other.id),
                  reason: `the lookup after an ambiguous failure found ${others.length + 1} live groups of this household created since the call began.`,
                })),
          )
        : undefined,
    );
    const result = this.#creates.send(call, recovery);
    // The body passed validation by the time a response exists, so its rent is well formed.
    return result.then((value) => {
      this.#rent.check(rentCentsMeant(body), value.data);
      return value;
    });
  }

  /**
   * Creates the household's group unless it exists: its `correlation_id` (required) names one
   * household. Looks the household up first and resolves `{ group, created: false }` with the
   * newest live matching group without sending anything (only expired ones: `expired: true` and
   * nothing sent, unless `reinviteExpired: true` invites the household again with a new group,
   * `reinvitationOf` naming the expired one); otherwise creates it (`created: true`) under
   * the same recovery rules as {@link ApplicantGroups.create}. Concurrent calls in one process
   * with the same correlation id and an equal body share one request; across processes, through
   * the client's `coordination`. A group of another household under the id, or a concurrent call
   * with a different body, is a {@link CorrelationConflictError}, and nothing is sent. A
   * coordination that fails fails the call, unless `coordinationFailure: 'continue'` (here or on
   * the client) lets it create without the lease.
   */
  createOnce(body: ApplicantGroupCreateParams, options?: CreateOnceOptions): Promise<CreateOnceResult> {
    return createOnce(
      {
        creates: this.#creates,
        path: applicantGroupOperations.create.path,
        create: async (createBody, wireBody, createOptions, beforeAttempt, held) =>
          (await this.#send(createBody, wireBody, createOptions, beforeAttempt, held)).data,
        bodySchema: (createOptions) => this.#bodySchema(createOptions),
        list: (params, listOptions) => this.list(params, listOptions),
      },
      body,
      options,
    );
  }

  /**
   * Every household with more than one live group among the groups created in the period (all
   * pages, read once; the pages are not kept): the reconcile pass for duplicates nobody reported,
   * such as those whose process died (docs/fault-model.md, "A duplicate was reported"). A household
   * is a correlation id with the same applicants, rent and unit; an expired group never counts,
   * so a re-invitation beside an expired group is not a duplicate. Sorted by correlation id, each
   * household's groups newest first. A bad `createdAfter` / `createdBefore` (milliseconds, an
   * invalid Date) is a `RequestValidationError` naming it, before any I/O.
   */
  findDuplicates(params?: FindDuplicatesParams, options?: RequestOptions): Promise<DuplicateHousehold[]> {
    return findDuplicates((query, listOptions) => this.list(query, listOptions), params, options);
  }

  /**
   * The first group the API lists under this `correlation_id` (one request), or `undefined`. A
   * reused correlation id names several groups: `createOnce` finds this household's own.
   */
  async findByCorrelationId(
    correlationId: string,
    options?: RequestOptions,
  ): Promise<ApplicantGroup | undefined> {
    const page = await this.list({ correlation_id: correlationId }, options);
    return page.items.find((group) => group.correlation_id === correlationId);
  }

  /**
   * One group by id. The API has no retrieve endpoint, so this lists: by `correlation_id` when
   * the hint has one (one request), else within a second of `created_at_timestamp`, else every
   * page. `undefined` when no group has that id.
   */
  async findById(
    id: string,
    hint: GroupLookupHint = {},
    options?: RequestOptions,
  ): Promise<ApplicantGroup | undefined> {
    const created = hint.created_at_timestamp;
    const params: ApplicantGroupListParams = hint.correlation_id
      ? { correlation_id: hint.correlation_id }
      : typeof created === 'number'
        ? { created_after: Math.floor(created) - 1, created_before: Math.ceil(created) + 1 }
        : {};
    for await (const group of this.list(params, options)) if (group.id === id) return group;
    return undefined;
  }

  /**
   * Polls a group until it is completed or expired, and returns it in that state. Pass the group
   * object (not just its id) so each poll is one narrow request, and so a group just created is
   * waited for while the list lags behind it (up to the client's `createGraceWindow`). Throws
   * {@link GroupNotFoundError} when no group has the id (for a group object: not within that window).
   */
  async waitForCompletion(
    group: string | ApplicantGroup,
    options: WaitOptions = {},
  ): Promise<ApplicantGroup> {
    const id = typeof group === 'string' ? group : group.id;
    const hint: GroupLookupHint = typeof group === 'string' ? {} : group;
    const clock = this.core.clock;
    // A group object came from somewhere (a create just now): until it is first listed, the list
    // may lag behind it, for up to the grace window. A bare id gets no such benefit of the doubt.
    let lagEnd = typeof group === 'string' ? undefined : clock.now() + this.#creates.graceWindowMs;
    const read = async (): Promise<ApplicantGroup> => {
      for (let poll = 0; ; poll++) {
        const found = await this.findById(id, hint, options);
        if (found) {
          lagEnd = undefined;
          options.onPoll?.(found);
          return found;
        }
        const left = lagEnd === undefined ? 0 : lagEnd - clock.now();
        if (left <= 0) throw new GroupNotFoundError(id);
        await clock.sleep(Math.min(exponentialBackoffMs(poll), left), options.signal);
      }
    };
    return pollUntilSettled({
      read,
      stateOf: (current) => `${current.status}${current.is_expired ? ' (expired)' : ''}`,
      settled: isSettledGroup,
      onChange: options.onStatusChange,
      intervalMs: options.pollInterval,
      clock,
      signal: options.signal,
    });
  }

  /**
   * Creates many groups, `concurrency` at a time (default 8), and returns one result per body in
   * input order: a failure never discards a sibling's result. Give each body a `correlation_id`
   * so that ambiguous failures are recovered instead of reported. With `once: true` each body
   * goes through {@link ApplicantGroups.createOnce} and settles with `{ group, created }`.
   */
  createMany(
    bodies: readonly ApplicantGroupCreateParams[],
    options: CreateManyOptions & { once: true },
  ): Promise<Settled<CreateOnceResult>[]>;
  /** Creates many groups with `create`: each item settles with its group. */
  createMany(
    bodies: readonly ApplicantGroupCreateParams[],
    options?: CreateManyOptions & { once?: false | undefined },
  ): Promise<Settled<ApplicantGroup>[]>;
  /** Creates many groups; `once` decides what each item settles with (see above). */
  createMany(
    bodies: readonly ApplicantGroupCreateParams[],
    options?: CreateManyOptions,
  ): Promise<Settled<ApplicantGroup>[] | Settled<CreateOnceResult>[]>;
  /** The implementation of the signatures above. */
  createMany(
    bodies: readonly ApplicantGroupCreateParams[],
    options: CreateManyOptions = {},
  ): Promise<Settled<ApplicantGroup>[] | Settled<CreateOnceResult>[]> {
    const { coordinationFailure, ...request } = options.request ?? {};
    if (options.once) {
      const onceOptions = Object.assign({}, request, { coordinationFailure });
      return mapSettled(bodies, (body) => this.createOnce(body, onceOptions), options);
    }
    return mapSettled(bodies, (body) => this.create(body, request), options);
  }

  /** The household and individual reports of a group (404 NotFoundError for an unknown group). */
  listReports(groupId: string, options?: RequestOptions): APIPromise<ApplicantGroupReports> {
    return this.core.request(
      operationCall(applicantGroupOperations.listReports, { pathParams: { groupId }, options }),
    );
  }

  /**
   * The group's current household income report (the newest household report; see
   * docs/household-reports.md, "Household report"), or `undefined` while there is none. Throws
   * `ReportExpiredError` when the current one has expired.
   */
  householdReport(groupId: string, options?: RequestOptions): Promise<ReportDetail | undefined> {
    const reports = new Reports(this.core);
    return householdReport(
      { listReports: (id, o) => this.listReports(id, o), retrieve: (id, o) => reports.retrieve(id, o) },
      groupId,
      options,
    );
  }

  /**
   * One reconciliation pass: yields what changed since `store` last saw it (a new group, a status
   * change, an expiry, a new report) for every group that can still change, and records each
   * change in the store when the next one is asked for (README, "Staying in sync"). Every store
   * method gets this client's client id as its `account`, so one store serves every account.
   */
  sync(store: GroupStore, options?: SyncOptions): AsyncGenerator<GroupChange, void, undefined> {
    return syncGroups(this.#syncSource(), accountView(store, this.#creates.coordinationKey), options);
  }

  /**
   * A webhook as a hint: reads the event's group from the API and yields what changed since
   * `store` last saw it, exactly as `sync` would. Repeated or late events yield nothing stale.
   */
  syncEvent(
    event: WebhookEvent,
    store: GroupStore,
    options?: SyncOptions,
  ): AsyncGenerator<GroupChange, void, undefined> {
    return changesFromEvent(
      this.#syncSource(),
      accountView(store, this.#creates.coordinationKey),
      event,
      options,
    );
  }

  /** What sync and the webhook hints read through. */
  #syncSource(): SyncSource {
    return {
      list: (params, o) => this.list(params, o),
      findById: (id, hint, o) => this.findById(id, { created_at_timestamp: hint.created_at_timestamp }, o),
      listReports: (id, o) => this.listReports(id, o),
      now: () => this.core.clock.now(),
    };
  }
}
