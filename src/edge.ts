/**
 * applicant-verification for Cloudflare Workers, Vercel Edge and other runtimes without Node's
 * modules (export conditions `workerd`, `edge-light`, `worker`): the main entry's names, sending
 * through fetch, without undici or any `node:` import. What needs Node (`FileTokenStore`, the
 * Express and Fastify adapters) is a stand-in that throws a clear error; the testing kit and the
 * command line are not here. The names both entries share are listed once, in src/portable.ts; a
 * test (test/edge/edge-entry.test.ts) keeps the two entries' names equal.
 * @packageDocumentation
 * @module applicant-verification/edge
 */

export { VerificationClient } from './client/edge-client.js';
export {
  commandLineCoordination,
  commandLineStateDir,
  expressWebhook,
  FileCoordination,
  FileTokenStore,
  fastifyWebhook,
} from './client/edge-node-only.js';
export type {
  CommandLineStateDir,
  CommandLineStateOptions,
  FileCoordinationOptions,
} from './core/coordination/command-line-state-types.js';
export * from './portable.js';
