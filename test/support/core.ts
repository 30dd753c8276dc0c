/** A bare `HttpCore` for the core's own tests: no retries, no log, one static token. */
import { StaticTokenSource } from '../../src/core/auth.js';
import { realClock } from '../../src/core/clock.js';
import { HttpCore, type HttpCoreConfig } from '../../src/core/http.js';
import { Limiter } from '../../src/core/limiter.js';
import { createLogger } from '../../src/core/log.js';
import { KnownSecrets } from '../../src/core/secrets.js';

/**
 * A core at `config.origin` over `config.transport` that sends `token` on every call; the rest of
 * `config` replaces the defaults (no retries, strict validation, log off, real clock).
 */
export function bareCore(
  token: string,
  config: Pick<HttpCoreConfig, 'origin' | 'transport'> & Partial<HttpCoreConfig>,
): HttpCore {
  const core = new HttpCore({
    basePath: '',
    timeout: 5_000,
    maxRetries: 0,
    deadline: undefined,
    createGraceWindow: 0,
    maxResponseBytes: 1e6,
    validation: 'strict',
    logger: createLogger('off'),
    limiter: new Limiter(),
    clock: realClock,
    sdkHeaders: {},
    defaultHeaders: {},
    secrets: new KnownSecrets([]),
    ...config,
  });
  core.useTokens(new StaticTokenSource(token));
  return core;
}
