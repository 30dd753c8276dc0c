/**
 * What a create does after a failure that leaves unknown whether the server committed it (a
 * timeout or reset after the request was written, a 5xx, an unreadable body): it is never sent
 * again. With a lookup (a `correlation_id`), the SDK polls the lookup with backoff over a grace
 * window, because a slow commit or a lagging list shows the group late, and returns the group as
 * soon as it appears; otherwise, or if it never appears, the error the create's recovery builds
 * from the {@link UnresolvedCreate} (`unresolved.ts`: `GroupMayHaveBeenCreatedError` for groups).
 * Before a create is sent again after a refusal that reached the server, one lookup
 * ({@link lookupBeforeResend}). The loop that calls these is `creates.ts`.
 */
import { abortError } from '../core/call/abort.js';
import type { CallContext } from '../core/call/call-context.js';
import { formatDuration } from '../core/call/call-context.js';
import { exponentialBackoffMs } from '../core/call/retry.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/observability/log.js';

/** Per-lookup settings the recovery passes: one attempt each, the poll loop is the retry. */
export interface LookupOptions {
  /** The caller's signal. */
  signal?: AbortSignal | undefined;
  /** Milliseconds the lookup may take. */
  timeout: number;
  /** The caller's per-call headers. */
  headers?: Record<string, string> | undefined;
}

/** What the recovery knows when a create's outcome stays unknown. */
export interface UnresolvedCreate {
  /** The path that was posted to. */
  path: string;
  /** The caller's correlation id, if any. */
  correlationId: string | undefined;
  /** The ambiguous failure that stopped the create. */
  cause: unknown;
  /** Names the call and how it went ("POST /path on host (3 attempts, 1.2 s)"). */
  what: string;
  /** How the object was looked for, when it was. */
  searched?: string | undefined;
}

/** A create's way of finding out whether an attempt went through. */
export interface CreateRecovery<T> {
  /** The caller's correlation id, quoted in the error when recovery is impossible. */
  correlationId: string | undefined;
  /** Looks the object up; `undefined` when it is not (yet) there. Absent when no lookup is possible. */
  lookup?: ((options: LookupOptions) => Promise<T | undefined>) | undefined;
  /** The error thrown when the outcome stays unknown (`unresolved.ts`): each kind of create names its own domain. */
  unresolved(failure: UnresolvedCreate): Error;
}

/** What the recovery needs from its call: the clock, the log, and the caller's signal, timeout and headers. */
export interface RecoveryEnvironment {
  clock: Clock;
  logger: Logger;
  signal: AbortSignal | undefined;
  /** Milliseconds one lookup may take. */
  timeout: number;
  headers: Record<string, string> | undefined;
}

function failureName(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** One lookup; errors other than the caller's abort count as "not seen". */
async function lookOnce<T>(
  lookup: NonNullable<CreateRecovery<T>['lookup']>,
  env: RecoveryEnvironment,
  timeout: number,
  context: CallContext,
): Promise<{ found: T | undefined; error: unknown }> {
  try {
    const found = await lookup({ signal: env.signal, timeout, headers: env.headers });
    return { found, error: undefined };
  } catch (error) {
    if (env.signal?.aborted) throw abortError(env.signal, context.label);
    return { found: undefined, error };
  }
}

/**
 * After an ambiguous failure: polls the lookup until `windowEnd` (clock time), returning the
 * object as soon as it appears; throws the recovery's `unresolved` error when there is no lookup
 * or the object never appears. The create is never sent again from here.
 *
 * The window bounds when lookups start; each lookup gets the attempt timeout, cut only by
 * `hardEnd` (a deadline the caller set): a lookup started at the window's last moment is a real
 * one, not one that times out at once. Past `hardEnd` no lookup starts.
 */
export async function recoverAmbiguousCreate<T>(
  recovery: CreateRecovery<T>,
  context: CallContext,
  cause: unknown,
  windowEnd: number,
  hardEnd: number,
  env: RecoveryEnvironment,
): Promise<T> {
  const what = context.summary();
  const correlationId = recovery.correlationId;
  const lookup = recovery.lookup;
  if (!lookup) throw recovery.unresolved({ path: context.path, correlationId, cause, what });
  const windowMs = windowEnd - env.clock.now();
  // The cause's message is a sentence of its own (most end in "elapsed)." already).
  const reason = failureName(cause).replace(/\.?$/, '.');
  env.logger.warn(
    `${context.label} failed ambiguously: ${reason} Looking the group up by correlation_id for up to ${formatDuration(Math.max(0, windowMs))}; it is not resent.`,
  );
  let lastError: unknown;
  let lookups = 0;
  for (let poll = 0; ; poll++) {
    const timeout = Math.min(env.timeout, hardEnd - env.clock.now());
    if (timeout <= 0) break;
    const { found, error } = await lookOnce(lookup, env, Math.max(1, timeout), context);
    lookups++;
    if (found !== undefined) {
      env.logger.warn(
        `${context.label}: recovered the group the failed attempt created (lookup ${lookups}).`,
      );
      return found;
    }
    // What the last lookup came to: a failure, or an answer (which clears an earlier failure).
    lastError = error;
    const waitLeft = windowEnd - env.clock.now();
    if (waitLeft <= 0) break;
    // An abort cuts the sleep short of the window's end: without this throw the next lookup would
    // start on the aborted signal and lookOnce would throw this same error.
    // Stryker disable next-line BlockStatement: equivalent, as said above
    await env.clock.sleep(Math.min(exponentialBackoffMs(poll), waitLeft), env.signal).catch(() => {
      throw abortError(env.signal, context.label);
    });
  }
  const searched = `it did not appear within the ${formatDuration(Math.max(0, windowMs))} grace window (${lookups} lookup${lookups === 1 ? '' : 's'}${lastError instanceof Error ? `; the last lookup failed: ${lastError.message}` : ''})`;
  throw recovery.unresolved({ path: context.path, correlationId, cause, what, searched });
}

/**
 * Before a create is sent again after an attempt that reached the server (a 429, a 401): one
 * lookup. The object if it exists (the server committed and still refused), `undefined` if it
 * does not; when the lookup itself fails, nobody can tell, so the create is not resent.
 */
export async function lookupBeforeResend<T>(
  recovery: CreateRecovery<T>,
  context: CallContext,
  cause: unknown,
  env: RecoveryEnvironment,
): Promise<T | undefined> {
  const lookup = recovery.lookup;
  // Stryker disable next-line ConditionalExpression: the loop calls this only when there is a lookup (send.ts); the guard narrows the type
  if (!lookup) return undefined;
  const { found, error } = await lookOnce(
    lookup,
    env,
    Math.max(1, Math.min(env.timeout, context.remaining())),
    context,
  );
  if (found !== undefined) {
    env.logger.warn(
      `${context.label}: the group exists although the server refused the create; returning it.`,
    );
    return found;
  }
  if (error === undefined) return undefined;
  throw recovery.unresolved({
    path: context.path,
    correlationId: recovery.correlationId,
    cause,
    what: context.summary(),
    searched: `the lookup before resending failed (${failureName(error)})`,
  });
}
