/**
 * Redis key names. Every part a caller gives (client id, correlation id) is percent-encoded, so no
 * value can forge a separator or a brace, and each key carries a hash tag (`{…}`): Redis Cluster
 * places a key by its tag alone. The keys of one client id (its token, token lock and pause) share
 * the tag `{<client id>}`; a create's key has `{<client id>:<correlation id>}`, so a fleet's creates
 * spread over the cluster instead of crowding the slot of its one client id.
 */

/** The prefix of every key when none is given. */
export const DEFAULT_KEY_PREFIX = 'av';

function part(value: string): string {
  return encodeURIComponent(value);
}

/** The hash-tagged name of a key of `clientId`, such as its `token` or `pause`. */
export function clientKey(prefix: string, clientId: string, name: string): string {
  return `${prefix}:{${part(clientId)}}:${name}`;
}

/** The hash-tagged name of the key holding one create's lease, fence and outcome. */
export function createKey(prefix: string, clientId: string, correlationId: string): string {
  return `${prefix}:{${part(clientId)}:${part(correlationId)}}:create`;
}

/** Checks a key prefix given in options: a non-empty string without braces (they would move the tag). */
export function checkKeyPrefix(prefix: unknown, owner: string): string {
  if (prefix === undefined) return DEFAULT_KEY_PREFIX;
  if (typeof prefix !== 'string' || prefix === '' || /[{}]/.test(prefix)) {
    throw new TypeError(`${owner}: keyPrefix must be a non-empty string without "{" or "}".`);
  }
  return prefix;
}
