/**
 * Every Redis command goes through `runCommand`: a connection that is down fails at once
 * instead of joining ioredis's offline queue, and a command that gets no answer fails after the
 * command timeout, so no call waits on Redis past its own deadline. Failures become a
 * `RedisCoordinationError` whose message names the operation and the reason, never a value
 * (ioredis keeps a failed command's arguments, a token among them, on its errors: they are not
 * kept as the cause).
 */
import type { Cluster, Redis } from 'ioredis';
import { VerificationError } from '../core/errors.js';

/** An ioredis connection: a `Redis` (standalone or Sentinel) or a `Cluster`. */
export type RedisConnection = Redis | Cluster;

/** How long a command may wait for its answer when no `commandTimeoutMs` is given. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

// ioredis statuses in which a command would only wait in the offline queue.
const DOWN = new Set(['reconnecting', 'close', 'end']);

/** Redis could not be used: it is down, did not answer in time, or refused a command. */
export class RedisCoordinationError extends VerificationError {
  override name = 'RedisCoordinationError';
  /** The operation that failed, e.g. `acquireCreateLease`. */
  readonly operation: string;

  /**
   * @param operation The operation that failed.
   * @param reason Why, in words (no values).
   */
  constructor(operation: string, reason: string) {
    // A reason that is an error's message may end its own sentence.
    super(`Redis coordination failed (${operation}): ${reason.replace(/\.+$/, '')}.`);
    this.operation = operation;
  }

  /** A plain object for structured logs: name, message, operation. */
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), operation: this.operation };
  }
}

function reasonOf(error: unknown): string {
  // The message only: ioredis errors carry the command's arguments in other fields.
  return error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
}

/** Checks a timeout given in options: a positive finite number of milliseconds. */
export function checkTimeout(value: unknown, name: string, owner: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`${owner}: ${name} must be a positive number of milliseconds.`);
  }
  return value;
}

/** Checks that `redis` looks like an ioredis connection before anything is sent through it. */
export function checkConnection(redis: unknown, owner: string): RedisConnection {
  const candidate = redis as Partial<Record<'evalsha' | 'get' | 'duplicate', unknown>> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.evalsha !== 'function' ||
    typeof candidate.get !== 'function' ||
    typeof candidate.duplicate !== 'function'
  ) {
    throw new TypeError(`${owner} needs an ioredis connection (new Redis(...) or new Cluster(...)).`);
  }
  return redis as RedisConnection;
}

/**
 * A new connection with `redis`'s options (a Cluster's startup nodes too), for a subscription:
 * a subscribed connection sends no other command. A `Redis` one does not subscribe again by
 * itself after a reconnect (`autoResubscribe: false`): ioredis sends that SUBSCRIBE with no
 * handler on its promise, so a connection closed before the answer rejected it unhandled
 * ("Connection is closed."), which ends a Node process; the caller subscribes again instead,
 * handling the answer. A Cluster's subscriber connections are ioredis's own (`isCluster`).
 */
export function duplicateConnection(redis: RedisConnection): RedisConnection {
  // The two classes' duplicate() take different arguments; `isCluster` tells them apart.
  return redis.isCluster
    ? (redis as Cluster).duplicate()
    : (redis as Redis).duplicate({ autoResubscribe: false });
}

/**
 * Runs `command` on `redis` unless the connection is down, and fails it after `timeoutMs`. A
 * command that timed out may still run later, once ioredis reconnects: every write is fenced or
 * expires, so a late one is harmless.
 */
export async function runCommand<T>(
  redis: RedisConnection,
  operation: string,
  timeoutMs: number,
  command: () => Promise<T>,
): Promise<T> {
  if (DOWN.has(redis.status)) {
    throw new RedisCoordinationError(operation, `the connection is ${redis.status}`);
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RedisCoordinationError(operation, `no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([command(), timeout]);
  } catch (error) {
    if (error instanceof RedisCoordinationError) throw error;
    throw new RedisCoordinationError(operation, reasonOf(error));
  } finally {
    clearTimeout(timer);
  }
}
