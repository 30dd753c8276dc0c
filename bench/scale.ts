/**
 * `npm run bench:scale`: does a batch of 100,000 households cost per household what one of 1,000
 * costs? For each size, against a fresh mock server in its own process (docs/benchmarks.md,
 * "Scale"): the CLI (`groups create --csv`, state directory on disk), `createMany(bodies,
 * { once: true })` and plain `createMany` (no correlation gate), each in its own process, all at
 * one concurrency. Prints wall time, client CPU per household, peak RSS, the state directory's
 * size, the mock's CPU per household, the ratio per household to the smallest size, and the
 * rate beside plain `createMany`'s; writes the table into docs/benchmarks.md between the
 * `bench:scale` markers.
 *
 *   node --import tsx bench/scale.ts [--sizes 1000,10000] [--full] [--concurrency 16]
 *     [--dry-sizes 1000,10000,100000] [--no-docs] [--max-ratio 1.5] [--paths cli,plain]
 *
 * `--full` adds 100,000 households (about ten minutes more). The CLI's dry run (`--dry-run`: the
 * file checked, the plan printed, nothing sent) is measured at `--dry-sizes` (default: the sizes
 * and 100,000: it sends nothing, so it is quick), for its peak RSS beside the real run's. `--max-ratio R` exits 1 when a
 * path's CPU per household at the largest size is more than R times its CPU per household at the
 * smallest (what `.ci/run` checks with 1,000 and 10,000). `--paths` measures only the paths named
 * (of `cli`, `dry`, `once`, `plain`). `BENCH_PROF=<dir>` runs the CLI's process with `--cpu-prof`
 * writing its profile into that folder; `BENCH_NODE_ARGS="--trace-gc"` gives it other Node flags
 * (space-separated), e.g. to see its live heap after each full GC.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunReport } from './scale-child.js';

const CHILD = fileURLToPath(new URL('./scale-child.ts', import.meta.url));
const DOCS = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

interface Options {
  sizes: number[];
  drySizes: number[];
  concurrency: number;
  docs: boolean;
  maxRatio: number | undefined;
  paths: string[] | undefined;
}

function parseOptions(argv: string[]): Options {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    return at === -1 ? undefined : argv[at + 1];
  };
  const sizes = (value('--sizes') ?? '1000,10000').split(',').map(Number);
  if (argv.includes('--full') && !sizes.includes(100_000)) sizes.push(100_000);
  const ratio = value('--max-ratio');
  const drySizes = value('--dry-sizes')?.split(',').map(Number) ?? [...new Set([...sizes, 100_000])];
  return {
    sizes,
    drySizes: drySizes.sort((a, b) => a - b),
    concurrency: Number(value('--concurrency') ?? 16),
    docs: !argv.includes('--no-docs'),
    maxRatio: ratio === undefined ? undefined : Number(ratio),
    paths: value('--paths')?.split(','),
  };
}

type Path = 'cli' | 'dry' | 'once' | 'plain';
const PATHS: readonly Path[] = ['cli', 'dry', 'once', 'plain'];
const LABEL: Record<Path, string> = {
  cli: 'CLI `groups create --csv`',
  dry: 'CLI `--dry-run` (nothing sent)',
  once: '`createMany({ once: true })`',
  plain: 'plain `createMany`',
};

interface Result extends RunReport {
  path: Path;
  size: number;
  mockCpuUs: number;
  diskBytes: number;
  diskFiles: number;
}

function child(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return fork(CHILD, args, {
    execArgv: [
      '--import',
      'tsx',
      ...(args[0] === 'cli' && process.env.BENCH_PROF
        ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROF]
        : []),
      // Node flags for the CLI's process only (`--trace-gc`, `--heapsnapshot-near-heap-limit=1`...).
      ...(args[0] === 'cli' && process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []),
    ],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function nextMessage<T>(process: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the child exited (${code}) before answering`));
    process.once('exit', onExit);
    process.once('message', (message) => {
      process.off('exit', onExit);
      resolve(message as T);
    });
  });
}

/** Bytes and files under `dir` (0 when it does not exist). */
function diskUse(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const walk = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        files++;
        bytes += statSync(full).size;
      }
    }
  };
  try {
    walk(dir);
  } catch {
    return { bytes: 0, files: 0 };
  }
  return { bytes, files };
}

