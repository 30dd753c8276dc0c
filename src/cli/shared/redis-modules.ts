/**
 * The modules `--coordination redis://...` needs, imported only when it is given: ioredis (an
 * optional peer dependency the user installs) and the package's own Redis entry. A run without
 * the option never loads either.
 */
import type { RedisCoordination } from 'applicant-verification/redis';
import type { Redis } from 'ioredis';

/** ioredis's client class and the SDK's `RedisCoordination`. */
export interface RedisModules {
  Redis: typeof Redis;
  RedisCoordination: typeof RedisCoordination;
}

/** Loads {@link RedisModules}; tests pass one that fails as a missing package does. */
export type RedisLoader = () => Promise<RedisModules>;

/** Imports ioredis and `applicant-verification/redis`. */
export const loadRedisModules: RedisLoader = async () => {
  const [ioredis, redis] = await Promise.all([import('ioredis'), import('applicant-verification/redis')]);
  return { Redis: ioredis.Redis, RedisCoordination: redis.RedisCoordination };
};
