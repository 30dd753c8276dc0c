/**
 * What a cancelled call throws. The signal's reason is kept as the error's `cause`; a signal
 * from `AbortSignal.timeout()` (reason a `TimeoutError`) is a timeout, not a user's cancel.
 */
import { APIConnectionTimeoutError, APIUserAbortError, type VerificationError } from '../errors.js';

function isTimeoutReason(reason: unknown): boolean {
  return (
    typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError'
  );
}

/** The error for an aborted `signal`; `what` names the call ("POST /path on host"). */
export function abortError(signal: AbortSignal | null | undefined, what?: string): VerificationError {
  const reason = signal?.reason;
  const subject = what ?? 'The request';
  if (isTimeoutReason(reason)) {
    return new APIConnectionTimeoutError(`${subject} was stopped by its AbortSignal's timeout.`, {
      cause: reason,
    });
  }
  const said = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : undefined;
  return new APIUserAbortError(`${subject} was aborted${said ? `: ${said}` : ''}.`, { cause: reason });
}

/** Waits for `pending` unless `signal` aborts first. */
export async function raceAbort<T>(
  pending: Promise<T>,
  signal: AbortSignal | undefined,
  what: string,
): Promise<T> {
  if (!signal) return pending;
  if (signal.aborted) throw abortError(signal, what);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(signal, what));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([pending, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
