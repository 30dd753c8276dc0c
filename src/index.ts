/**
 * applicant-verification: the TypeScript SDK for the Applicant Income and Asset Verification API.
 * @packageDocumentation
 * @module applicant-verification
 */
export { VerificationClient } from './client/node-client.js';
export {
  type CommandLineStateDir,
  type CommandLineStateOptions,
  commandLineCoordination,
  commandLineStateDir,
} from './core/coordination/command-line-state.js';
export type { FileCoordinationOptions } from './core/coordination/command-line-state-types.js';
export { FileCoordination } from './core/coordination/file-coordination.js';
export { FileTokenStore } from './core/token/file-token-store.js';
export * from './portable.js';
export {
  type ExpressWebhookNext,
  type ExpressWebhookOptions,
  type ExpressWebhookRequest,
  expressWebhook,
} from './webhooks/adapters/express.js';
export {
  type FastifyWebhookHost,
  type FastifyWebhookOptions,
  type FastifyWebhookReply,
  type FastifyWebhookRequest,
  fastifyWebhook,
} from './webhooks/adapters/fastify.js';
