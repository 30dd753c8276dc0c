/**
 * The Lua scripts that make each step atomic on one key (so each is one round trip, and Redis
 * Cluster accepts it: a script touches only the key it declares). Times inside a script come from
 * the server's clock (`TIME`), so every process of a fleet agrees on when a lease lapses.
 *
 * A create's key is a hash: `fence` (the newest lease's fencing token), `expires` (when that lease
 * lapses, epoch ms; 0 once released), the outcome: `state`, `id`, `ofence` (the fence it was
 * recorded under), `at` (when), and `format` ({@link CREATE_FORMAT}).
 */
import { createHash } from 'node:crypto';
import type { RedisConnection } from './connection.js';

/**
 * The create hash's stored format, in its `format` field: 2 since the field exists (the first
 * version wrote none and ignores it). A script of this version refuses a key whose format is
 * newer, with an error that says so, instead of misreading it: a later version that changes the
 * hash incompatibly raises the number, and processes of this version then stop with that error.
 */
export const CREATE_FORMAT = 2;

const CHECK_FORMAT = `local format = tonumber(redis.call('HGET', KEYS[1], 'format') or '0')
if format > ${CREATE_FORMAT} then return redis.error_reply('AVFORMAT this create key was written in format ' .. format .. ', newer than this version of applicant-verification reads (${CREATE_FORMAT}): upgrade every process sharing this Redis') end`;

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** One Lua script: sent by its SHA1, and in full when the server does not know it yet. */
export class Script {
  readonly #source: string;
  readonly #sha: string;

