/**
 * Instructions per call, counted by valgrind's callgrind (repeatable on a loaded machine, where
 * CPU time moves by 2-3x): `node --import tsx bench/instructions.ts [calls] [warmup] [list,report]`. Each cell runs the
 * client in its own process (the server is another, not counted) twice, with `warmup` and with
 * `warmup + calls` calls; the difference over `calls` is the cost of one warm call, start-up and
 * warm-up cancelled out. Needs valgrind on the PATH. See docs/benchmarks.md, round 3.
 */
import { spawnSync } from 'node:child_process';
import { BUNDLES, buildBundles, startServer } from './harness.js';

const CALLS = Number(process.argv[2] ?? 2_000);
const WARMUP = Number(process.argv[3] ?? 1_000);

/** A bundle to compare with (`BENCH_BASELINE=bench/.cache/sdk-before.mjs`: a copy of bench/.cache/sdk.mjs built on main, kept beside it so it resolves the same packages). */
const BASELINE = process.env.BENCH_BASELINE;

function instructions(args: string[], bundle = BUNDLES.sdk): number {
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', 'node', BUNDLES.instructionsChild, ...args],
    { encoding: 'utf8', env: { ...process.env, BENCH_SDK_BUNDLE: bundle } },
  );
  const total = /Collected\s*:\s*(\d+)/.exec(run.stderr)?.[1];
  if (run.status !== 0 || total === undefined) throw new Error(`callgrind failed:\n${run.stderr}`);
  return Number(total);
}

async function main(): Promise<void> {
  await buildBundles();
  const server = await startServer();
  try {
    for (const kind of (process.argv[4] ?? 'list,report').split(',')) {
      const cells: Array<[string, string, string | undefined]> = [
        ['raw undici', 'raw', undefined],
        ['SDK', 'sdk', BUNDLES.sdk],
      ];
      if (BASELINE) cells.push(['SDK baseline', 'sdk', BASELINE]);
      const line: string[] = [];
      let raw = Number.NaN;
      for (const [label, contender, bundle] of cells) {
        const base = instructions([contender, kind, server.origin, '0', String(WARMUP)], bundle);
        const more = instructions([contender, kind, server.origin, String(CALLS), String(WARMUP)], bundle);
        const perCall = (more - base) / CALLS;
        if (contender === 'raw') raw = perCall;
        line.push(`${label} ${Math.round(perCall / 1000)} k instr/call (${(perCall / raw).toFixed(2)})`);
        console.error(`${kind}: ${line.at(-1)}`);
      }
      console.log(`${kind}: ${line.join(', ')}`);
    }
  } finally {
    await server.stop();
  }
}

await main();
