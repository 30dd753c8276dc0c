/**
 * Bundles a TypeScript entry into one plain ES module for tests that start real child processes:
 * `node <bundle>` starts in a fraction of the time `node --import tsx <entry>` takes, which
 * compiles the sources on every start. The repository's sources are inlined; packages stay
 * imports, resolved from node_modules because the bundle is written under the repository's
 * `.tmp/` (gitignored). A test file bundles once (beforeAll) and removes the bundle (afterAll).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Bundles `entry` (absolute, or relative to the repository) as tsup bundles the package's bins
 * and returns the bundle's path: `<repo>/.tmp/bundle-<name>-<pid>-<random>/<name>.js`, a folder
 * of its own per call, so files running in one process or in parallel never share one.
 */
export async function bundleForNode(entry: string, name: string): Promise<string> {
  // Imported when first needed: loading tsup takes a good part of a second, and most files that
  // import this module's users never bundle.
  const { build } = await import('tsup');
  const parent = join(REPO, '.tmp');
  mkdirSync(parent, { recursive: true });
  const outDir = mkdtempSync(join(parent, `bundle-${name}-${process.pid}-`));
  try {
    await build({
      entry: { [name]: resolve(REPO, entry) },
      format: ['esm'],
      outDir,
      platform: 'node',
      target: 'node20',
      config: false,
      dts: false,
      sourcemap: false,
      splitting: false,
      silent: true,
      skipNodeModulesBundle: true,
    });
  } catch (error) {
    // A failed build leaves no empty folder behind.
    rmSync(outDir, { recursive: true, force: true });
    throw error;
  }
  return join(outDir, `${name}.js`);
}

/** Removes a bundle made by {@link bundleForNode}, with its folder. */
export function removeBundle(bundle: string): void {
  rmSync(dirname(bundle), { recursive: true, force: true });
}
