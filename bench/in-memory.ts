/**
 * Client CPU per call without sockets: the SDK and raw undici `request()` + `JSON.parse`, each in
 * its own process on an in-memory dispatcher (memory-dispatcher.ts), interleaved rounds, the
 * median per cell. Socket reads and writes cost both the same, and here they cost nothing, so the
 * ratio is the clients' own work: steadier on a shared machine than the throughput tables.
 *
 *   node --import tsx bench/in-memory.ts [rounds=7]   (run by `npm run bench` too)
 *   BENCH_V8_FLAGS='--no-allocation-site-pretenuring' ...   V8 flags for both workers: tells whether a
 *     regression is V8 tenuring a per-call allocation site (docs/benchmarks.md, round 4)
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildBundles, median } from './harness.js';
import type { InMemoryRequest } from './in-memory-worker.js';

/** One cell: CPU µs per call of each contender, and the SDK's ratio to raw undici. */
export interface InMemoryCell {
  kind: InMemoryRequest['kind'];
  concurrency: number;
  sdkUs: number;
  rawUs: number;
  ratio: number;
}

const CELLS: Array<Omit<InMemoryRequest, 'calls'> & { calls: number }> = [
  { kind: 'list', concurrency: 1, calls: 20_000 },
  { kind: 'list', concurrency: 16, calls: 40_000 },
  { kind: 'report', concurrency: 16, calls: 3_000 },
];

function worker(contender: 'sdk' | 'raw') {
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./in-memory-worker.ts', import.meta.url)),
    [contender],
    {
      execArgv: [
        '--expose-gc',
        '--import',
        'tsx',
        ...(process.env.BENCH_V8_FLAGS?.split(' ').filter(Boolean) ?? []),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  let waiting: { resolve: (value: unknown) => void; reject: (error: Error) => void } | undefined;
  child.on('message', (message) => waiting?.resolve(message));
  child.on('exit', (code) =>
    waiting?.reject(new Error(`in-memory worker ${contender} exited (code ${code})`)),
  );
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      waiting = { resolve, reject };
    });
  const ready = next();
  return {
    ready,
    measure: async (request: InMemoryRequest) => {
      const reply = next();
      child.send(request);
      return Number(await reply);
    },
    stop: () => child.kill(),
  };
}

/** Runs the cells for `rounds` interleaved rounds (bundles built by the caller). */
export async function inMemory(rounds: number): Promise<InMemoryCell[]> {
  const workers = { sdk: worker('sdk'), raw: worker('raw') };
  try {
    await Promise.all([workers.sdk.ready, workers.raw.ready]);
    const samples = new Map<string, { sdk: number[]; raw: number[]; ratio: number[] }>();
    for (let round = 0; round < rounds; round++) {
      for (const cell of CELLS) {
        const key = `${cell.kind}:${cell.concurrency}`;
        const entry = samples.get(key) ?? { sdk: [], raw: [], ratio: [] };
        // Alternate which goes first; each round's pair is compared within the round.
        const order = round % 2 === 0 ? (['sdk', 'raw'] as const) : (['raw', 'sdk'] as const);
        const got = { sdk: 0, raw: 0 };
        for (const contender of order) got[contender] = await workers[contender].measure(cell);
        entry.sdk.push(got.sdk);
        entry.raw.push(got.raw);
        entry.ratio.push(got.sdk / got.raw);
        samples.set(key, entry);
      }
    }
    return CELLS.map((cell) => {
      const entry = samples.get(`${cell.kind}:${cell.concurrency}`) ?? { sdk: [], raw: [], ratio: [] };
      return {
        kind: cell.kind,
        concurrency: cell.concurrency,
        sdkUs: median(entry.sdk),
        rawUs: median(entry.raw),
        ratio: median(entry.ratio),
      };
    });
  } finally {
    workers.sdk.stop();
    workers.raw.stop();
  }
}

/** The table `npm run bench` prints. */
export function inMemoryLines(cells: InMemoryCell[], rounds: number): string[] {
  const label = { list: 'validated list page (~2.4 KB)', report: 'income report (~60 KB)' };
  return [
    `Client CPU per call without sockets (in-memory dispatcher; median of ${rounds} interleaved rounds, each pair compared within its round):`,
    '',
    '| call | conc. | SDK | raw undici `request()` + `JSON.parse` | SDK / raw |',
    '|---|--:|--:|--:|--:|',
    ...cells.map(
      (cell) =>
        `| ${label[cell.kind]} | ${cell.concurrency} | ${cell.sdkUs.toFixed(1)} µs | ${cell.rawUs.toFixed(1)} µs | ${cell.ratio.toFixed(2)} |`,
    ),
    '',
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rounds = Number(process.argv[2] ?? 7);
  await buildBundles();
  process.stdout.write(`${inMemoryLines(await inMemory(rounds), rounds).join('\n')}\n`);
}
