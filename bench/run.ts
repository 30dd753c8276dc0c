/**
 * `npm run bench`: throughput of the SDK against raw undici and fetch, memory of a long list
 * walk, client CPU per call without sockets (in-memory.ts), and cold start, all in one run against a plain node:http server in a child process.
 * Prints the tables and the ratios, and writes them into docs/benchmarks.md (between the
 * `bench:results` markers; the rest of that page is prose about the results).
 *
 *   node --expose-gc --import tsx bench/run.ts [--rounds 5] [--duration 350] [--quick] [--no-docs]
 *     [--cold-runs 5] [--cold-only]   (--cold-only: the cold-start tables alone, printed, not written)
 *     [--edge-size]   (the edge entry's bundled size alone, printed, not written)
 *     [--platforms]   (300 and 3,000 accounts through derived clients, bench/platforms.ts; printed, not written)
 */
import { type ChildProcess, execFile, fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bundleEdge, EDGE_GZIP_BUDGET_BYTES } from '../test/support/edge-bundle.js';
import type { WorkerReply, WorkerRequest } from './client-worker.js';
import type { ColdResult, SchemaColdResult } from './cold-child.js';
import { buildPackage } from './cold-package.js';
import { BUNDLES, buildBundles, median, type Sample, startServer } from './harness.js';
import { type InMemoryCell, inMemory, inMemoryLines } from './in-memory.js';
import type { MemoryResult } from './memory.js';
import { platformsBench } from './platforms.js';

const run = promisify(execFile);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

interface Options {
  rounds: number;
  durationMs: number;
  coldRuns: number;
  docs: boolean;
  /** Only the cold start (no throughput, no memory); prints, does not write docs. */
  coldOnly: boolean;
}

function parseOptions(argv: string[]): Options {
  const value = (name: string) => {
    const at = argv.indexOf(name);
    return at === -1 ? undefined : Number(argv[at + 1]);
  };
  const quick = argv.includes('--quick');
  return {
    rounds: value('--rounds') ?? (quick ? 2 : 5),
    durationMs: value('--duration') ?? (quick ? 200 : 350),
    coldRuns: value('--cold-runs') ?? (quick ? 2 : 5),
    docs: !argv.includes('--no-docs') && !argv.includes('--cold-only'),
    coldOnly: argv.includes('--cold-only'),
  };
}

const ENDPOINTS = ['small', 'report'] as const;
type Endpoint = (typeof ENDPOINTS)[number];
const ENDPOINT_LABEL: Record<Endpoint, string> = {
  small: 'list page (2 groups, ~2.4 KB)',
  report: 'income report (~60 KB)',
};
const CONCURRENCY = [1, 16, 64] as const;
const KEYS = ['A', 'A_agent', 'B', 'B_agent', 'C', 'D'] as const;
type Key = (typeof KEYS)[number];
const LABEL: Record<Key, string> = {
  A: 'A SDK',
  A_agent: "A' SDK on Agent",
  B: 'B undici Pool',
  B_agent: "B' undici Agent",
  C: 'C fetch',
  D: 'D fetch+zod',
};

type Cell = `${Endpoint}:${number}:${Key}`;

/** A contender's worker process (see client-worker.ts). */
class Worker {
  readonly #child: ChildProcess;
  readonly #replies: WorkerReply[] = [];
  #pending: ((reply: WorkerReply) => void) | undefined;

  constructor(key: Key, origin: string) {
    this.#child = fork(here('./client-worker.ts'), [key, origin], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.#child.on('message', (reply: WorkerReply) => {
      const pending = this.#pending;
      this.#pending = undefined;
      if (pending) pending(reply);
      else this.#replies.push(reply);
    });
  }

  /** Waits for the next reply (after sending `request`, if any). */
  ask(request?: WorkerRequest): Promise<WorkerReply> {
    if (request) this.#child.send(request);
    const early = this.#replies.shift();
    if (early) return Promise.resolve(early);
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`A benchmark worker exited (code ${code})`));
      this.#child.once('exit', onExit);
      this.#pending = (reply) => {
        this.#child.off('exit', onExit);
        resolve(reply);
      };
    });
  }

  kill(): void {
    if (this.#child.exitCode === null) this.#child.kill();
  }
}

