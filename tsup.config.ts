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

/**
 * The Redis and households entries are built apart from the rest, each in one file, with their
 * imports of the error classes' modules loading `dist/shared.js` (src/shared.ts) instead: one
 * class per error in a process, whichever entries it loads.
 */
export const throughSharedEntry: EsbuildPlugin = {
  name: 'through-shared-entry',
  setup(build) {
    // The CommonJS build's files end in .cjs (tsup's outExtension), the ES module build's in .js.
    const shared = `../shared${build.initialOptions.outExtension?.['.js'] ?? '.js'}`;
    build.onResolve({ filter: /^\.\.\/core\/(errors|options)\.js$/ }, () => ({
      path: shared,
      external: true,
    }));
  },
};

/** What both builds share. */
const common = {
  format: ['esm', 'cjs'],
  sourcemap: true,
  // Maps point at our sources (file, line, name) without embedding them, nor zod's and jose's.
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  target: 'node20',
  // The CommonJS build gets an `import.meta.url` (src/core/transport/undici-modules.ts resolves undici's
  // modules from it).
  shims: true,
  platform: 'node',
  treeshake: true,
  // Optional peers: only testing/msw imports msw, and it must be the caller's own so the handlers
  // work with their setupServer; only the redis entry names ioredis (its types: it uses the
  // caller's connection).
  external: ['msw', 'ioredis'],
  // zod and jose are bundled: importing the SDK costs about a third less than loading them from
  // node_modules (docs/benchmarks.md, "Cold start"). Declarations still refer to zod's types, so
  // zod stays a dependency. Syntax only is minified: the code keeps its lines, so a user's stack
  // trace names a line and a short column without a source map (whitespace minification put the
  // SDK on a few lines tens of thousands of columns long, for about 2% of cold-start CPU:
  // docs/benchmarks.md, "Readable traces"), and identifiers keep their names (class names in
  // util.inspect and stack traces), without keepNames' cost on import.
  noExternal: ['zod', 'jose'],
  minifySyntax: true,
  // `npm run build` empties dist first: two builds run at once and neither may clean the other's files.
  clean: false,
} satisfies Options;

export default defineConfig([
  {
    ...common,
    entry: {
      index: 'src/index.ts',
      // Export conditions workerd, edge-light and worker: no undici, no Node built-in (check:edge).
      edge: 'src/edge.ts',
      'testing/index': 'src/testing/index.ts',
      'testing/msw': 'src/testing/msw.ts',
      'testing/bin': 'src/testing/bin.ts',
      'cli/index': 'src/cli/index.ts',
      // What the Redis and households entries load at run time (src/shared.ts); exported by no path.
      shared: 'src/shared.ts',
    },
    // Declarations only for the library's entry points, of both builds: the bins are not imported.
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
    // Shared code goes into chunks, one copy for every entry: the main entry imports only the
    // chunks whose code it reaches, so the testing kit and the CLI stay out of its import graph
    // (.ci/package-checks checks the loaded modules). Every entry here reaches all of the main
    // entry's code, so that code falls into few chunks: each file an import loads costs about a
    // millisecond of CPU (docs/benchmarks.md, "Cold start, round 7").
    splitting: true,
    esbuildPlugins: [zodEnglishOnly],
  },
  {
    ...common,
    entry: {
      'redis/index': 'src/redis/index.ts',
      // The zod schemas, for users who validate what they store: no client in its graph
      // (lint:deps), its own zod and schemas.
      'schemas/index': 'src/schemas/index.ts',
      // Node only: csv-parse, libphonenumber-js and node:crypto, which the main entry never loads.
      'households/index': 'src/households/index.ts',
    },
    dts: false,
    // One file each: entries that reached parts of the main entry's code split it into chunks of
    // their own, which the main entry then loaded one by one.
    splitting: false,
    esbuildPlugins: [zodEnglishOnly, throughSharedEntry],
  },
]);