  constructor(source: string) {
    this.#source = source;
    this.#sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs the script on `key` with `args`. */
  async run(redis: RedisConnection, key: string, args: Array<string | number>): Promise<unknown> {
    try {
      return await redis.evalsha(this.#sha, 1, key, ...args);
    } catch (error) {
      // A server that restarted, or a cluster node that never ran it, does not know the script.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return await redis.eval(this.#source, 1, key, ...args);
    }
  }

  /**
   * Runs the script on `key`, then `WAIT replicas timeoutMs` in the same pipeline: one connection,
   * and under Cluster the node that owns `key`'s slot (ioredis sends a pipeline to the node of its
   * keyed commands; `WAIT` names no key), so the count is of that node's replicas that received
   * this write. Resolves the script's reply and how many replicas acknowledged.
   */
  async runAcknowledged(
    redis: RedisConnection,
    key: string,
    args: Array<string | number>,
    replicas: number,
    timeoutMs: number,
  ): Promise<{ reply: unknown; acknowledged: number }> {
    const once = async (source: 'sha' | 'script') => {
      const pipeline = redis.pipeline();
      if (source === 'sha') pipeline.evalsha(this.#sha, 1, key, ...args);
      else pipeline.eval(this.#source, 1, key, ...args);
      pipeline.call('WAIT', replicas, timeoutMs);
      const [script, wait] = (await pipeline.exec()) ?? [];
      return { script, wait };
    };
    let { script, wait } = await once('sha');
    if (script?.[0] instanceof Error && script[0].message.startsWith('NOSCRIPT')) {
      ({ script, wait } = await once('script'));
    }
    if (!script || !wait) throw new Error('the pipeline returned no reply');
    if (script[0]) throw script[0];
    if (wait[0]) throw wait[0];
    const acknowledged = Number(wait[1]);
    if (!Number.isSafeInteger(acknowledged)) throw new Error('WAIT answered something other than a count');
    return { reply: script[1], acknowledged };
  }
}

/**
 * ARGV: ttl ms, retention ms. Returns `{fence, expiresAt}` when taken, `{0, expiresAt}` when a
 * lease that has not lapsed holds the key.
 *
 * The fence is the greater of the stored fence + 1 and the server's `TIME` in microseconds: after
 * a FLUSHALL, a restart without persistence or a failover to a replica that missed the lease (the
 * stored fence gone or older), a new fence is still above any an earlier holder of the key can
 * hold, so that holder's late write is refused instead of passing under the new holder's fence.
 * Versions that only `HINCRBY` the field read and extend such a fence as it is.
 */
export const ACQUIRE_LEASE = new Script(`${CHECK_FORMAT}
${NOW}
local held = tonumber(redis.call('HGET', KEYS[1], 'expires') or '0')
if held > now then return {0, held} end
local micros = tonumber(t[1]) * 1000000 + tonumber(t[2])
local fence = math.max(tonumber(redis.call('HGET', KEYS[1], 'fence') or '0') + 1, micros)
redis.call('HSET', KEYS[1], 'fence', string.format('%.0f', fence))
local expires = now + tonumber(ARGV[1])
redis.call('HSET', KEYS[1], 'expires', expires, 'format', ${CREATE_FORMAT})
redis.call('PEXPIRE', KEYS[1], math.max(tonumber(ARGV[1]), tonumber(ARGV[2])))
return {fence, expires}`);

/**
 * ARGV: fence, ttl ms, retention ms. Extends the lease to ttl from now if its fence is still the
 * newest (lapsed or not: no other holder took it since); returns the new expiry, or 0 when lost.
 */
export const RENEW_LEASE = new Script(`${CHECK_FORMAT}
if tonumber(redis.call('HGET', KEYS[1], 'fence') or '0') ~= tonumber(ARGV[1]) then return 0 end
${NOW}
local expires = now + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'expires', expires)
if redis.call('PTTL', KEYS[1]) < math.max(tonumber(ARGV[2]), tonumber(ARGV[3])) then
  redis.call('PEXPIRE', KEYS[1], math.max(tonumber(ARGV[2]), tonumber(ARGV[3])))
end
return expires`);

/**
 * No ARGV. The outcome `{state, id, ofence, at, age}`, `age` (ms) on the server's clock, so no
 * process compares its own clock with a stamp another process's write left.
 */
export const READ_OUTCOME = new Script(`${CHECK_FORMAT}
${NOW}
local f = redis.call('HMGET', KEYS[1], 'state', 'id', 'ofence', 'at')
if not f[4] then return {} end
return {f[1] or '', f[2] or '', f[3] or '', f[4], tostring(now - tonumber(f[4]))}`);

/** ARGV: fence. Ends the lease if it is still the newest; returns 1 if it was. */
export const RELEASE_LEASE =
  new Script(`if tonumber(redis.call('HGET', KEYS[1], 'fence') or '0') ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'expires', 0)
return 1`);

/**
 * ARGV: fence, state, id ('' when unresolved), retention ms. Records the outcome if the fence is
 * still the newest; returns 1 if it did, 0 if a newer lease exists (or the key is gone). One
 * exception: a `refused` from the lease whose `unresolved` is still the record (no later holder
 * recorded anything) replaces it even after the lease was taken over: its holder knows the request
 * never left, and the next holder may then send.
 */
export const RECORD_OUTCOME = new Script(`${CHECK_FORMAT}
if tonumber(redis.call('HGET', KEYS[1], 'fence') or '0') ~= tonumber(ARGV[1]) then
  local own = tonumber(redis.call('HGET', KEYS[1], 'ofence') or '0') == tonumber(ARGV[1])
  if not (ARGV[2] == 'refused' and own and redis.call('HGET', KEYS[1], 'state') == 'unresolved') then return 0 end
end
${NOW}
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'id', ARGV[3], 'ofence', ARGV[1], 'at', now, 'format', ${CREATE_FORMAT})
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 1`);

/**
 * ARGV: until (epoch ms), channel. Keeps the later of the stored pause and this one; publishes it
 * on the channel when it is later. The key outlives the pause by a minute, for processes that
 * subscribe while it is in force.
 */
export const PUBLISH_PAUSE = new Script(`local untilMs = tonumber(ARGV[1])
if untilMs <= tonumber(redis.call('GET', KEYS[1]) or '0') then return 0 end
${NOW}
redis.call('SET', KEYS[1], ARGV[1], 'PX', math.max(untilMs - now, 0) + 60000)
redis.call('PUBLISH', ARGV[2], ARGV[1])
return 1`);

/** ARGV: holder. Deletes the token-exchange lock if this holder still has it. */
export const RELEASE_LOCK =
  new Script(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);

/**
 * ARGV: token. Deletes a stored token's key if the token it holds is still that one (a newer
 * token another process saved stays); returns 1 if it deleted.
 */
export const DELETE_TOKEN = new Script(`local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local ok, stored = pcall(cjson.decode, v)
if not ok or type(stored) ~= 'table' or stored.token ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`);
