import { defineConfig, type Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * The bundled zod is private to the SDK: nothing outside can call its `z.config()` to pick a
 * locale, so of its 50-odd locales (all imported by `z.locales`) only English is kept: about half
 * the bundled size, and less to parse on import. The edge entry's size check uses it too
 * (test/support/edge-bundle.ts).
 */
export const zodEnglishOnly: EsbuildPlugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.c?js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: 'zod-locales', namespace: 'zod-english-only' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      loader: 'js',
      resolveDir: process.cwd(),
    }));
  },
};

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    // Export conditions workerd, edge-light and worker: no undici, no Node built-in (check:edge).
    edge: 'src/edge.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/msw': 'src/testing/msw.ts',
    'redis/index': 'src/redis/index.ts',
    // The zod schemas, for users who validate what they store: no client in its graph (lint:deps).
    'schemas/index': 'src/schemas/index.ts',
    // Node only: csv-parse, libphonenumber-js and node:crypto, which the main entry never loads.
    'households/index': 'src/households/index.ts',
    'testing/bin': 'src/testing/bin.ts',
    'cli/index': 'src/cli/index.ts',
  },
  format: ['esm', 'cjs'],
  // Declarations only for the library's entry points: the bins are not imported.
  dts: {
    entry: {
      index: 'src/index.ts',
      edge: 'src/edge.ts',
      'testing/index': 'src/testing/index.ts',
      'testing/msw': 'src/testing/msw.ts',
      'redis/index': 'src/redis/index.ts',
      'schemas/index': 'src/schemas/index.ts',
      'households/index': 'src/households/index.ts',
    },
  },
  sourcemap: true,
  // Maps point at our sources (file, line, name) without embedding them, nor zod's and jose's.
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  clean: true,
  target: 'node20',
  // The CommonJS build gets an `import.meta.url` (src/core/undici-modules.ts resolves undici's
  // modules from it).
  shims: true,
  platform: 'node',
  // Shared code goes into chunks, one copy for every entry: the main entry imports only the chunks
  // whose code it reaches, so the testing kit and the CLI stay out of its import graph
  // (.ci/package-checks checks the loaded modules).
  splitting: true,
  treeshake: true,
  // Optional peers: only testing/msw imports msw, and it must be the caller's own so the handlers
  // work with their setupServer; only the redis entry names ioredis (its types: it uses the
  // caller's connection).
  external: ['msw', 'ioredis'],
  // zod and jose are bundled, minified: importing the SDK costs about a third less than loading
  // them from node_modules (docs/benchmarks.md, "Cold start"). Declarations still refer to zod's
  // types, so zod stays a dependency. Whitespace and syntax only: identifiers keep their names
  // (class names in util.inspect and stack traces), without keepNames' cost on import.
  noExternal: ['zod', 'jose'],
  esbuildPlugins: [zodEnglishOnly],
  minifyWhitespace: true,
  minifySyntax: true,
});
