/**
 * One contender in its own process. The parent (bench/run.ts) asks one worker at a time to
 * measure, so the contenders never run together; but they do not share a process either: in one
 * process they shared undici's code (the SDK and raw undici drive the same Pool/Client code with
 * different handlers), and whichever ran after the SDK paid ~1 s of V8 re-optimisation, and the
 * heap left by one contender was collected on the next one's time.
 *
 *   fork('bench/client-worker.ts', [key, origin]) with `--expose-gc --import tsx`; the SDK is
 *   loaded from the bundle bench/run.ts built (harness.ts `buildBundles`).
 */
import {
  type Contender,
  fetchToken,
  rawAgent,
  rawFetch,
  rawPool,
  sdk,
  sdkOnAgent,
  zodFetch,
} from './clients.js';
import { loadPackage, measure, repeat, type Sample, settle } from './harness.js';

/** What the parent asks a worker. */
export type WorkerRequest =
  | { type: 'warm' }
  | { type: 'measure'; endpoint: 'small' | 'report'; concurrency: number; durationMs: number }
  | { type: 'close' };

/** What a worker answers. */
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'warmed' }
  | { type: 'sample'; sample: Sample }
  | { type: 'closed' };

async function contender(key: string, origin: string): Promise<Contender> {
  const pkg = await loadPackage();
  if (key === 'A') return sdk(pkg, origin);
  if (key === 'A_agent') return sdkOnAgent(pkg, origin);
  const token = await fetchToken(origin);
  if (key === 'B') return rawPool(origin, token);
  if (key === 'B_agent') return rawAgent(origin, token);
  if (key === 'C') return rawFetch(origin, token);
  if (key === 'D') return zodFetch(pkg, origin, token);
  throw new Error(`Unknown contender ${key}`);
}

async function main(): Promise<void> {
  const [key, origin] = process.argv.slice(2);
  if (!key || !origin || !process.send) throw new Error('usage: fork client-worker.ts <key> <origin>');
  const send = (reply: WorkerReply) => process.send?.(reply);
  const client = await contender(key, origin);
  process.on('message', async (message: WorkerRequest) => {
    try {
      if (message.type === 'warm') {
        // JIT, sockets, the token and the schemas' first parses.
        await repeat(client.small, 16, 1_500);
        await repeat(client.report, 16, 300);
        send({ type: 'warmed' });
      } else if (message.type === 'measure') {
        await settle(50);
        const sample = await measure(client[message.endpoint], message.concurrency, message.durationMs);
        send({ type: 'sample', sample });
      } else {
        await client.close();
        send({ type: 'closed' });
        process.disconnect();
      }
    } catch (error) {
      process.stderr.write(`worker ${key}: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    }
  });
  send({ type: 'ready' });
}

await main();
