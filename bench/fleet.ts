/**
 * `createOnce` throughput and Redis round trips per create, with the in-process coordination and
 * with `RedisCoordination` (standalone, and a two-node cluster), against the mock on loopback.
 * Needs redis-server on the PATH (it starts its own on free ports). Prints a Markdown table for
 * docs/benchmarks.md ("A fleet on Redis"). Round trips are counted at the connection (each
 * command the SDK sends), not by Redis, which also counts the calls inside a script.
 *
 *   node --import tsx bench/fleet.ts [--creates 400] [--concurrency 32]
 */
import { parseArgs } from 'node:util';
import type { Cluster, Redis } from 'ioredis';
import { type Coordination, VerificationClient } from '../src/index.js';
import { RedisCoordination } from '../src/redis/index.js';
import { createMockServer } from '../src/testing/index.js';
import { type RedisServer, startRedisServer } from '../test/fleet/redis-server.js';
import { groupCreateBody } from '../test/support/bodies.js';

const { values } = parseArgs({
  options: { creates: { type: 'string', default: '400' }, concurrency: { type: 'string', default: '32' } },
});
const CREATES = Number(values.creates);
const CONCURRENCY = Number(values.concurrency);

/** The commands the SDK sends, one round trip each (a script's inner calls are not round trips). */
const COMMANDS = new Set(['evalsha', 'eval', 'hmget', 'get', 'set', 'publish', 'subscribe']);

/** `redis`, counting each command sent through it in `counter.sent`. */
function counted(redis: Redis | Cluster, counter: { sent: number }): Redis | Cluster {
  return new Proxy(redis, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (typeof property === 'string' && COMMANDS.has(property)) {
        return (...args: unknown[]) => {
          counter.sent++;
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

interface Row {
  setup: string;
  createsPerSecond: number;
  foundPerSecond: number;
  roundTripsPerCreate: number | undefined;
  roundTripsPerFound: number | undefined;
}

async function measure(setup: string, server: RedisServer | undefined): Promise<Row> {
  const mock = await createMockServer({ seed: 31 });
  let redis: Redis | Cluster | undefined;
  let coordination: RedisCoordination | undefined;
  const counter = { sent: 0 };
  if (server) {
    redis = server.connect();
    coordination = new RedisCoordination(counted(redis, counter));
  }
  const client = new VerificationClient({
    baseURL: mock.url,
    clientId: mock.clientId,
    secretKey: mock.secretKey,
    logLevel: 'error',
    ...(coordination ? { coordination: coordination as Coordination } : {}),
  });
  // Warm up: the token, the scripts, the connections.
  await client.applicantGroups.createOnce(groupCreateBody('warm@example.com', `${setup}-warm`));
  const bodies = Array.from({ length: CREATES }, (_, index) =>
    groupCreateBody(`bench${index}@example.com`, `${setup}-${index}`),
  );
  const pass = async (): Promise<{ ms: number; commands: number | undefined }> => {
    const before = counter.sent;
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++];
          if (body) await client.applicantGroups.createOnce(body);
        }
      }),
    );
    const ms = performance.now() - started;
    const commands = server ? counter.sent - before : undefined;
    return { ms, commands };
  };
  const created = await pass(); // every household new: lookup, POST, record
  const found = await pass(); // every household there: lookup only
  await client.close();
  coordination?.close();
  redis?.disconnect();
  await mock.close();
  return {
    setup,
    createsPerSecond: (CREATES / created.ms) * 1000,
    foundPerSecond: (CREATES / found.ms) * 1000,
    roundTripsPerCreate: created.commands === undefined ? undefined : created.commands / CREATES,
    roundTripsPerFound: found.commands === undefined ? undefined : found.commands / CREATES,
  };
}

// A first run warms the SDK and the mock up (JIT, sockets); its figures are not kept.
await measure('warm-up', undefined);
const rows: Row[] = [await measure('in-process (default)', undefined)];
for (const [setup, nodes] of [
  ['RedisCoordination, standalone', 0],
  ['RedisCoordination, 2-node cluster', 2],
] as const) {
  const server = await startRedisServer({ nodes });
  try {
    rows.push(await measure(setup, server));
  } finally {
    await server.close();
  }
}

rows.push(await measure('in-process (default), again', undefined));
const round = (value: number | undefined, digits = 0) => (value === undefined ? '—' : value.toFixed(digits));
console.log(`${CREATES} households, ${CONCURRENCY} at a time, one process, mock on loopback\n`);
console.log(
  '| coordination | creates/s (new household) | createOnce/s (household exists) | Redis round trips per create | per createOnce that finds |',
);
console.log('|---|---:|---:|---:|---:|');
for (const row of rows) {
  console.log(
    `| ${row.setup} | ${round(row.createsPerSecond)} | ${round(row.foundPerSecond)} | ${round(row.roundTripsPerCreate, 1)} | ${round(row.roundTripsPerFound, 1)} |`,
  );
}
