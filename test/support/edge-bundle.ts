/**
 * The edge entry (src/edge.ts) bundled as a Worker's build would bundle it: esbuild, ES module,
 * the `workerd` / `worker` / `browser` export conditions, minified, zod's English locale only (as
 * tsup ships it). Node built-ins and undici are left as imports rather than failing the build, so
 * the check can name every one that sneaks in. Used by test/edge/bundle.test.ts (the check and
 * the size budget) and by `npm run bench` (which prints the size).
 */
import { builtinModules } from 'node:module';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { zodEnglishOnly } from '../../tsup.config.js';

/**
 * The budget of the edge entry, minified and gzipped, in bytes (docs/runtimes.md).
 * About 83 KiB in 0.1.0, two thirds of it zod.
 */
export const EDGE_GZIP_BUDGET_BYTES = 90 * 1024;

/** What the bundle holds. */
export interface EdgeBundle {
  /** Minified size in bytes. */
  minifiedBytes: number;
  /** Minified and gzipped size in bytes. */
  gzipBytes: number;
  /** Every import left in the bundle: each a Node built-in or undici, so the check wants none. */
  imports: string[];
  /** Input files from node_modules, by package name. */
  packages: string[];
}

const NODE_ONLY = [...builtinModules, ...builtinModules.map((name) => `node:${name}`), 'undici'];

/** Bundles src/edge.ts for a worker and measures it. */
export async function bundleEdge(): Promise<EdgeBundle> {
  const result = await build({
    entryPoints: [new URL('../../src/edge.ts', import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    minify: true,
    metafile: true,
    logLevel: 'silent',
    external: NODE_ONLY,
    plugins: [zodEnglishOnly],
  });
  const output = result.outputFiles[0];
  const meta = Object.values(result.metafile.outputs)[0];
  if (!output || !meta) throw new Error('esbuild wrote no bundle for src/edge.ts');
  const packages = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const found = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (found?.[1]) packages.add(found[1]);
  }
  return {
    minifiedBytes: output.contents.byteLength,
    gzipBytes: gzipSync(output.contents, { level: 9 }).byteLength,
    imports: [...new Set(meta.imports.map((entry) => entry.path))].sort(),
    packages: [...packages].sort(),
  };
}
