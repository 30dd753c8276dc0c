/** A bare `HttpCore` for the core's own tests: no retries, no log, one static token. */

import { type CoreOptions, type CoreWiring, HttpCore } from '../../src/core/call/http.js';
import { Limiter } from '../../src/core/call/limiter.js';
import { realClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/observability/log.js';
import { StaticTokenSource } from '../../src/core/token/auth.js';
import { KnownSecrets } from '../../src/core/token/secrets.js';

/**
 * A core at `origin` over `wiring.transport` that sends `token` on every call; `options` and the
 * rest of `wiring` replace the defaults (no retries, strict validation, log off, real clock).
 */
export function bareCore(
  token: string,
  origin: string,
  wiring: Pick<CoreWiring, 'transport'> & Partial<CoreWiring>,
  options: Partial<CoreOptions> = {},
): HttpCore {
  const core = new HttpCore(
    {
      baseURL: new URL(origin),
      timeout: 5_000,
      maxRetries: 0,
      deadline: undefined,
      maxResponseBytes: 1e6,
      validation: 'strict',
      clock: realClock,
      defaultHeaders: {},
      ...options,
    },
    {
      logger: createLogger('off'),
      limiter: new Limiter(),
      sdkHeaders: {},
      secrets: new KnownSecrets([]),
      ...wiring,
    },
  );
  core.useTokens(new StaticTokenSource(token));
  return core;
}