function householdsCsv(count: number): string {
  const lines = [
    'household_key,first_name,last_name,email,property_name,street_address,city,state,zip_code,unit,monthly_rent',
  ];
  for (let i = 0; i < count; i++) {
    lines.push(
      `H-${i},Tenant,No${i},tenant${i}@example.com,Cedar Park,9 Cedar Ln,Seattle,WA,98101,${i},${1400 + (i % 50)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function measure(path: Path, size: number, concurrency: number): Promise<Result> {
  const server = child(['server']);
  const { url, clientId, secretKey } = await nextMessage<{
    url: string;
    clientId: string;
    secretKey: string;
  }>(server);
  const work = mkdtempSync(join(tmpdir(), 'av-scale-'));
  const stateDir = join(work, 'state');
  try {
    server.send({ kind: 'cpu' });
    const before = await nextMessage<{ cpuUs: number }>(server);
    let args: string[];
    if (path === 'cli' || path === 'dry') {
      const csv = join(work, 'households.csv');
      writeFileSync(csv, householdsCsv(size));
      args = [
        'cli',
        'groups',
        'create',
        '--csv',
        csv,
        '--state-dir',
        stateDir,
        '--concurrency',
        String(concurrency),
        '--no-invitations',
        '--decision-maker',
        'Cedar Park Rentals',
        '--allow-insecure-http',
        '--quiet',
        ...(path === 'dry' ? ['--dry-run'] : []),
      ];
    } else args = [path, String(size), String(concurrency)];
    const run = child(args, {
      VERIFICATION_BASE_URL: url,
      VERIFICATION_CLIENT_ID: clientId,
      VERIFICATION_SECRET_KEY: secretKey,
      BENCH_URL: url,
      BENCH_CLIENT_ID: clientId,
      BENCH_SECRET_KEY: secretKey,
    });
    const report = await nextMessage<RunReport>(run);
    server.send({ kind: 'cpu' });
    const after = await nextMessage<{ cpuUs: number }>(server);
    const disk = diskUse(stateDir);
    return {
      ...report,
      path,
      size,
      mockCpuUs: after.cpuUs - before.cpuUs,
      diskBytes: disk.bytes,
      diskFiles: disk.files,
    };
  } finally {
    server.send({ kind: 'stop' });
    rmSync(work, { recursive: true, force: true });
  }
}

const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(results: Result[], sizes: number[]): string[] {
  const lines = [
    '| path | households | wall | per household | client CPU per household | peak RSS | state on disk | mock CPU per household | CPU per household vs smallest | wall per household vs smallest | rate vs plain `createMany` |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const path of PATHS) {
    for (const size of sizes) {
      const result = results.find((r) => r.path === path && r.size === size);
      if (!result) continue;
      const base = results.find(
        (r) =>
          r.path === path &&
          r.size === sizes.find((s) => results.some((o) => o.path === path && o.size === s)),
      );
      const plain = results.find((r) => r.path === 'plain' && r.size === size);
      const ratio = base ? result.cpuUs / result.size / (base.cpuUs / base.size) : 1;
      const wallRatio = base ? result.wallMs / result.size / (base.wallMs / base.size) : 1;
      const rate = path === 'dry' ? '' : fmt(plain ? plain.wallMs / result.wallMs : 1, 2);
      const disk =
        path === 'cli' || path === 'dry'
          ? `${fmt(result.diskBytes / 1e6, 2)} MB, ${fmt(result.diskFiles)} files`
          : 'none';
      lines.push(
        `| ${LABEL[path]} | ${fmt(size)} | ${fmt(result.wallMs / 1000, 1)} s | ${fmt((result.wallMs * 1000) / size)} µs | ${fmt(result.cpuUs / size)} µs | ${fmt(result.maxRssKb / 1024)} MB | ${disk} | ${fmt(result.mockCpuUs / size)} µs | ${fmt(ratio, 2)} | ${fmt(wallRatio, 2)} | ${rate} |${result.failed > 0 ? ` (${result.failed} failed)` : ''}`,
      );
    }
  }
  return lines;
}

function writeDocs(lines: string[]): void {
  const text = readFileSync(DOCS, 'utf8');
  const start = '<!-- bench:scale -->';
  const end = '<!-- /bench:scale -->';
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to === -1) throw new Error(`docs/benchmarks.md lacks the ${start} and ${end} markers`);
  const stamp = `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, concurrency as printed by \`npm run bench:scale\`:`;
  writeFileSync(
    DOCS,
    `${text.slice(0, from + start.length)}\n${stamp}\n\n${lines.join('\n')}\n${text.slice(to)}`,
  );
}

const options = parseOptions(process.argv.slice(2));
const results: Result[] = [];
const allSizes = [...new Set([...options.sizes, ...options.drySizes])].sort((a, b) => a - b);
for (const size of allSizes) {
  for (const path of PATHS) {
    if (path === 'dry' ? !options.drySizes.includes(size) : !options.sizes.includes(size)) continue;
    if (options.paths && !options.paths.includes(path)) continue;
    const result = await measure(path, size, options.concurrency);
    results.push(result);
    console.log(
      `${path} ${fmt(size)}: ${fmt(result.wallMs / 1000, 1)} s, ${fmt(result.cpuUs / size)} µs CPU per household, ${fmt(result.maxRssKb / 1024)} MB peak RSS, ${fmt(result.diskFiles)} files ${fmt(result.diskBytes / 1e6, 2)} MB, mock ${fmt(result.mockCpuUs / size)} µs per household${result.failed > 0 ? `, ${result.failed} FAILED` : ''}`,
    );
  }
}
const lines = table(results, allSizes);
console.log(`\nconcurrency ${options.concurrency}\n${lines.join('\n')}`);
if (options.docs) writeDocs(lines);

let failed = results.some((result) => result.failed > 0);
if (options.maxRatio !== undefined) {
  const smallest = options.sizes[0] ?? 0;
  const largest = options.sizes[options.sizes.length - 1] ?? 0;
  for (const path of ['cli', 'once'] as const) {
    const small = results.find((r) => r.path === path && r.size === smallest);
    const large = results.find((r) => r.path === path && r.size === largest);
    if (!small || !large) continue;
    const ratio = large.cpuUs / large.size / (small.cpuUs / small.size);
    const verdict = ratio > options.maxRatio ? 'FAIL' : 'ok';
    console.log(
      `${verdict}: ${LABEL[path]} CPU per household ${fmt(largest)} : ${fmt(smallest)} = ${fmt(ratio, 2)} (at most ${options.maxRatio})`,
    );
    if (ratio > options.maxRatio) failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
