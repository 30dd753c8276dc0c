/**
 * A real Redis for the fleet suite (`npm run test:fleet`): redis-server on free loopback ports,
 * no persistence, in a temporary folder. Standalone, or a Redis Cluster of `nodes` servers with
 * the 16384 slots split between them, so that keys of different hash tags land on different
 * servers and a client must follow MOVED replies and cluster-wide pub/sub. It can be stopped and
 * started again on the same ports (the outage tests). With `replicas`, the primary (standalone) or
 * the first node (cluster) has that many replicas, each a server that can be stopped and resumed
 * on its own (SIGSTOP, SIGCONT); with `persistent`, every write goes to an append-only file synced
 * before the reply (`appendonly yes`, `appendfsync always`), kept across a restart.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, Redis } from 'ioredis';

/** A running Redis owned by the test. */
export interface RedisServer {
  /** Loopback ports, one per server (one when standalone). */
  readonly ports: readonly number[];
  /** Whether it runs as a cluster. */
  readonly cluster: boolean;
  /** The replicas' loopback ports (replicas of the primary, or of a cluster's first node). */
  readonly replicaPorts: readonly number[];
  /** Sends `signal` to the server on `port` (SIGSTOP: it stops answering and replicating). */
  signal(port: number, signal: NodeJS.Signals): void;
  /**
   * Starts the server on `port` again after it died (standalone; empty unless `persistent`), as a
   * replica of the server on `replicaOf` when given (else as it was first started).
   */
  restartNode(port: number, replicaOf?: number): Promise<void>;
  /** A new ioredis connection to it (a `Cluster` in cluster mode), with the options given. */
  connect(options?: { commandTimeout?: number }): Redis | Cluster;
  /** Kills every server (SIGKILL: no goodbye to clients, as a crashed or unreachable Redis). */
  stop(): Promise<void>;
  /** Starts them again on the same ports, empty unless `persistent`. */
  start(): Promise<void>;
  /** Stops them and removes the folder. */
  close(): Promise<void>;
}

const SLOTS = 16_384;

/** A loopback port free now (the kernel's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function requireBinary(): void {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'redis-server is not installed: the fleet suite needs it (apt-get install -y redis-server; .ci/run installs it).',
    );
  }
}

async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server: ${what} did not happen within 10 s`);
}

/** Runs `command` on a short-lived direct connection to the server on `port`. */
/** Runs `command` on a connection of its own to the node on `port`, closed after. */
export async function onNode<T>(port: number, command: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await command(redis);
  } finally {
    redis.disconnect();
  }
}

/**
 * Starts a standalone redis-server, or with `nodes` a cluster of that many servers, every slot
 * assigned.
 */
