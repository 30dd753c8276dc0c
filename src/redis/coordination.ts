/**
 * The `coordination` of a fleet on Redis: the fenced create lease and its outcome record (one hash
 * per client id and correlation id, each step one Lua script, so one round trip), one token
 * exchange at a time (a lock taken with SET NX PX and released only by its holder), and the pause
 * after a 429 (a key plus pub/sub, see pause-channel.ts).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { inspect } from 'node:util';
import type {
  Coordination,
  CreateLease,
  CreateOutcome,
  CreateOutcomeRecord,
} from '../core/coordination/coordination.js';
import { createLogger, type Logger } from '../core/observability/log.js';
import {
  checkConnection,
  checkTimeout,
  DEFAULT_COMMAND_TIMEOUT_MS,
  type RedisConnection,
  RedisCoordinationError,
  runCommand,
} from './connection.js';
import { durabilityProblems, replicationProblems } from './durability.js';
import { checkKeyPrefix, clientKey, createKey } from './keys.js';
import { PauseChannel } from './pause-channel.js';
import {
  ACQUIRE_LEASE,
  PUBLISH_PAUSE,
  READ_OUTCOME,
  RECORD_OUTCOME,
  RELEASE_LEASE,
  RELEASE_LOCK,
  RENEW_LEASE,
  type Script,
} from './scripts.js';

/** How long a create's outcome (and its fence) is kept when no `outcomeRetentionMs` is given: 7 days. */
export const DEFAULT_OUTCOME_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** How long each write waits for its replicas (`minReplicas`) when no `replicaAckTimeoutMs` is given. */
const DEFAULT_REPLICA_ACK_TIMEOUT_MS = 1_000;

// A process waiting for another's token exchange looks again after 10 ms, then up to every 100 ms.
const LOCK_POLL_FIRST_MS = 10;
const LOCK_POLL_MAX_MS = 100;

/** Options of {@link RedisCoordination}. */
export interface RedisCoordinationOptions {
  /** Prefix of every key and channel (default `av`); no braces. */
  keyPrefix?: string | undefined;
  /**
   * How long one Redis command may take before it fails (default 2000 ms). A connection that is
   * down fails at once; either way the client logs it and fails safe.
   */
  commandTimeoutMs?: number | undefined;
  /**
   * How long a create's outcome record and fence are kept after its last write (default 7 days).
   * Fences only grow within this time: keep it longer than any lease.
   */
  outcomeRetentionMs?: number | undefined;
  /**
   * Where problems of the pause subscription, and a server that may lose what it was told, are
   * reported (default: `console`, warnings and up).
   */
  logger?: Logger | undefined;
  /**
   * Whether to read the server's persistence and eviction settings at the first lease and warn
   * once when they may lose leases or outcomes (default `true`; docs/fleet.md, "What the promise
   * needs from Redis").
   */
  checkDurability?: boolean | undefined;
  /**
   * How many replicas must acknowledge each lease and outcome write before it is relied on
   * (default 0: none awaited). After each lease, renewal and outcome script the coordination sends
   * Redis `WAIT minReplicas replicaAckTimeoutMs` on the same connection (under Cluster, to the node
   * that owns the key). When fewer acknowledge: a lease just taken is given back and the call fails
   * with a {@link RedisCoordinationError} (nothing is sent); a renewal fails the same way; an
   * `unresolved` record is turned into `refused` and fails (the create stops, nothing sent); a
   * `created` or `refused` record stands, with a warning (a failover that loses it leaves the
   * replicated `unresolved`, which is looked up, never resent). Best effort, as Redis says of
   * `WAIT`: a replica that acknowledged can still lose the write if it fails too
   * (docs/fleet.md, "What the promise needs from Redis").
   */
  minReplicas?: number | undefined;
  /**
   * How long each write waits for `minReplicas` acknowledgements (default 1000 ms). Each lease
   * and outcome command may then take up to `commandTimeoutMs` plus this; an ioredis
   * `commandTimeout` on your connection must allow it too.
   */
  replicaAckTimeoutMs?: number | undefined;
}

function checkPart(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`RedisCoordination: ${name} must be a non-empty string.`);
  }
  return value;
}

function checkMinReplicas(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new TypeError('RedisCoordination: minReplicas must be a whole number of replicas, 0 or more.');
  }
  return value;
}

function checkTtl(ttlMs: unknown): number {
  if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new TypeError('RedisCoordination: ttlMs must be a positive number of milliseconds.');
  }
  return Math.ceil(ttlMs);
}

function integer(value: unknown): number {
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isSafeInteger(number) ? number : Number.NaN;
}

