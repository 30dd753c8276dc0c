/**
 * Where the package's names point for the snippets: the sources (`npm run docs:snippets`, as the
 * repository's tsconfig.json maps them), or a built or installed package (`--package DIR`: each
 * name its `exports` entry's `import` declarations and code, what a user's project resolves).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each package name (`applicant-verification/testing`) to a file. */
export interface PackageTargets {
  /** What the type-checker reads for the name (a `.ts` or `.d.ts` file, or openapi.json). */
  types: Record<string, string>;
  /** What a run loads for the name (a `.ts` or `.js` file). */
  code: Record<string, string>;
}

const SOURCES: Readonly<Record<string, string>> = {
  'applicant-verification': 'src/index.ts',
  'applicant-verification/testing': 'src/testing/index.ts',
  'applicant-verification/testing/msw': 'src/testing/msw.ts',
  'applicant-verification/redis': 'src/redis/index.ts',
  'applicant-verification/schemas': 'src/schemas/index.ts',
  'applicant-verification/households': 'src/households/index.ts',
  'applicant-verification/openapi.json': 'openapi.json',
};

/** The names as the repository's sources (`root`), or as the package in `packageDir`. */
export function packageTargets(root: string, packageDir?: string): PackageTargets {
  if (packageDir === undefined) {
    const files = Object.fromEntries(Object.entries(SOURCES).map(([name, file]) => [name, join(root, file)]));
    return { types: files, code: { ...files } };
  }
  const manifest: unknown = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const { name, exports } = readManifest(manifest);
  const targets: PackageTargets = { types: {}, code: {} };
  for (const [key, entry] of Object.entries(exports)) {
    if (key === './package.json') continue;
    const specifier = key === '.' ? name : `${name}/${key.slice(2)}`;
    if (typeof entry === 'string') {
      targets.types[specifier] = join(packageDir, entry);
      targets.code[specifier] = join(packageDir, entry);
      continue;
    }
    const imported = entry.import;
    if (imported === undefined)
      throw new Error(`doc-snippets: ${key} of ${packageDir} has no "import" entry`);
    targets.types[specifier] = join(packageDir, imported.types);
    targets.code[specifier] = join(packageDir, imported.default);
  }
  return targets;
}

type ExportEntry = string | { import?: { types: string; default: string } };

/** The package's name and `exports`, checked to be the shape this repository's package.json has. */
function readManifest(manifest: unknown): { name: string; exports: Record<string, ExportEntry> } {
  if (typeof manifest !== 'object' || manifest === null)
    throw new Error('doc-snippets: package.json is not an object');
  const { name, exports } = manifest as { name?: unknown; exports?: unknown };
  if (typeof name !== 'string' || typeof exports !== 'object' || exports === null)
    throw new Error('doc-snippets: package.json has no name or no exports object');
  const checked: Record<string, ExportEntry> = {};
  for (const [key, entry] of Object.entries(exports)) {
    if (typeof entry === 'string') checked[key] = entry;
    else if (typeof entry === 'object' && entry !== null) {
      const imported: unknown = (entry as { import?: unknown }).import;
      if (imported === undefined) continue; // a condition-only entry (none today)
      const { types, default: code } = (imported ?? {}) as { types?: unknown; default?: unknown };
      if (typeof types !== 'string' || typeof code !== 'string')
        throw new Error(`doc-snippets: exports["${key}"].import needs "types" and "default"`);
      checked[key] = { import: { types, default: code } };
    }
  }
  return { name, exports: checked };
}