export async function startRedisServer(
  options: { nodes?: number; replicas?: number; persistent?: boolean } = {},
): Promise<RedisServer> {
  requireBinary();
  const nodes = options.nodes ?? 0;
  const cluster = nodes > 0;
  const persistent = options.persistent === true;
  const dir = mkdtempSync(join(tmpdir(), 'fleet-redis-'));
  const ports: number[] = [];
  for (let index = 0; index < Math.max(nodes, 1); index++) ports.push(await freePort());
  const replicaPorts: number[] = [];
  for (let index = 0; index < (options.replicas ?? 0); index++) replicaPorts.push(await freePort());
  let children = new Map<number, ChildProcess>();

  const startNode = async (port: number, replicaOf?: number): Promise<ChildProcess> => {
    const nodeDir = join(dir, String(port));
    // A fresh cluster config each start: the node forgets its slots and peers, set again below.
    // A persistent server keeps its folder: its append-only file is what it restarts from.
    if (!persistent) rmSync(nodeDir, { recursive: true, force: true });
    mkdirSync(nodeDir, { recursive: true });
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', ''];
    args.push(...(persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']));
    args.push('--dir', nodeDir);
    if (replicaOf !== undefined && !cluster) args.push('--replicaof', '127.0.0.1', String(replicaOf));
    // A node that never met another does not know its own address: announce it, or CLUSTER SLOTS
    // names no host and clients find no node for any slot.
    if (cluster) args.push('--cluster-enabled', 'yes', '--cluster-announce-ip', '127.0.0.1');
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    await waitUntil(() => onNode(port, async (redis) => (await redis.ping()) === 'PONG'), `PONG on ${port}`);
    return child;
  };

  const replicasUp = async (): Promise<void> => {
    const primary = ports[0] ?? 0;
    await waitUntil(
      () =>
        onNode(primary, async (redis) =>
          String(await redis.call('INFO', 'replication')).includes(`connected_slaves:${replicaPorts.length}`),
        ),
      `${replicaPorts.length} replicas connected to ${primary}`,
    );
    for (const port of replicaPorts) {
      await waitUntil(
        () =>
          onNode(port, async (redis) =>
            String(await redis.call('INFO', 'replication')).includes('master_link_status:up'),
          ),
        `the replica on ${port} in sync`,
      );
    }
  };

  const start = async (): Promise<void> => {
    const started = await Promise.all([
      ...ports.map((port) => startNode(port)),
      ...replicaPorts.map((port) => startNode(port, ports[0])),
    ]);
    children = new Map(
      [...ports, ...replicaPorts].map((port, index) => [port, started[index] as ChildProcess]),
    );
    if (!cluster) {
      if (replicaPorts.length > 0) await replicasUp();
      return;
    }
    const share = Math.ceil(SLOTS / nodes);
    await Promise.all(
      ports.map((port, index) =>
        onNode(port, async (redis) => {
          const first = index * share;
          const last = Math.min(SLOTS, first + share) - 1;
          await redis.call('CLUSTER', 'ADDSLOTSRANGE', String(first), String(last));
          for (const other of [...ports, ...replicaPorts])
            if (other !== port) await redis.call('CLUSTER', 'MEET', '127.0.0.1', String(other));
        }),
      ),
    );
    if (replicaPorts.length > 0) {
      const firstId = String(await onNode(ports[0] ?? 0, (redis) => redis.call('CLUSTER', 'MYID')));
      for (const port of replicaPorts) {
        await waitUntil(
          () => onNode(port, async (redis) => String(await redis.call('CLUSTER', 'NODES')).includes(firstId)),
          `the replica on ${port} meeting the first node`,
        );
        await onNode(port, (redis) => redis.call('CLUSTER', 'REPLICATE', firstId));
      }
      await replicasUp();
    }
    for (const port of ports) {
      await waitUntil(
        () =>
          onNode(port, async (redis) => {
            const info = String(await redis.call('CLUSTER', 'INFO'));
            return (
              info.includes('cluster_state:ok') &&
              info.includes(`cluster_known_nodes:${nodes + replicaPorts.length}`)
            );
          }),
        `cluster_state:ok on ${port}`,
      );
    }
  };

  const stop = async (): Promise<void> => {
    const running = [...children.values()];
    children = new Map();
    for (const child of running) child.kill('SIGCONT');
    await Promise.all(
      running
        .filter((child) => child.exitCode === null && child.signalCode === null)
        .map(
          (child) =>
            new Promise<void>((resolve) => {
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
    );
  };

  try {
    await start();
  } catch (error) {
    await stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    ports,
    cluster,
    replicaPorts,
    signal(port, signal) {
      const child = children.get(port);
      if (!child) throw new Error(`redis-server: no server on ${port}`);
      child.kill(signal);
    },
    async restartNode(port, replicaOf) {
      const child = children.get(port);
      if (child && child.exitCode === null && child.signalCode === null) {
        throw new Error(`redis-server: the server on ${port} still runs`);
      }
      children.set(
        port,
        await startNode(port, replicaOf ?? (replicaPorts.includes(port) ? ports[0] : undefined)),
      );
    },
    connect(connectOptions = {}) {
      const redis = cluster
        ? new Cluster(
            ports.map((port) => ({ host: '127.0.0.1', port })),
            { redisOptions: connectOptions },
          )
        : new Redis({ host: '127.0.0.1', port: ports[0] ?? 0, ...connectOptions });
      // The outage tests stop the server: each reconnect attempt would print "Unhandled error event".
      redis.on('error', () => {});
      return redis;
    },
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
