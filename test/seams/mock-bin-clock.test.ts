/**
 * The real bin, in a process of its own, on real time: its clock ticks (two readings apart in
 * time differ, the later greater), and `--frozen` holds it still. Only "later is greater": no
 * timing thresholds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForNode, removeBundle } from '../support/bundle.js';

let bin: string;
beforeAll(async () => {
  bin = await bundleForNode('src/testing/bin.ts', 'mock-bin-clock');
});
afterAll(() => {
  if (bin) removeBundle(bin);
});

/** Starts the bin and resolves with its URL once it printed its export lines. */
async function startBin(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bin, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('VERIFICATION_SECRET_KEY=')) resolve();
    });
    child.once('exit', () => reject(new Error(`the bin exited early: ${output}`)));
  });
  return { url: /export VERIFICATION_BASE_URL=(\S+)/.exec(output)?.[1] ?? '', child };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

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
