/**
 * The edge check: src/edge.ts bundled for a worker with esbuild imports no Node built-in and no
 * undici, and stays under its size budget (docs/runtimes.md).
 */
import { describe, expect, it } from 'vitest';
import { bundleEdge, EDGE_GZIP_BUDGET_BYTES } from '../support/edge-bundle.js';

describe('the edge entry bundled for a worker', () => {
  it('imports no Node built-in and no undici, and is under its size budget', async () => {
    const bundle = await bundleEdge();
    // Anything left as an import is a Node built-in or undici (esbuild inlines everything else).
    expect(bundle.imports).toEqual([]);
    expect(bundle.packages).toEqual(['jose', 'zod']);
    expect(bundle.gzipBytes).toBeLessThanOrEqual(EDGE_GZIP_BUDGET_BYTES);
  });
});
