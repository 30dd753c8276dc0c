/** The load loop and the child-process server, shared by the benchmark entry points. */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'tsup';
import type { ServerReady } from './server.js';

/** The SDK as the benchmarks load it: the package entry plus the pieces timed alone (cold-entry.ts). */
export type Package = typeof import('./cold-entry.js');

/** Where {@link buildBundles} writes. */
export const BUNDLES = {
  sdk: fileURLToPath(new URL('./.cache/sdk.mjs', import.meta.url)),
  coldChild: fileURLToPath(new URL('./.cache/cold-child.mjs', import.meta.url)),
  instructionsChild: fileURLToPath(new URL('./.cache/instructions-child.mjs', import.meta.url)),
};

/**
 * Builds the SDK the way `npm run build` does (tsup, ESM, dependencies external) into
 * bench/.cache, with the cold-start and instruction-count children. Benchmarks load this bundle rather than the sources
 * under tsx, whose transform adds per-function work the published package does not have.
 */
export async function buildBundles(): Promise<typeof BUNDLES> {
  await build({
    entry: {
      sdk: fileURLToPath(new URL('./cold-entry.ts', import.meta.url)),
      'cold-child': fileURLToPath(new URL('./cold-child.ts', import.meta.url)),
      'instructions-child': fileURLToPath(new URL('./instructions-child.ts', import.meta.url)),
    },
    format: ['esm'],
    outDir: fileURLToPath(new URL('./.cache', import.meta.url)),
    target: 'node20',
    platform: 'node',
    silent: true,
    dts: false,
    sourcemap: false,
    clean: false,
    splitting: false,
    config: false,
    outExtension: () => ({ js: '.mjs' }),
  });
  return BUNDLES;
}

/** Loads the bundle built by {@link buildBundles}. */
export async function loadPackage(path = BUNDLES.sdk): Promise<Package> {
  return (await import(pathToFileURL(path).href)) as Package;
}

/** One measurement of one client at one concurrency. */
export interface Sample {
  /** Completed requests per second (wall clock). */
  rps: number;
  /** Client-process CPU (user + system) per request, in microseconds. */
  cpuUs: number;
}

/**
 * Runs `op` from `concurrency` loops for `durationMs` (each loop finishes its request in flight)
 * and counts completions. Every request must succeed: a failure aborts the benchmark.
 */
export async function measure(
  op: () => Promise<unknown>,
  concurrency: number,
  durationMs: number,
): Promise<Sample> {
  let count = 0;
  const started = performance.now();
  const end = started + durationMs;
  const cpuBefore = process.cpuUsage();
  const loop = async () => {
    while (performance.now() < end) {
      await op();
      count++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { rps: (count / elapsed) * 1000, cpuUs: (cpu.user + cpu.system) / count };
}

/** Runs `op` `count` times from `concurrency` loops: a warm-up for the JIT and the sockets. */
export async function repeat(op: () => Promise<unknown>, concurrency: number, count: number): Promise<void> {
  let left = count;
  const loop = async () => {
    while (left-- > 0) await op();
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
}

/**
 * Between measurements: a full GC (with `--expose-gc`), then a pause so that V8's concurrent
 * sweeping of the previous contender's garbage finishes before the next contender is timed
 * (otherwise that work lands in the next contender's CPU time and competes with it for cores).
 */
export async function settle(ms = 100): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** The median of `values` (mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** A running benchmark server in its own process. */
export interface BenchServer extends ServerReady {
  origin: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts bench/server.ts in a child process (under tsx) and waits for its port. */
export async function startServer(): Promise<BenchServer> {
  const script = fileURLToPath(new URL('./server.ts', import.meta.url));
  const child = fork(script, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<ServerReady>((resolve, reject) => {
    child.once('message', (message) => resolve(message as ServerReady));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`The benchmark server exited early (code ${code})`)));
  });
  return {
    ...ready,
    origin: `http://127.0.0.1:${ready.port}`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('stop');
        setTimeout(() => child.kill(), 2_000).unref();
      }),
  };
}
