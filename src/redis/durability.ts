/**
 * What the create-once promise needs from Redis (docs/fleet.md, "What the promise needs from
 * Redis"): every lease and outcome written to the append-only file and synced before the reply
 * (`appendonly yes`, `appendfsync always`), and never evicted (`maxmemory-policy noeviction`). The
 * coordination reads these settings once, at its first lease, and warns when the server may lose
 * what it was told. A server that refuses CONFIG (managed services often do) is not judged: the
 * docs say what to check there. It also reads `INFO replication`: a primary with replicas loses,
 * on a failover, the writes no replica received, unless each write waits for one (`minReplicas`).
 */
import type { RedisConnection } from './connection.js';

/** The settings read, with the value each must have. */
const NEEDED: ReadonlyArray<{ name: string; value: string; loss: string }> = [
  { name: 'appendonly', value: 'yes', loss: 'a restart loses every lease and outcome record' },
  { name: 'appendfsync', value: 'always', loss: 'a crash loses the last writes before their sync' },
  { name: 'maxmemory-policy', value: 'noeviction', loss: 'leases and outcome records may be evicted' },
];

/**
 * The settings of the server behind `redis` that may lose what the coordination was told, each in
 * words; `undefined` when the server does not answer CONFIG GET.
 */
export async function durabilityProblems(redis: RedisConnection): Promise<string[] | undefined> {
  const problems: string[] = [];
  for (const { name, value, loss } of NEEDED) {
    let reply: unknown;
    try {
      reply = await redis.call('CONFIG', 'GET', name);
    } catch {
      return undefined;
    }
    const actual = Array.isArray(reply) ? String(reply[1] ?? '') : '';
    if (actual === '') return undefined;
    if (actual !== value) problems.push(`${name} is ${actual}, not ${value}: ${loss}`);
  }
  return problems;
}

/**
 * What the primary behind `redis` says of its replicas against `minReplicas`, in words: replicas
 * connected while no acknowledgement is awaited (a failover can lose the last leases), or fewer
 * connected than `minReplicas` (every lease fails until more connect). Empty when neither, or when
 * the server does not answer `INFO replication` or is not a primary.
 */
export async function replicationProblems(redis: RedisConnection, minReplicas: number): Promise<string[]> {
  let info: string;
  try {
    info = String(await redis.call('INFO', 'replication'));
  } catch {
    return [];
  }
  if (!/^role:master\s*$/m.test(info)) return [];
  const connected = Number(/^connected_slaves:(\d+)\s*$/m.exec(info)?.[1] ?? Number.NaN);
  if (!Number.isSafeInteger(connected)) return [];
  if (minReplicas === 0 && connected > 0) {
    return [
      `${connected} replica${connected === 1 ? ' is' : 's are'} connected but minReplicas is 0: a failover loses the leases and outcomes no replica received yet`,
    ];
  }
  if (minReplicas > connected) {
    return [
      `minReplicas is ${minReplicas} but ${connected} replica${connected === 1 ? ' is' : 's are'} connected: every lease fails until enough replicas acknowledge`,
    ];
  }
  return [];
}
