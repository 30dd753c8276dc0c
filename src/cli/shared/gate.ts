/**
 * The create gate of a run: the `coordination` its client is built with. Every run of `groups
 * create` on this machine (whatever folder its file is in) and every script whose client has the
 * same coordination and client id take one lease per household and read what its last holder
 * recorded, so a household is created once even when they run at the same moment.
 *
 * By default a `FileCoordination` in `<state dir>/coordination` (see `state-dir.ts`);
 * `--coordination redis://...` (or `VERIFICATION_COORDINATION`) shares it across machines through
 * a `RedisCoordination` on a connection this module opens and closes.
 */
import { type Coordination, FileCoordination, type Logger } from 'applicant-verification';
import type { Redis } from 'ioredis';
import { describeError, UsageError } from '../errors.js';
import type { CliIO } from './io.js';
import { loadRedisModules, type RedisModules } from './redis-modules.js';
import { looseStateWarning, prepareDir, type StateDir, stateDirOf } from './state-dir.js';

/** Where a run's gate is, as the options say (checked, nothing opened yet). */
export type GateTarget =
  | { kind: 'file'; stateDir: StateDir }
  | {
      kind: 'redis';
      url: string;
      /** The URL without credentials, for messages. */
      shown: string;
      /** The password, if the URL holds one: scrubbed from every message. */
      password: string;
      /** `--coordination` or `VERIFICATION_COORDINATION`. */
      setBy: string;
    };

/** The options a gate is chosen by. */
export interface GateValues {
  'state-dir'?: string | undefined;
  coordination?: string | undefined;
}

/** An open gate: the coordination to build the client with, and how to close it. */
export interface Gate {
  coordination: Coordination;
  /** The folder, or the Redis URL without credentials. */
  where: string;
  /** Closes what the gate opened (the Redis connection); call after the client is closed. */
  close(): Promise<void>;
  /** Warnings to print before anything is sent (a state folder other users can reach). */
  warnings: string[];
}

/** A Redis URL as a message may show it: a value with `@` may hold a password, so it is not shown. */
function shownValue(text: string): string {
  return text.includes('@') ? '(not shown: it may hold a password)' : `"${text}"`;
}

function redisTarget(text: string, setBy: string): GateTarget {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    throw new UsageError(
      `${setBy} must be a redis:// or rediss:// URL (redis://[user:password@]host[:port][/db]), got ${shownValue(text)}`,
    );
  }
  return {
    kind: 'redis',
    url: text,
    shown: `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`,
    password: decodeURIComponent(url.password),
    setBy,
  };
}

/** Chooses the gate from the options and environment (no I/O): a bad Redis URL is a usage error. */
export function gateTargetOf(values: GateValues, io: Pick<CliIO, 'env' | 'cwd'>): GateTarget {
  const redis =
    values.coordination !== undefined
      ? { text: values.coordination, setBy: '--coordination' }
      : io.env.VERIFICATION_COORDINATION
        ? { text: io.env.VERIFICATION_COORDINATION, setBy: 'VERIFICATION_COORDINATION' }
        : undefined;
  if (redis) return redisTarget(redis.text, redis.setBy);
  return { kind: 'file', stateDir: stateDirOf(values['state-dir'], io) };
}

function isMissingModule(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

async function loadRedis(load: () => Promise<RedisModules>, setBy: string): Promise<RedisModules> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingModule(error)) throw error;
    throw new UsageError(
      `${setBy} needs the ioredis package (5 or 6), which is not installed: npm install ioredis`,
    );
  }
}

/** Connects, so that an unreachable Redis fails the run before anything is sent. */
async function connectRedis(
  modules: RedisModules,
  target: Extract<GateTarget, { kind: 'redis' }>,
): Promise<Redis> {
  const scrub = (text: string) => (target.password ? text.split(target.password).join('***') : text);
  const redis = new modules.Redis(target.url, { lazyConnect: true });
  let lastError: unknown;
  // Without a listener ioredis prints each connection error itself; the gate's users see them as
  // the coordination's errors instead.
  redis.on('error', (error: unknown) => {
    lastError = error;
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(
      `cannot reach the coordination at ${target.shown} (${target.setBy}): ${scrub(describeError(lastError ?? error))}`,
    );
  }
  return redis;
}

/**
 * Opens the gate: makes the state directory's coordination folder (checked writable), or loads
 * ioredis and connects to Redis. `logger` gets the coordination's warnings (a wait on the folder,
 * the Redis pause subscription).
 */
export async function openGate(
  target: GateTarget,
  io: Pick<CliIO, 'loadRedis'>,
  logger: Logger,
): Promise<Gate> {
  if (target.kind === 'file') {
    const dir = target.stateDir.coordinationPath;
    const loose = await prepareDir(dir, target.stateDir.setBy, [target.stateDir.path, dir]);
    return {
      coordination: new FileCoordination(dir, { logger }),
      where: dir,
      close: async () => {},
      warnings: loose.map(looseStateWarning),
    };
  }
  const modules = await loadRedis(io.loadRedis ?? loadRedisModules, target.setBy);
  const redis = await connectRedis(modules, target);
  const coordination = new modules.RedisCoordination(redis, { logger });
  return {
    coordination,
    where: target.shown,
    close: async () => {
      coordination.close();
      await redis.quit().catch(() => redis.disconnect());
    },
    warnings: [],
  };
}
