/** The package as `npm run build` ships it, built for the cold-start benchmark. */
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

/** The main entry of {@link buildPackage}'s output. */
export const PACKAGE_ENTRY = fileURLToPath(new URL('./.cache/package/index.js', import.meta.url));

/**
 * Builds the package with the project's own tsup.config.ts (bundled zod and jose, minified,
 * split chunks), ESM only and without declarations, into bench/.cache/package.
 */
export async function buildPackage(): Promise<string> {
  await build({
    outDir: fileURLToPath(new URL('./.cache/package', import.meta.url)),
    format: ['esm'],
    dts: false,
    sourcemap: false,
    silent: true,
  });
  return PACKAGE_ENTRY;
}
