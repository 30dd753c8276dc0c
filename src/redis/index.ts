/**
 * applicant-verification/redis: a fleet of processes behind one client id, coordinated on Redis
 * through ioredis (an optional peer dependency: install `ioredis` 5 or 6 to use this entry).
 * @packageDocumentation
 * @module applicant-verification/redis
 */
export {
  type RedisConnection,
  RedisCoordinationError,
} from './connection.js';
export {
  DEFAULT_OUTCOME_RETENTION_MS,
  RedisCoordination,
  type RedisCoordinationOptions,
} from './coordination.js';
export { RedisTokenStore, type RedisTokenStoreOptions } from './token-store.js';
