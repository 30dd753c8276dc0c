/**
 * What the create-once promise needs from Redis (docs/fleet.md, "What the promise needs from
 * Redis"): every lease and outcome written to the append-only file and synced before the reply
 * (`appendonly yes`, `appendfsync always`), and never evicted (`maxmemory-policy noeviction`). The
 * coordination reads these settings once, at its first lease, and warns when the server may lose
 * what it was told. A server that refuses CONFIG (managed services often do) is not judged: the
 * docs say what to check there.
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
