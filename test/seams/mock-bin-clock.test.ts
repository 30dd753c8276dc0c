/**
 * The real bin, in a process of its own, on real time: its clock ticks (two readings apart in
 * time differ, the later greater), and `--frozen` holds it still. Only "later is greater": no
 * timing thresholds.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { startMockBinProcess, stopMockBinProcess } from './mock-bin.js';

let bin: string;
beforeAll(async () => {
  bin = await bundleForNode('src/testing/bin.ts', 'mock-bin-clock');
});
afterAll(() => {
  if (bin) removeBundle(bin);
});

const startBin = (args: string[]) => startMockBinProcess(bin, args);
const stop = stopMockBinProcess;

async function reading(url: string): Promise<number> {
  const answer = (await (await fetch(`${url}/__mock/clock`)).json()) as { now: number };
  return answer.now;
}

describe('the mock bin on real time', () => {
  it('its clock ticks: a reading tens of milliseconds later is greater', async () => {
    const { url, child } = await startBin([]);
    try {
      const first = await reading(url);
      await sleep(50);
      expect(await reading(url)).toBeGreaterThan(first);
    } finally {
      await stop(child);
    }
  });

  it('--frozen: the same reading tens of milliseconds later', async () => {
    const { url, child } = await startBin(['--frozen', '--now', '2026-03-01T09:00:00Z']);
    try {
      const first = await reading(url);
      await sleep(50);
      expect(await reading(url)).toBe(first);
      expect(first).toBe(Date.UTC(2026, 2, 1, 9));
    } finally {
      await stop(child);
    }
  });
});