async function throughput(origin: string, options: Options, log: (line: string) => void) {
  const workers = Object.fromEntries(KEYS.map((key) => [key, new Worker(key, origin)])) as Record<
    Key,
    Worker
  >;
  const samples = new Map<Cell, Sample[]>();
  try {
    for (const key of KEYS) await workers[key].ask(); // ready
    // Warm-up, one contender at a time: JIT, sockets, the token, the schemas' first parses.
    for (const key of KEYS) await workers[key].ask({ type: 'warm' });
    for (let round = 0; round < options.rounds; round++) {
      const started = performance.now();
      for (const endpoint of ENDPOINTS) {
        for (const concurrency of CONCURRENCY) {
          // Rotate the order every round so that no contender always runs after the same one.
          for (let i = 0; i < KEYS.length; i++) {
            const key = KEYS[(i + round) % KEYS.length] as Key;
            const reply = await workers[key].ask({
              type: 'measure',
              endpoint,
              concurrency,
              durationMs: options.durationMs,
            });
            if (reply.type !== 'sample') throw new Error(`Unexpected reply ${reply.type}`);
            const cell: Cell = `${endpoint}:${concurrency}:${key}`;
            samples.set(cell, [...(samples.get(cell) ?? []), reply.sample]);
          }
        }
      }
      log(
        `  round ${round + 1}/${options.rounds} done in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    for (const key of KEYS) await workers[key].ask({ type: 'close' });
  } finally {
    for (const key of KEYS) workers[key].kill();
  }
  const rps = (endpoint: Endpoint, concurrency: number, key: Key) =>
    median((samples.get(`${endpoint}:${concurrency}:${key}`) ?? []).map((s) => s.rps));
  const cpu = (endpoint: Endpoint, concurrency: number, key: Key) =>
    median((samples.get(`${endpoint}:${concurrency}:${key}`) ?? []).map((s) => s.cpuUs));
  return { rps, cpu };
}

async function memory(origin: string): Promise<MemoryResult> {
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', here('./memory.ts'), origin],
    {
      cwd: here('..'),
    },
  );
  return JSON.parse(stdout) as MemoryResult;
}

/** The cold-start contenders: what the child runs, and which build it loads. */
const COLD_MODES = [
  { key: 'raw', label: 'raw undici + JSON.parse' },
  { key: 'raw-direct', label: "raw undici, Pool's and request()'s modules alone + JSON.parse" },
  { key: 'sdk', label: 'SDK as shipped (zod and jose bundled)' },
  { key: 'sdk-external', label: 'SDK, zod and jose from node_modules' },
] as const;

async function coldStart(origin: string, runs: number) {
  const { coldChild: child, sdk: sdkBundle } = BUNDLES;
  const shipped = await buildPackage();
  const calls = new Map<string, ColdResult[]>();
  const schemas = new Map<string, SchemaColdResult[]>();
  const exec = async (args: string[]) =>
    (await run(process.execPath, [child, ...args], { cwd: here('..') })).stdout;
  // Interleaved, each in a fresh process. "sdk-external" is the bench bundle (tsup, every
  // dependency external): the build before zod and jose were bundled.
  for (let i = 0; i < runs; i++) {
    for (const mode of COLD_MODES) {
      const bundle = mode.key === 'sdk' ? shipped : sdkBundle;
      const args = mode.key.startsWith('raw') ? [mode.key, origin] : ['sdk', origin, bundle];
      const result = JSON.parse(await exec(args)) as ColdResult;
      calls.set(mode.key, [...(calls.get(mode.key) ?? []), result]);
    }
    for (const mode of SCHEMA_MODES) {
      const result = JSON.parse(await exec([mode.key, origin, sdkBundle])) as SchemaColdResult;
      schemas.set(mode.key, [...(schemas.get(mode.key) ?? []), result]);
    }
  }
  const raw = calls.get('raw') ?? [];
  // The raw client that loads only undici's Pool and request() modules: as little of undici as the
  // SDK itself loads, so the ratio against it is the SDK's own cost.
  const direct = calls.get('raw-direct') ?? [];
  const summary = (mode: string, label: string) => {
    const list = calls.get(mode) ?? [];
    return {
      label,
      importMs: median(list.map((r) => r.importMs)),
      // Paired within each round (same minute of a shared machine), then the median.
      importRatio: median(list.map((r, i) => r.importMs / (raw[i]?.importMs ?? Number.NaN))),
      // Process start to the first validated list page (import and token exchange included), paired likewise.
      listAtRatio: median(list.map((r, i) => r.listAt / (raw[i]?.listAt ?? Number.NaN))),
      // The same span in process CPU time (user + system), paired likewise: steadier under load.
      listCpuRatio: median(list.map((r, i) => r.listCpuMs / (raw[i]?.listCpuMs ?? Number.NaN))),
      // The same two spans over the Pool-and-request()-only raw run beside it.
      listAtDirectRatio: median(list.map((r, i) => r.listAt / (direct[i]?.listAt ?? Number.NaN))),
      listCpuDirectRatio: median(list.map((r, i) => r.listCpuMs / (direct[i]?.listCpuMs ?? Number.NaN))),
      listCpuMs: median(list.map((r) => r.listCpuMs)),
      firstListMs: median(list.map((r) => r.firstListMs)),
      firstReportMs: median(list.map((r) => r.firstReportMs)),
      listAt: median(list.map((r) => r.listAt)),
    };
  };
  return {
    calls: COLD_MODES.map((mode) => summary(mode.key, mode.label)),
    schemas: SCHEMA_MODES.map((mode) => {
      const list = schemas.get(mode.key) ?? [];
      return {
        label: mode.label,
        buildMs: median(list.map((r) => r.buildMs)),
        firstMs: median(list.map((r) => r.firstMs)),
        nextMs: median(list.map((r) => r.nextMs)),
      };
    }),
  };
}

const SCHEMA_MODES = [
  { key: 'schema-runtime', label: 'zod `safeParse` (JIT)' },
  { key: 'schema-zcompile', label: '`z.compile` then `safeParse`' },
  { key: 'schema-fast', label: 'SDK fast check (`src/core/call/compiled.ts`)' },
] as const;

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function packageVersion(name: string): string {
  const path = fileURLToPath(new URL(`../node_modules/${name}/package.json`, import.meta.url));
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}

/** The cold-start tables (Markdown lines), the import ratio against undici alone among them. */
function coldLines(cold: Awaited<ReturnType<typeof coldStart>>, runs: number): string[] {
  const lines: string[] = [];
  lines.push(
    `Cold start (median of ${runs} fresh processes, interleaved; "× undici" pairs each run with the raw run beside it (undici's index), "× Pool" with the raw run that loads only Pool's and request()'s modules):`,
  );
  lines.push('');
  lines.push(
    '| mode | import | × undici | import → first list page | process start → first list page | × undici | × Pool | same span, CPU | × undici | × Pool | then first 60 KB report |',
  );
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const row of cold.calls) {
    lines.push(
      `| ${row.label} | ${fmt(row.importMs, 1)} ms | ${fmt(row.importRatio, 2)} | ${fmt(row.firstListMs, 1)} ms | ${fmt(row.listAt, 1)} ms | ${fmt(row.listAtRatio, 2)} | ${fmt(row.listAtDirectRatio, 2)} | ${fmt(row.listCpuMs, 1)} ms | ${fmt(row.listCpuRatio, 2)} | ${fmt(row.listCpuDirectRatio, 2)} | ${fmt(row.firstReportMs, 1)} ms |`,
    );
  }
  lines.push('');
  lines.push(
    'The income report schema alone, in a fresh process (build, first check of the 60 KB body, mean of the next 20):',
  );
  lines.push('');
  lines.push('| validator | build | first | next |');
  lines.push('|---|--:|--:|--:|');
  for (const row of cold.schemas) {
    lines.push(
      `| ${row.label} | ${fmt(row.buildMs, 2)} ms | ${fmt(row.firstMs, 2)} ms | ${fmt(row.nextMs * 1000, 0)} µs |`,
    );
  }
  lines.push('');
  const shipped = cold.calls.find((row) => row.label.startsWith('SDK as shipped'));
  const ratio = shipped?.importRatio ?? Number.NaN;
  const firstCall = shipped?.listAtRatio ?? Number.NaN;
  const firstCallCpu = shipped?.listCpuRatio ?? Number.NaN;
  lines.push('| cold-start target | measured | goal | |');
  lines.push('|---|--:|--:|---|');
  lines.push(
    `| import of the SDK / import of undici alone | ${fmt(ratio, 2)} | ≤ 1.5 | ${ratio <= 1.5 ? 'met' : 'MISSED'} |`,
  );
  lines.push(
    `| process start → first list page: SDK / undici + JSON.parse | ${fmt(firstCall, 2)} | ≤ 1.15 | ${firstCall <= 1.15 ? 'met' : 'MISSED'} |`,
  );
  lines.push(
    `| the same in process CPU time | ${fmt(firstCallCpu, 2)} | ≤ 1.15 | ${firstCallCpu <= 1.15 ? 'met' : 'MISSED'} |`,
  );
  // The SDK loads undici's Pool and Agent modules, not its index (src/core/transport/undici-modules.ts): the
  // rows above compare with an application importing undici, these with one loading as little
  // (Pool's and request()'s modules), under which the SDK's own cost shows.
  const ownCost = shipped?.listAtDirectRatio ?? Number.NaN;
  const ownCostCpu = shipped?.listCpuDirectRatio ?? Number.NaN;
  lines.push(
    `| process start → first list page: SDK / undici's Pool and request() modules + JSON.parse | ${fmt(ownCost, 2)} | ≤ 1.15 | ${ownCost <= 1.15 ? 'met' : 'MISSED'} |`,
  );
  lines.push(
    `| the same in process CPU time | ${fmt(ownCostCpu, 2)} | ≤ 1.15 | ${ownCostCpu <= 1.15 ? 'met' : 'MISSED'} |`,
  );
  lines.push('');
  return lines;
}

/** The edge entry's size as a Worker's build bundles it (test/edge/bundle.test.ts holds the budget). */
async function edgeSizeLines(): Promise<string[]> {
  const edge = await bundleEdge();
  const kib = (bytes: number) => `${fmt(bytes / 1024, 1)} KiB`;
  const met = edge.gzipBytes <= EDGE_GZIP_BUDGET_BYTES;
  return [
    'The edge entry (`workerd` / `edge-light` / `worker` conditions) bundled for a worker by esbuild, minified:',
    '',
    '| edge entry | minified | minified + gzip | budget | |',
    '|---|--:|--:|--:|---|',
    `| src/edge.ts (${edge.packages.join(', ')} inlined) | ${kib(edge.minifiedBytes)} | ${kib(edge.gzipBytes)} | ${kib(EDGE_GZIP_BUDGET_BYTES)} | ${met ? 'met' : 'MISSED'} |`,
    '',
  ];
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (process.argv.includes('--platforms')) {
    const lines = await platformsBench((line) => process.stderr.write(`${line}\n`));
    process.stdout.write(`${lines.join('\n')}\n`);
    return;
  }
  if (process.argv.includes('--edge-size')) {
    process.stdout.write(`${(await edgeSizeLines()).join('\n')}\n`);
    return;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const wallStart = performance.now();
  const cpu = cpus();
  const machine = `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GB RAM, ${process.platform} ${process.arch}`;
  const stack = `Node ${process.version}, undici ${packageVersion('undici')}, zod ${packageVersion('zod')}`;
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  log(`applicant-verification benchmarks: ${machine}; ${stack}`);

  await buildBundles();
  const server = await startServer();
  if (options.coldOnly) {
    try {
      log(`cold start only: ${options.coldRuns} runs of each mode`);
      const cold = await coldStart(server.origin, options.coldRuns);
      const edge = await edgeSizeLines();
      process.stdout.write(`\n${[...coldLines(cold, options.coldRuns), ...edge].join('\n')}\n`);
    } finally {
      await server.stop();
    }
    return;
  }
  log(
    `server (child process ${server.child.pid}) on ${server.origin}; report body ${server.reportBytes} B, list body ${server.smallListBytes} B`,
  );
  let table: Awaited<ReturnType<typeof throughput>>;
  let mem: MemoryResult;
  let cold: Awaited<ReturnType<typeof coldStart>>;
  let noSockets: InMemoryCell[];
  try {
    log(
      `throughput: ${options.rounds} rounds x ${ENDPOINTS.length * CONCURRENCY.length * KEYS.length} cells x ${options.durationMs} ms`,
    );
    table = await throughput(server.origin, options, log);
    log('memory: for await over 10,000 groups');
    mem = await memory(server.origin);
    log(`cold start: ${options.coldRuns} runs of each mode`);
    cold = await coldStart(server.origin, options.coldRuns);
    log(`client CPU without sockets: ${options.rounds} rounds`);
    noSockets = await inMemory(options.rounds);
  } finally {
    await server.stop();
  }

  const lines: string[] = [];
  lines.push(
    `Measured ${date} UTC on ${machine}; ${stack}. Server: node:http in a child process on 127.0.0.1.`,
  );
  lines.push(
    `Each cell: the median of ${options.rounds} interleaved rounds of ${options.durationMs} ms; requests/s (wall clock) and client CPU per request (user + system of the client process).`,
  );
  lines.push('');
  lines.push(`| endpoint | conc. | ${KEYS.map((key) => LABEL[key]).join(' | ')} | A/B | A/C | A/D |`);
  lines.push(`|---|--:|${KEYS.map(() => '--:|').join('')}--:|--:|--:|`);
  for (const endpoint of ENDPOINTS) {
    for (const concurrency of CONCURRENCY) {
      const r = (key: Key) => table.rps(endpoint, concurrency, key);
      lines.push(
        `| ${ENDPOINT_LABEL[endpoint]} | ${concurrency} | ${KEYS.map((key) => fmt(r(key))).join(' | ')} | ${fmt(r('A') / r('B'), 2)} | ${fmt(r('A') / r('C'), 2)} | ${fmt(r('A') / r('D'), 2)} |`,
      );
    }
  }
  lines.push('');
  lines.push('Client CPU per request (µs), same cells:');
  lines.push('');
  lines.push(`| endpoint | conc. | ${KEYS.map((key) => LABEL[key]).join(' | ')} |`);
  lines.push(`|---|--:|${KEYS.map(() => '--:|').join('')}`);
  for (const endpoint of ENDPOINTS) {
    for (const concurrency of CONCURRENCY) {
      lines.push(
        `| ${ENDPOINT_LABEL[endpoint]} | ${concurrency} | ${KEYS.map((key) => fmt(table.cpu(endpoint, concurrency, key))).join(' | ')} |`,
      );
    }
  }
  lines.push('');
  const growth = mem.heapAfter - mem.heapBefore;
  lines.push(
    `Memory: \`for await\` over ${fmt(mem.items)} applicant groups (${mem.pages} pages of 25) in ${fmt(mem.ms)} ms: heap ${mb(mem.heapBefore)} before, ${mb(mem.heapAfter)} after (growth ${mb(growth)}), peak ${mb(mem.heapPeak)} during; holding all of them (\`toArray()\`) retains ${mb(mem.heapHoldingAll)}.`,
  );
  lines.push('');
  lines.push(...inMemoryLines(noSockets, options.rounds));
  lines.push(...coldLines(cold, options.coldRuns));
  lines.push(...(await edgeSizeLines()));
  const rps = table.rps;
  const targets: Array<[string, number, number, string]> = [
    ['A/B small list, concurrency 16', rps('small', 16, 'A') / rps('small', 16, 'B'), 0.85, '≥ 0.85'],
    ['A/C small list, concurrency 16', rps('small', 16, 'A') / rps('small', 16, 'C'), 3, '≥ 3'],
    ['A/C small list, concurrency 64', rps('small', 64, 'A') / rps('small', 64, 'C'), 3, '≥ 3'],
    ['A/B 60 KB report, concurrency 16', rps('report', 16, 'A') / rps('report', 16, 'B'), 0.8, '≥ 0.8'],
  ];
  lines.push('| target | measured | goal | |');
  lines.push('|---|--:|--:|---|');
  for (const [name, value, goal, text] of targets) {
    lines.push(`| ${name} | ${fmt(value, 2)} | ${text} | ${value >= goal ? 'met' : 'MISSED'} |`);
  }
  // Client CPU per call: lower is better (the SDK's validation against raw undici request() + JSON.parse).
  const cpuPerCall = table.cpu;
  const cpuTargets: Array<[string, number, number]> = [
    [
      'client CPU per validated list call, A/B, concurrency 1',
      cpuPerCall('small', 1, 'A') / cpuPerCall('small', 1, 'B'),
      1.0,
    ],
    [
      'client CPU per validated list call, A/B, concurrency 16',
      cpuPerCall('small', 16, 'A') / cpuPerCall('small', 16, 'B'),
      1.0,
    ],
    [
      'client CPU per 60 KB report, A/B, concurrency 16',
      cpuPerCall('report', 16, 'A') / cpuPerCall('report', 16, 'B'),
      1.1,
    ],
  ];
  const listInMemory = noSockets.find((cell) => cell.kind === 'list' && cell.concurrency === 16);
  cpuTargets.push([
    'the same without sockets (in-memory dispatcher), concurrency 16',
    listInMemory?.ratio ?? Number.NaN,
    1.0,
  ]);
  for (const [name, value, goal] of cpuTargets) {
    lines.push(`| ${name} | ${fmt(value, 2)} | ≤ ${fmt(goal, 1)} | ${value <= goal ? 'met' : 'MISSED'} |`);
  }
  const heapOk = growth < 20 * 1024 * 1024;
  lines.push(
    `| heap growth over 10,000 listed groups | ${mb(growth)} | < 20 MB | ${heapOk ? 'met' : 'MISSED'} |`,
  );
  const output = lines.join('\n');

  process.stdout.write(`\n${output}\n\n`);
  log(`total ${((performance.now() - wallStart) / 1000).toFixed(1)} s`);

  if (options.docs) {
    const docs = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
    const start = '<!-- bench:results:start -->';
    const end = '<!-- bench:results:end -->';
    let page: string;
    try {
      page = readFileSync(docs, 'utf8');
    } catch {
      page = `# Benchmarks\n\nRun \`npm run bench\`.\n\n## Results\n\n${start}\n${end}\n`;
    }
    const from = page.indexOf(start);
    const to = page.indexOf(end);
    const block = `${start}\n${output}\n${end}`;
    page =
      from !== -1 && to > from
        ? `${page.slice(0, from)}${block}${page.slice(to + end.length)}`
        : `${page}\n${block}\n`;
    writeFileSync(docs, page);
    log('wrote docs/benchmarks.md');
  }
}

await main();
