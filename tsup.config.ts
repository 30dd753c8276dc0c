import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/bin': 'src/testing/bin.ts',
    'cli/index': 'src/cli/index.ts',
  },
  format: ['esm', 'cjs'],
  // Declarations only for the library's entry points: the bins are not imported.
  dts: { entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  splitting: true,
  treeshake: true,
  // An optional peer: the testing kit uses the caller's msw, so handlers work with their setupServer.
  external: ['msw'],
});
