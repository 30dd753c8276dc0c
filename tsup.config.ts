import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/msw': 'src/testing/msw.ts',
    'testing/bin': 'src/testing/bin.ts',
    'cli/index': 'src/cli/index.ts',
  },
  format: ['esm', 'cjs'],
  // Declarations only for the library's entry points: the bins are not imported.
  dts: {
    entry: {
      index: 'src/index.ts',
      'testing/index': 'src/testing/index.ts',
      'testing/msw': 'src/testing/msw.ts',
    },
  },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  splitting: true,
  treeshake: true,
  // An optional peer: only testing/msw imports it, and it must be the caller's own msw so the
  // handlers work with their setupServer.
  external: ['msw'],
});
