/**
 * The creates layer: how a create (a POST that makes something and may email applicants) is sent.
 * The core sends each attempt and hands back, as a {@link MayHaveReachedServerError}, any failure
 * that may have reached the server; this loop decides what follows. Found by a lookup: that is the
 * result. Refused before processing (a 429, a 401) with budget left: wait the core's backoff, look
 * up, and send again on the same attempts and deadline. Ambiguous: never resent; looked up over
 * the grace window (`recovery.ts`), then the unresolved rule (`unresolved.ts`).
 *
 * A create is one span on its operation's tracing channel: its attempts, its retries and its
 * lookups (each a `lookup` step event, and each list request a span of its own inside it).
 */
import type * as z from 'zod';
import { abortError } from '../core/call/abort.js';
import type { WithResponse } from '../core/call/api-promise.js';
import type { Call, RequestOptions } from '../core/call/call.js';
import { type CallBudget, type CallContext, callBudget } from '../core/call/call-context.js';
import type { HttpCore } from '../core/call/http.js';
import { MayHaveReachedServerError } from '../core/call/reached-server.js';
import type { Clock } from '../core/clock.js';
import type { Coordination, CoordinationFailurePolicy } from '../core/coordination/coordination.js';
import type { Logger } from '../core/observability/log.js';
import { type CallTrace, traceLookup } from '../core/observability/tracing.js';
import type { ResolvedOptions } from '../core/options.js';
import {
  type CreateRecovery,
  lookupBeforeResend,
  type RecoveryEnvironment,
  recoverAmbiguousCreate,
} from './recovery.js';

/** The client options the creates layer reads. */
export type CreatesOptions = Pick<
  ResolvedOptions,
  'timeout' | 'maxRetries' | 'deadline' | 'createGraceWindow' | 'coordinationFailure'
>;

/** What the client hands the creates layer. */
export interface CreatesWiring {
  /** The core: a create's span ({@link HttpCore.traced}) and its attempts ({@link HttpCore.send}). */
  core: Pick<HttpCore, 'traced' | 'send' | 'noAccountError'>;
  /** The clock every wait of a create goes on (backoff, grace window, lease polls). */
  clock: Clock;
  /** Where a create's warnings go. */
  logger: Logger;
  /** What the client's processes share: the create leases and their outcomes. */
  coordination: Coordination;
  /** The key this client coordinates under: its client id (or a stand-in for a static token). */
  coordinationKey: string;
  /** The API's origin: concurrent `createOnce` calls are shared per origin and client. */
  origin: string;
  /** The client's options. */
  options: CreatesOptions;
}

const NO_OPTIONS: RequestOptions = Object.freeze({});

/** A result a lookup found: no response of its own. */
function recovered<T>(found: T): WithResponse<T> {
  return { data: found, response: { status: 200, headers: {}, requestId: undefined } };
}

/** Sends the client's creates; see the module comment. */
export class Creates {
  /** The clock every wait of a create goes on. */
  readonly clock: Clock;
  /** Where a create's warnings go. */
  readonly logger: Logger;
  /** What the client's processes share. */
  readonly coordination: Coordination;
  /** The key this client coordinates under. */
  readonly coordinationKey: string;
  /** The API's origin. */
  readonly origin: string;
  readonly #core: CreatesWiring['core'];
  readonly #options: CreatesOptions;

  constructor(wiring: CreatesWiring) {
    this.#core = wiring.core;
    this.clock = wiring.clock;
    this.logger = wiring.logger;
    this.coordination = wiring.coordination;
    this.coordinationKey = wiring.coordinationKey;
    this.origin = wiring.origin;
    this.#options = wiring.options;
  }

  /**
   * Refuses `caller` (`createOnce`, a create) before any lease or I/O when the client acts for no
   * account (a platform root, docs/platforms.md).
   * @throws {ConfigurationError} naming `withOptions`.
   */
  refuseWithoutAccount(caller: string): void {
    const error = this.#core.noAccountError(caller);
    if (error) throw error;
  }

