/**
 * One measured client process for bench/instructions.ts: loads the bundled SDK (or only undici),
 * makes `calls` calls of one kind sequentially after `warmup` untimed ones, and exits. Run under
 * `valgrind --tool=callgrind`, whose instruction total is repeatable under load where CPU time is not.
 */
import { pathToFileURL } from 'node:url';
import { type Contender, fetchToken, rawPool, sdk } from './clients.js';
import type { Package } from './harness.js';

const [contender = 'raw', kind = 'list', origin = '', calls = '0', warmup = '0'] = process.argv.slice(2);

async function main(): Promise<void> {
  const client: Contender =
    contender === 'sdk'
      ? sdk((await import(pathToFileURL(process.env.BENCH_SDK_BUNDLE ?? '').href)) as Package, origin)
      : rawPool(origin, await fetchToken(origin));
  const op = kind === 'report' ? client.report : client.small;
  for (let i = 0; i < Number(warmup); i++) await op();
  for (let i = 0; i < Number(calls); i++) await op();
  await client.close();
}

await main();
