/**
 * Chaos: a process frozen after recording `unresolved`, longer than the server keeps an idle
 * connection (5 s, Node's default), within its lease: stopped with SIGSTOP (the chaos worker), or
 * its event loop blocked (`Atomics.wait`) against the mock bin, a process of its own. Nothing in
 * the process runs meanwhile, so the server's FIN is not read before the code goes on. Once it
 * runs again, the create must leave on a live connection and create the household, not fail in a
 * few milliseconds on the closed socket with its fate unknown (which refused the household for 10
 * minutes). The create takes one turn of the event loop before it leaves
 * (src/core/call/loop-turn.ts) as the guard; on Node 20 with undici 7 both runs also pass with
 * that turn removed (the lease check's own awaits let the pool see the close), so these are
 * regression tests of the behaviour, not proof of the turn. docs/fault-model.md, "Dead
 * keep-alive socket".
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Coordination, InProcessCoordination, VerificationClient } from '../../src/index.js';
import { createMockServer } from '../../src/testing/index.js';
import { startRedisServer } from '../fleet/redis-server.js';
import { startMockBinProcess, stopMockBinProcess } from '../seams/mock-bin.js';
import { groupCreateBody } from '../support/bodies.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { around } from '../support/coordination.js';
import { leaseMsOf, seedOf, sleep, startWorker, stoppedWorker, summarize } from './harness.js';

/** Longer than the bin's keep-alive timeout (Node's default, 5 s). */
const FREEZE_MS = 5_600;

let bin: string;
let bundle: string;

beforeAll(async () => {
  bin = await bundleForNode('src/testing/bin.ts', 'mock-bin-dead-socket');
  bundle = await bundleForNode(fileURLToPath(new URL('./chaos-worker.ts', import.meta.url)), 'chaos-worker');
});

afterAll(() => {
  if (bin) removeBundle(bin);
  if (bundle) removeBundle(bundle);
});

describe('a holder stopped (SIGSTOP) after recording unresolved, past the keep-alive timeout but within its lease', () => {
  it('sends its create on a live connection once resumed: every household created, none refused', async () => {
    const seed = seedOf();
    const mock = await createMockServer({ seed });
    const redis = await startRedisServer();
    try {
      const prefix = 'sock-stop';
      const households = Array.from({ length: 4 }, (_, index) => `${prefix}-${index}`);
      const timing = { timeoutMs: 5_000, deadlineMs: 15_000, graceMs: 500 };
      const worker = startWorker(bundle, mock, {
        redisPort: redis.ports[0] ?? 0,
        households,
        waves: 1,
        concurrency: 1,
        startAt: Date.now() + 300,
        ...timing,
        pause: { household: `${prefix}-2`, point: 'after-unresolved', claim: `chaos:sock:${seed}` },
      });
      const stopped = await stoppedWorker([worker], 20_000);
      expect(stopped).toBeDefined();
      await sleep(FREEZE_MS);
      worker.child.kill('SIGCONT');
      const report = await worker.report;
      const summary = summarize(
        'dead keep-alive socket after SIGSTOP',
        seed,
        mock,
        prefix,
        households,
        [report],
        leaseMsOf(timing),
      );
      expect(report.results.map((result) => result.error)).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      expect(summary.missing).toEqual([]);
      expect(summary.duplicates).toEqual([]);
    } finally {
      await mock.close();
      await redis.close();
    }
  });
});

describe('a create after its process was frozen past the keep-alive timeout', () => {
  it('leaves on a live connection and creates the household', async () => {
    const mock = await startMockBinProcess(bin, ['--seed', '7']);
    const base = new InProcessCoordination();
    let freezeNext = false;
    const coordination: Coordination = around(base, {
      recordCreateOutcome: async (lease, outcome) => {
        const recorded = await base.recordCreateOutcome(lease, outcome);
        if (outcome.state === 'unresolved' && freezeNext) {
          freezeNext = false;
          // Blocks this thread: no timer, no socket event runs meanwhile.
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, FREEZE_MS);
        }
        return recorded;
      },
    });
    const output = mock.output();
    const client = new VerificationClient({
      baseURL: mock.url,
      clientId: /VERIFICATION_CLIENT_ID=(\S+)/.exec(output)?.[1] ?? '',
      secretKey: /VERIFICATION_SECRET_KEY=(\S+)/.exec(output)?.[1] ?? '',
      coordination,
      logLevel: 'off',
    });
    try {
      // A first household: the connection it used stays in the pool, idle.
      expect(
        (await client.applicantGroups.createOnce(groupCreateBody('ana@example.com', 'SOCK-1'))).created,
      ).toBe(true);
      freezeNext = true;
      const second = await client.applicantGroups.createOnce(groupCreateBody('bia@example.com', 'SOCK-2'));
      expect(second.created).toBe(true);
      expect((await client.applicantGroups.findByCorrelationId('SOCK-2'))?.id).toBe(second.group.id);
    } finally {
      await client.close();
      await stopMockBinProcess(mock.child);
    }
  });
});
