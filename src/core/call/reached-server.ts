/**
 * What the core hands back when an attempt of a create (`safety: 'create'`) fails in a way that may
 * have reached the server: the core never decides alone whether such a request is sent again. The
 * creates layer (src/creates) catches it, looks the result up, and either sends again on the same
 * {@link CallContext} (the one budget of attempts and time) or reports the outcome as unknown.
 * Internal: no entry exports it, and no caller of the SDK sees it.
 */

import { RequestOutcomeUnknownError } from '../errors.js';
import type { CallBudget, CallContext } from './call-context.js';

/** What the core's retry policy says of the next attempt. */
export type NextAttempt =
  /** The failure may have been committed (a timeout after sending, a 5xx): the request is never resent. */
  | { kind: 'ambiguous' }
  /**
   * The server refused before processing (a 429, a 401 whose token was refreshed), or the failure
   * never left the process after an earlier attempt that may have: a resend is safe once a lookup
   * says nothing was made. `delayMs` is the core's backoff (0 for the replay after a 401);
   * `undefined` when the call is out of attempts or time.
   */
  | { kind: 'resendable'; delayMs: number | undefined; replay: boolean };

/**
 * An attempt of a create failed and may have reached the server; see the module comment. It is a
 * {@link RequestOutcomeUnknownError}, so one that escaped the creates layer would still say the
 * right thing.
 */
export class MayHaveReachedServerError extends RequestOutcomeUnknownError {
  override name = 'MayHaveReachedServerError';
  /** What the retry policy allows next. */
  readonly next: NextAttempt;
  /** The call's attempts and time so far: the creates layer continues them. */
  readonly context: CallContext;
  /** The call's timeout, retries and deadline. */
  readonly budget: CallBudget;

  /**
   * @param cause The attempt's failure, as the caller would see it.
   * @param context The call so far (its attempts, deadline and label).
   * @param budget The call's timeout, retries and deadline.
   * @param next What the retry policy allows next.
   */
  constructor(cause: unknown, context: CallContext, budget: CallBudget, next: NextAttempt) {
    super(context.path, cause);
    this.next = next;
    this.context = context;
    this.budget = budget;
  }
}
