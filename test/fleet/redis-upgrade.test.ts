/**
 * A rolling deploy: processes of the earlier Redis format and of this one share one Redis
 * (docs/fault-model.md, "Upgrades"). `earlier` below is the first `applicant-verification/redis`
 * (commit 55fa881): its lease, outcome and release scripts copied verbatim, its outcome read an
 * `HMGET` parsed as it parsed it. Each way round, on a real redis-server: the lease excludes the
 * other version, a lapsed lease is taken over with a greater fence, the earlier holder's late
 * write is refused, and each reads what the other recorded.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisCoordination, RedisCoordinationError } from '../../src/redis/index.js';
import { createKey } from '../../src/redis/keys.js';
import { CREATE_FORMAT } from '../../src/redis/scripts.js';
import { caught } from '../support/exposure.js';
import { eventually } from './eventually.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** The earlier version's scripts, as commit 55fa881 shipped them. */
const EARLIER = {
  acquire: `${NOW}
local held = tonumber(redis.call('HGET', KEYS[1], 'expires') or '0')
if held > now then return {0, held} end
local fence = redis.call('HINCRBY', KEYS[1], 'fence', 1)
local expires = now + tonumber(ARGV[1])
redis.call('HSET', KEYS[1], 'expires', expires)
redis.call('PEXPIRE', KEYS[1], math.max(tonumber(ARGV[1]), tonumber(ARGV[2])))
return {fence, expires}`,
  release: `if tonumber(redis.call('HGET', KEYS[1], 'fence') or '0') ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'expires', 0)
return 1`,
  record: `if tonumber(redis.call('HGET', KEYS[1], 'fence') or '0') ~= tonumber(ARGV[1]) then return 0 end
${NOW}
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'id', ARGV[3], 'ofence', ARGV[1], 'at', now)
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 1`,
};
const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** A process of the earlier version on `redis`. */
function earlier(redis: Redis) {
  return {
    async acquire(key: string, ttlMs: number): Promise<{ fence: number; expiresAt: number } | undefined> {
      const [fence, expiresAt] = (
        (await redis.eval(EARLIER.acquire, 1, key, ttlMs, RETENTION_MS)) as unknown[]
      ).map(Number);
      return fence ? { fence: fence, expiresAt: expiresAt ?? 0 } : undefined;
    },
    async record(key: string, fence: number, state: string, id = ''): Promise<boolean> {
      return Number(await redis.eval(EARLIER.record, 1, key, fence, state, id, RETENTION_MS)) === 1;
    },
    async release(key: string, fence: number): Promise<void> {
      await redis.eval(EARLIER.release, 1, key, fence);
    },
    /** Its read: created with an id, or unresolved; anything else is "no outcome". */
    async read(key: string) {
      const [state, id, fenceText, atText] = await redis.hmget(key, 'state', 'id', 'ofence', 'at');
      const fence = Number(fenceText);
      const recordedAt = Number(atText);
      if (!Number.isSafeInteger(fence) || !Number.isSafeInteger(recordedAt) || atText === null)
        return undefined;
      if (state === 'created' && id) return { state, id, fence, recordedAt };
      if (state === 'unresolved') return { state, fence, recordedAt };
      return undefined;
    },
  };
}

