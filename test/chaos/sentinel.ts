/**
 * A Redis Sentinel for the chaos suite: one redis-sentinel on a free loopback port watching a
 * primary (quorum 1, the primary judged down after 1 s without an answer), so a failover promotes
 * its replica within seconds of the primary's death. Its config file is in a temporary folder
 * (Sentinel rewrites it as it learns).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, onNode } from '../fleet/redis-server.js';

/** The name the sentinel knows the primary by. */
export const PRIMARY_NAME = 'chaos-primary';

/** A running sentinel owned by the test. */
export interface RunningSentinel {
  readonly port: number;
  /** The primary's port as the sentinel reports it now. */
  primaryPort(): Promise<number>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** Polls `check` every 50 ms until it is true, for up to `limitMs`; throws naming `what` otherwise. */
export async function until(what: string, check: () => Promise<boolean>, limitMs = 20_000): Promise<void> {
  const giveUpAt = Date.now() + limitMs;
  while (Date.now() < giveUpAt) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`sentinel: ${what} did not happen within ${limitMs / 1000} s`);
}

/** Starts a sentinel watching the primary on `primaryPort`, once it has seen `replicas` replicas. */
export async function startSentinel(primaryPort: number, replicas: number): Promise<RunningSentinel> {
  const probe = spawnSync('redis-sentinel', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'redis-sentinel is not installed: the failover scenario needs it (apt-get install -y redis-sentinel; .ci/run installs it).',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'chaos-sentinel-'));
  const port = await freePort();
  const file = join(dir, 'sentinel.conf');
  writeFileSync(
    file,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${PRIMARY_NAME} 127.0.0.1 ${primaryPort} 1`,
      `sentinel down-after-milliseconds ${PRIMARY_NAME} 1000`,
      `sentinel failover-timeout ${PRIMARY_NAME} 10000`,
      `sentinel parallel-syncs ${PRIMARY_NAME} 1`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('redis-sentinel', [file], { stdio: 'ignore' });
  const primaryPortNow = () =>
    onNode(port, async (redis) => {
      const reply = (await redis.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', PRIMARY_NAME)) as string[];
      return Number(reply[1]);
    });
  try {
    await until('the sentinel answering', async () => (await primaryPortNow()) === primaryPort);
    await until(`the sentinel seeing ${replicas} replicas`, () =>
      onNode(port, async (redis) => {
        const seen = (await redis.call('SENTINEL', 'REPLICAS', PRIMARY_NAME)) as unknown[];
        return seen.length >= replicas;
      }),
    );
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    primaryPort: primaryPortNow,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
