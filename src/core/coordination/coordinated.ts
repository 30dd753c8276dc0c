/**
 * The client's side of a {@link Coordination} it was given: the token exchange run one at a time
 * across processes, and 429 pauses published to and taken from the fleet. A coordination that
 * fails is logged and bypassed here: a token or a pause is not worth stopping the calls for.
 * (`createOnce` is stricter about its lease: see `coordinationFailure`.)
 */

import type { HttpCore } from '../call/http.js';
import type { Logger } from '../observability/log.js';
import type { TokenExchange } from '../token/auth.js';
import type { Coordination } from './coordination.js';

function reasonOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
}

/**
 * `exchange` run under the coordination's token-exchange lock (held at most `ttlMs`). The exchange
 * given is the token-store-aware one, so a process that waited first finds the token its
 * predecessor saved. Without a coordination, `exchange` unchanged.
 *
 * A coordination that fails before running `exchange` is logged and the exchange runs unlocked (a
 * second token is harmless; a call failing for want of one is not). One that fails once `exchange`
 * has started yields the exchange's own result: its token, or its own error, never the
 * coordination's, and never a second exchange.
 */
export function withCoordinatedExchange(
  exchange: TokenExchange,
  coordination: Coordination | undefined,
  clientId: string,
  ttlMs: number,
  logger: Logger,
): TokenExchange {
  if (!coordination) return exchange;
  return async () => {
    let running: ReturnType<TokenExchange> | undefined;
    try {
      return await coordination.withTokenExchange(clientId, ttlMs, () => {
        running ??= exchange();
        return running;
      });
    } catch (error) {
      if (running === undefined) {
        logger.warn(
          `The coordination could not lock the token exchange (${reasonOf(error)}); the token is exchanged without the lock.`,
        );
        return exchange();
      }
      const own = await running.then(
        () => false,
        (exchangeError: unknown) => exchangeError === error,
      );
      if (!own) {
        logger.warn(
          `The coordination failed around the token exchange (${reasonOf(error)}); its result is kept.`,
        );
      }
      return running;
    }
  };
}

/** Publishes a client-wide pause; a failing coordination is logged, never thrown. */
export function publishPause(
  coordination: Coordination | undefined,
  key: string,
  untilEpochMs: number,
  logger: Logger,
): void {
  coordination?.publishPause(key, untilEpochMs).catch((error: unknown) => {
    logger.warn(`The coordination could not publish a rate-limit pause (${reasonOf(error)}).`);
  });
}

/** Takes the pauses other processes publish; returns the unsubscribe function. */
export function sharePauses(
  core: Pick<HttpCore, 'pauseUntil'>,
  coordination: Coordination | undefined,
  key: string,
  logger: Logger,
): () => void {
  if (!coordination) return () => {};
  try {
    return coordination.onPause(key, (until) => core.pauseUntil(until));
  } catch (error) {
    logger.warn(`The coordination could not subscribe to rate-limit pauses (${reasonOf(error)}).`);
    return () => {};
  }
}