describe('processes of the earlier Redis format and of this one on one Redis', () => {
  let server: RedisServer;
  let redis: Redis;
  let current: RedisCoordination;
  let old: ReturnType<typeof earlier>;

  beforeAll(async () => {
    server = await startRedisServer();
    redis = server.connect() as Redis;
    current = new RedisCoordination(redis, { checkDurability: false });
    old = earlier(redis);
  });
  afterAll(async () => {
    current?.close();
    redis?.disconnect();
    await server?.close();
  });

  it('an earlier holder: this version waits, reads its unresolved, takes over after it lapses, and its late write is refused', async () => {
    const clientId = randomUUID();
    const key = createKey('av', clientId, 'up-1');
    const lease = await old.acquire(key, 300);
    expect(lease?.fence).toBe(1);
    if (!lease) return;
    expect(await old.record(key, lease.fence, 'unresolved')).toBe(true);
    expect(await current.acquireCreateLease(clientId, 'up-1', 60_000)).toBeUndefined();
    expect(await current.readCreateOutcome(clientId, 'up-1')).toMatchObject({
      state: 'unresolved',
      fence: 1,
      ageMs: expect.any(Number),
    });
    const taken = await eventually('the earlier lease lapsing', () =>
      current.acquireCreateLease(clientId, 'up-1', 60_000),
    );
    // The fence jumps to the server's clock in microseconds: above anything HINCRBY made.
    expect(taken.fence).toBeGreaterThan(1_000_000_000_000_000);
    expect(await old.record(key, lease.fence, 'created', 'grp_late')).toBe(false);
    expect(await current.recordCreateOutcome(taken, { state: 'created', id: 'grp_new' })).toBe(true);
    expect(await old.read(key)).toMatchObject({ state: 'created', id: 'grp_new', fence: taken.fence });
  });

  it('a holder of this version: the earlier one waits, reads its records, takes over with HINCRBY, and this holder stops', async () => {
    const clientId = randomUUID();
    const key = createKey('av', clientId, 'up-2');
    const lease = await current.acquireCreateLease(clientId, 'up-2', 300);
    expect(lease).toBeDefined();
    if (!lease) return;
    expect(await old.acquire(key, 60_000)).toBeUndefined();
    expect(await current.recordCreateOutcome(lease, { state: 'unresolved' })).toBe(true);
    expect(await old.read(key)).toMatchObject({ state: 'unresolved', fence: lease.fence });
    // `refused` (the request never left) reads as no outcome there: it looks up and may send, as meant.
    expect(await current.recordCreateOutcome(lease, { state: 'refused' })).toBe(true);
    expect(await old.read(key)).toBeUndefined();
    const taken = await eventually('this lease lapsing', () => old.acquire(key, 60_000));
    expect(taken.fence).toBe(lease.fence + 1);
    // This holder's renewal and late write are refused: the fence moved on.
    expect(await current.renewCreateLease(lease, 60_000)).toBeUndefined();
    expect(await current.recordCreateOutcome(lease, { state: 'created', id: 'grp_late' })).toBe(false);
    expect(await old.record(key, taken.fence, 'created', 'grp_old')).toBe(true);
    expect(await current.readCreateOutcome(clientId, 'up-2')).toMatchObject({
      state: 'created',
      id: 'grp_old',
      fence: lease.fence + 1,
    });
    // And the next lease of this version still goes above it.
    await old.release(key, taken.fence);
    const next = await current.acquireCreateLease(clientId, 'up-2', 60_000);
    expect(next?.fence).toBeGreaterThan(taken.fence);
  });

  it('a key a later format marked (format 3 and up) is refused with an error that says so, not misread', async () => {
    const clientId = randomUUID();
    const key = createKey('av', clientId, 'up-3');
    const lease = await current.acquireCreateLease(clientId, 'up-3', 60_000);
    expect(lease).toBeDefined();
    if (!lease) return;
    expect(await redis.hget(key, 'format')).toBe(String(CREATE_FORMAT));
    await redis.hset(key, 'format', String(CREATE_FORMAT + 1));
    const refusal = `AVFORMAT this create key was written in format ${CREATE_FORMAT + 1}, newer than this version of applicant-verification reads (${CREATE_FORMAT}): upgrade every process sharing this Redis.`;
    for (const [operation, call] of [
      ['acquireCreateLease', () => current.acquireCreateLease(clientId, 'up-3', 60_000)],
      ['readCreateOutcome', () => current.readCreateOutcome(clientId, 'up-3')],
      ['renewCreateLease', () => current.renewCreateLease(lease, 60_000)],
      ['recordCreateOutcome', () => current.recordCreateOutcome(lease, { state: 'unresolved' })],
    ] as const) {
      const error = await caught((call as () => Promise<unknown>)());
      expect(error).toBeInstanceOf(RedisCoordinationError);
      expect((error as Error).message).toBe(
        `Redis coordination failed (${operation}): ReplyError: ${refusal}`,
      );
    }
    expect(await redis.hget(key, 'state')).toBeNull();
  });
});