  /** Whether `createOnce` goes ahead without its lease when the coordination fails (the client's default). */
  get coordinationFailure(): CoordinationFailurePolicy {
    return this.#options.coordinationFailure;
  }

  /** The client's grace window (ms): how long a group just created may be missing from the lists. */
  get graceWindowMs(): number {
    return this.#options.createGraceWindow;
  }

  /**
   * The longest a create with these options can run (ms): its deadline, its grace window and one
   * more lookup. A create lease must outlive it.
   */
  budgetMs(options: RequestOptions = NO_OPTIONS): number {
    const { timeout, totalMs } = callBudget(this.#options, options);
    return totalMs + (options.createGraceWindow ?? this.#options.createGraceWindow) + timeout;
  }

  /**
   * Sends a create whose body is already checked (`call.bodySchema` unset), settling a failure that
   * may have reached the server by `recovery`: the result the server made, or the error `recovery`
   * builds when nobody can tell.
   */
  send<S extends z.ZodType>(
    call: Call<S>,
    recovery: CreateRecovery<z.output<S>>,
  ): Promise<WithResponse<z.output<S>>> {
    return this.#core.traced(call, (trace) => this.#run(call, recovery, trace));
  }

  async #run<S extends z.ZodType>(
    call: Call<S>,
    untraced: CreateRecovery<z.output<S>>,
    trace: CallTrace,
  ): Promise<WithResponse<z.output<S>>> {
    const recovery =
      untraced.lookup === undefined
        ? untraced
        : Object.assign({}, untraced, { lookup: traceLookup(untraced.lookup, trace) });
    const options = call.options ?? NO_OPTIONS;
    const signal = options.signal;
    let resumed: CallContext | undefined;
    for (;;) {
      let handedBack: MayHaveReachedServerError;
      try {
        return await this.#core.send(call, trace, resumed);
      } catch (error) {
        if (!(error instanceof MayHaveReachedServerError)) throw error;
        handedBack = error;
      }
      const { context, budget, next, cause } = handedBack;
      const env: RecoveryEnvironment = {
        clock: this.clock,
        logger: this.logger,
        signal,
        timeout: budget.timeout,
        headers: options.headers,
      };
      if (next.kind === 'ambiguous') {
        return recovered(await this.#recoverAmbiguous(recovery, handedBack, budget, options, env));
      }
      if (next.delayMs === undefined) {
        // Out of attempts or time. A hostile server may have committed the create it refused.
        const found = recovery.lookup ? await lookupBeforeResend(recovery, context, cause, env) : undefined;
        if (found !== undefined) return recovered(found);
        throw cause;
      }
      if (!next.replay) this.logger.warn(context.retryLine(next.delayMs, cause));
      trace.retry(context.attempts, cause, next.delayMs);
      if (!next.replay) await this.clock.sleep(next.delayMs, signal);
      if (signal?.aborted) throw abortError(signal, context.label);
      if (recovery.lookup) {
        const found = await lookupBeforeResend(recovery, context, cause, env);
        if (found !== undefined) return recovered(found);
      }
      resumed = context;
    }
  }

  /** An ambiguous failure: polls the lookup over the grace window (cut by a deadline the caller set). */
  #recoverAmbiguous<T>(
    recovery: CreateRecovery<T>,
    handedBack: MayHaveReachedServerError,
    budget: CallBudget,
    options: RequestOptions,
    env: RecoveryEnvironment,
  ): Promise<T> {
    const { context, cause } = handedBack;
    const grace = options.createGraceWindow ?? this.#options.createGraceWindow;
    const hardEnd = budget.explicitDeadline === undefined ? Number.POSITIVE_INFINITY : context.deadline;
    const windowEnd = Math.min(this.clock.now() + grace, hardEnd);
    return recoverAmbiguousCreate(recovery, context, cause, windowEnd, hardEnd, env);
  }
}