/**
 * Coordinates every process behind one client id through Redis (ioredis 5 or 6; standalone,
 * Sentinel or Cluster). The connection stays yours: close it when you are done; {@link RedisCoordination.close}
 * ends only the pause subscription this class opens beside it.
 *
 * ```ts
 * import Redis from 'ioredis';
 * import { RedisCoordination, RedisTokenStore } from 'applicant-verification/redis';
 *
 * const redis = new Redis(process.env.REDIS_URL);
 * const client = new VerificationClient({
 *   coordination: new RedisCoordination(redis),
 *   tokenStore: new RedisTokenStore(redis, { clientId: process.env.VERIFICATION_CLIENT_ID }),
 * });
 * ```
 */
export class RedisCoordination implements Coordination {
  /** Prefix of every key and channel. */
  readonly keyPrefix: string;
  readonly #redis: RedisConnection;
  readonly #timeoutMs: number;
  readonly #retentionMs: number;
  readonly #logger: Logger;
  readonly #pauses: PauseChannel;
  /** Whether the server's settings are still to be read (once, at the first lease). */
  #durabilityUnchecked: boolean;
  readonly #minReplicas: number;
  readonly #ackTimeoutMs: number;

  /**
   * @param redis An ioredis connection (`new Redis(...)` or `new Cluster(...)`), shared with your code.
   * @param options Key prefix, command timeout, outcome retention, logger.
   */
  constructor(redis: RedisConnection, options: RedisCoordinationOptions = {}) {
    this.#redis = checkConnection(redis, 'RedisCoordination');
    this.keyPrefix = checkKeyPrefix(options.keyPrefix, 'RedisCoordination');
    this.#timeoutMs = checkTimeout(
      options.commandTimeoutMs,
      'commandTimeoutMs',
      'RedisCoordination',
      DEFAULT_COMMAND_TIMEOUT_MS,
    );
    this.#retentionMs = Math.ceil(
      checkTimeout(
        options.outcomeRetentionMs,
        'outcomeRetentionMs',
        'RedisCoordination',
        DEFAULT_OUTCOME_RETENTION_MS,
      ),
    );
    this.#logger = createLogger('warn', options.logger);
    this.#pauses = new PauseChannel(this.#redis, this.#timeoutMs, this.#logger);
    this.#durabilityUnchecked = options.checkDurability !== false;
    this.#minReplicas = checkMinReplicas(options.minReplicas);
    this.#ackTimeoutMs = Math.ceil(
      checkTimeout(
        options.replicaAckTimeoutMs,
        'replicaAckTimeoutMs',
        'RedisCoordination',
        DEFAULT_REPLICA_ACK_TIMEOUT_MS,
      ),
    );
  }

  /** Reads the server's settings once, without delaying the lease, and warns if they may lose data. */
  #checkDurability(): void {
    if (!this.#durabilityUnchecked) return;
    this.#durabilityUnchecked = false;
    void Promise.all([
      durabilityProblems(this.#redis),
      replicationProblems(this.#redis, this.#minReplicas),
    ]).then(([settings, replicas]) => {
      const problems = [...(settings ?? []), ...replicas];
      if (problems.length === 0) return;
      this.#logger.warn(
        `RedisCoordination: this Redis may lose what it was told (${problems.join('; ')}). A lease or outcome it loses can let a household be created twice; each such duplicate is reported, not prevented (docs/fleet.md, "What the promise needs from Redis").`,
      );
    });
  }

  /**
   * Runs `script` on `key`; with `minReplicas`, waits for that many replicas in the same round
   * trip. Resolves the reply and whether enough replicas acknowledged (always, without `minReplicas`).
   */
  async #write(
    operation: string,
    script: Script,
    key: string,
    args: Array<string | number>,
  ): Promise<{ reply: unknown; replicated: boolean; acknowledged: number }> {
    if (this.#minReplicas === 0) {
      const reply = await this.#run(operation, () => script.run(this.#redis, key, args));
      return { reply, replicated: true, acknowledged: 0 };
    }
    const { reply, acknowledged } = await runCommand(
      this.#redis,
      operation,
      this.#timeoutMs + this.#ackTimeoutMs,
      () => script.runAcknowledged(this.#redis, key, args, this.#minReplicas, this.#ackTimeoutMs),
    );
    return { reply, replicated: acknowledged >= this.#minReplicas, acknowledged };
  }

  /** The reason a write fails when too few replicas acknowledged it. */
  #unacknowledged(acknowledged: number, what: string): string {
    return `${acknowledged} of the ${this.#minReplicas} replica${this.#minReplicas === 1 ? '' : 's'} required (minReplicas) acknowledged ${what} within ${this.#ackTimeoutMs} ms`;
  }

  #run<T>(operation: string, command: () => Promise<T>): Promise<T> {
    return runCommand(this.#redis, operation, this.#timeoutMs, command);
  }

  /** Takes the lease on (clientId, correlationId), or resolves `undefined` while another holds it. */
  async acquireCreateLease(
    clientId: string,
    correlationId: string,
    ttlMs: number,
  ): Promise<CreateLease | undefined> {
    const key = createKey(
      this.keyPrefix,
      checkPart(clientId, 'clientId'),
      checkPart(correlationId, 'correlationId'),
    );
    const ttl = checkTtl(ttlMs);
    this.#checkDurability();
    const { reply, replicated, acknowledged } = await this.#write('acquireCreateLease', ACQUIRE_LEASE, key, [
      ttl,
      this.#retentionMs,
    ]);
    const [fence, expiresAt] = Array.isArray(reply) ? reply.map(integer) : [];
    if (fence === undefined || expiresAt === undefined || Number.isNaN(fence) || Number.isNaN(expiresAt)) {
      throw new RedisCoordinationError('acquireCreateLease', 'Redis answered something other than a lease');
    }
    if (fence === 0) return undefined;
    if (!replicated) {
      // A lease no replica holds is lost by a failover: give it back, and take none.
      await this.#run('acquireCreateLease', () => RELEASE_LEASE.run(this.#redis, key, [fence])).catch(
        () => undefined,
      );
      throw new RedisCoordinationError(
        'acquireCreateLease',
        `${this.#unacknowledged(acknowledged, 'the lease')}; it was given back`,
      );
    }
    return Object.freeze({ clientId, correlationId, fence, expiresAt });
  }

  /** Ends the lease early, if it is still the newest on its key. */
  async releaseCreateLease(lease: CreateLease): Promise<void> {
    const key = createKey(this.keyPrefix, lease.clientId, lease.correlationId);
    await this.#run('releaseCreateLease', () => RELEASE_LEASE.run(this.#redis, key, [lease.fence]));
  }

  /**
   * Extends `lease` to `ttlMs` from now (the server's clock) if its fence is still the newest;
   * `undefined` when another holder took the key since, or the key is gone (flushed, lost).
   */
  async renewCreateLease(lease: CreateLease, ttlMs: number): Promise<CreateLease | undefined> {
    const key = createKey(this.keyPrefix, lease.clientId, lease.correlationId);
    const ttl = checkTtl(ttlMs);
    const written = await this.#write('renewCreateLease', RENEW_LEASE, key, [
      lease.fence,
      ttl,
      this.#retentionMs,
    ]);
    const reply = integer(written.reply);
    if (Number.isNaN(reply)) {
      throw new RedisCoordinationError('renewCreateLease', 'Redis answered something other than an expiry');
    }
    if (reply === 0) return undefined;
    if (!written.replicated) {
      throw new RedisCoordinationError(
        'renewCreateLease',
        this.#unacknowledged(written.acknowledged, 'the renewed lease'),
      );
    }
    return Object.freeze({ ...lease, expiresAt: reply });
  }

  /** Records what the create under `lease` came to; `false` when a newer lease exists. */
  async recordCreateOutcome(lease: CreateLease, outcome: CreateOutcome): Promise<boolean> {
    const key = createKey(this.keyPrefix, lease.clientId, lease.correlationId);
    const id = outcome.state === 'created' ? outcome.id : '';
    const { reply, replicated, acknowledged } = await this.#write(
      'recordCreateOutcome',
      RECORD_OUTCOME,
      key,
      [lease.fence, outcome.state, id, this.#retentionMs],
    );
    const recorded = integer(reply) === 1;
    if (!recorded || replicated) return recorded;
    const missing = this.#unacknowledged(acknowledged, `the ${outcome.state} record`);
    if (outcome.state !== 'unresolved') {
      // Lost by a failover, it leaves the replicated `unresolved`: looked up, never resent.
      this.#logger.warn(
        `RedisCoordination: ${missing} for correlation_id "${lease.correlationId}"; it stands on the primary.`,
      );
      return recorded;
    }
    // The create stops before sending: say so, so the next holder may send.
    await this.#run('recordCreateOutcome', () =>
      RECORD_OUTCOME.run(this.#redis, key, [lease.fence, 'refused', '', this.#retentionMs]),
    ).catch(() => undefined);
    throw new RedisCoordinationError('recordCreateOutcome', `${missing}; the create is not sent`);
  }

  /** The outcome last recorded for (clientId, correlationId), if any. */
  async readCreateOutcome(clientId: string, correlationId: string): Promise<CreateOutcomeRecord | undefined> {
    const key = createKey(
      this.keyPrefix,
      checkPart(clientId, 'clientId'),
      checkPart(correlationId, 'correlationId'),
    );
    const reply = await this.#run('readCreateOutcome', () => READ_OUTCOME.run(this.#redis, key, []));
    const [state, id, fenceText, atText, ageText] = Array.isArray(reply) ? reply.map(String) : [];
    const fence = integer(fenceText);
    const recordedAt = integer(atText);
    const ageMs = integer(ageText);
    if (Number.isNaN(fence) || Number.isNaN(recordedAt) || Number.isNaN(ageMs)) return undefined;
    if (state === 'created' && id) return { state, id, fence, recordedAt, ageMs };
    if (state === 'unresolved' || state === 'refused') return { state, fence, recordedAt, ageMs };
    return undefined;
  }

  /**
   * Runs `exchange` while this process holds the client id's token-exchange lock. A process that
   * finds it taken looks again every 10 to 100 ms. When Redis cannot be reached, or the lock stays
   * taken for the whole `ttlMs`, it logs a warning and runs `exchange` unlocked: a second token
   * exchange is harmless, a call that fails for want of a token is not. An error of `exchange`
   * itself is passed on unchanged.
   */
  async withTokenExchange<T>(clientId: string, ttlMs: number, exchange: () => Promise<T>): Promise<T> {
    const key = clientKey(this.keyPrefix, checkPart(clientId, 'clientId'), 'token-lock');
    const ttl = checkTtl(ttlMs);
    const holder = randomUUID();
    let locked: boolean;
    try {
      locked = await this.#takeLock(key, holder, ttl);
    } catch (error) {
      this.#logger.warn(
        `${error instanceof Error ? error.message : 'Redis coordination failed (withTokenExchange).'} The token is exchanged without the fleet's lock.`,
      );
      locked = false;
    }
    try {
      return await exchange();
    } finally {
      // Unreleased, the lock lapses after ttlMs: a failure here only delays other processes.
      if (locked) {
        await this.#run('withTokenExchange', () => RELEASE_LOCK.run(this.#redis, key, [holder])).catch(
          (error: unknown) =>
            this.#logger.warn(
              `Could not release the token-exchange lock (${error instanceof Error ? error.message : 'unknown'}); it lapses after ${ttl} ms.`,
            ),
        );
      }
    }
  }

  /** Takes the lock, waiting up to `ttl` for another holder; `false` when it stayed taken. */
  async #takeLock(key: string, holder: string, ttl: number): Promise<boolean> {
    const started = Date.now();
    for (let wait = LOCK_POLL_FIRST_MS; ; wait = Math.min(wait * 2, LOCK_POLL_MAX_MS)) {
      const taken = await this.#run('withTokenExchange', () => this.#redis.set(key, holder, 'PX', ttl, 'NX'));
      if (taken === 'OK') return true;
      if (Date.now() - started >= ttl) {
        this.#logger.warn(
          `Another process held the token-exchange lock for the whole ${ttl} ms; the token is exchanged without it.`,
        );
        return false;
      }
      await sleep(wait);
    }
  }

  /** Tells every process of `clientId` to hold its requests until `untilEpochMs` (a later pause wins). */
  async publishPause(clientId: string, untilEpochMs: number): Promise<void> {
    const name = clientKey(this.keyPrefix, checkPart(clientId, 'clientId'), 'pause');
    if (!Number.isFinite(untilEpochMs)) {
      throw new TypeError('RedisCoordination: untilEpochMs must be a finite number.');
    }
    await this.#run('publishPause', () =>
      PUBLISH_PAUSE.run(this.#redis, name, [Math.ceil(untilEpochMs), name]),
    );
  }

  /**
   * Calls `listener` with each pause published for `clientId`, and at once with the pause in
   * force, if any. Returns the unsubscribe function.
   */
  onPause(clientId: string, listener: (untilEpochMs: number) => void): () => void {
    const name = clientKey(this.keyPrefix, checkPart(clientId, 'clientId'), 'pause');
    return this.#pauses.listen(name, name, listener);
  }

  /** Ends the pause subscription (its own connection). The connection you passed stays open. */
  close(): void {
    this.#pauses.close();
  }

  /** @internal Shows the key prefix only: the connection's options may hold a password. */
  [inspect.custom](): string {
    return `RedisCoordination { keyPrefix: '${this.keyPrefix}' }`;
  }

  /** @internal */
  toJSON(): Record<string, string> {
    return { keyPrefix: this.keyPrefix };
  }
}
