/** Coordinations and loggers for the create-gate tests: one with some methods replaced, and a logger keeping its warnings. */
import type { Coordination, InProcessCoordination, Logger } from '../../src/index.js';

/** `base` with some of its methods replaced (the others bound to it: it keeps private state). */
export function around(base: InProcessCoordination, overrides: Partial<Coordination>): Coordination {
  return {
    acquireCreateLease: (...args) => base.acquireCreateLease(...args),
    releaseCreateLease: (lease) => base.releaseCreateLease(lease),
    recordCreateOutcome: (lease, outcome) => base.recordCreateOutcome(lease, outcome),
    readCreateOutcome: (clientId, correlationId) => base.readCreateOutcome(clientId, correlationId),
    withTokenExchange: (clientId, ttl, exchange) => base.withTokenExchange(clientId, ttl, exchange),
    publishPause: (clientId, until) => base.publishPause(clientId, until),
    onPause: (clientId, listener) => base.onPause(clientId, listener),
    ...overrides,
  };
}

/** A logger keeping its warnings. */
export function warningsLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => {};
  return {
    warnings,
    logger: { debug: ignore, info: ignore, error: ignore, warn: (message: string) => warnings.push(message) },
  };
}
