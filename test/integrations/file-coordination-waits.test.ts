/**
 * FileCoordination says when an operation waits long on its folder (docs/fault-model.md, "Process
 * paused"): a process stopped (SIGSTOP, a frozen VM) while it holds the folder's lock holds every
 * other process's creates until the lock is 10 s old and broken. Before, that wait was silent; now
 * an operation that has waited 2 s logs what it waits for (the lock, its holder) and until when.
 * The lock is made by hand, naming a holder on another host (never judged gone); the waits run on
 * fake timers (`setTimeout` only: the lock's age stays real, so it is not broken meanwhile).
 */
import { mkdtempSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileCoordination } from '../../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('FileCoordination waiting on its folder', () => {
  it('says, once, after 2 s, which lock it waits for, who holds it and until when; then goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'av-waits-'));
    dirs.push(dir);
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
    const coordination = new FileCoordination(dir, { logger });
    // Ready (the folder made, its marker and clock written) before the clock is faked.
    await coordination.readCreateOutcome('client', 'household-0');
    const lock = join(dir, 'store.lock');
    symlinkSync(JSON.stringify({ host: 'stopped-host', pid: 4242, startedAt: 0, token: 't' }), lock);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const acquired = coordination.acquireCreateLease('client', 'household-1', 60_000);
    await vi.advanceTimersByTimeAsync(1_900);
    expect(warnings).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^\\[applicant-verification\\] FileCoordination \\(correlation_id "household-1"\\): waiting 2 s so far on the coordination folder ${dir}, for its lock \\(${lock}\\), held by process 4242 on stopped-host \\(stopped or busy\\); it is broken at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z at the latest if not given back; the create it serves waits meanwhile\\.$`,
      ),
    );
    await vi.advanceTimersByTimeAsync(3_000);
    expect(warnings).toHaveLength(1);

    unlinkSync(lock);
    await vi.advanceTimersByTimeAsync(20);
    vi.useRealTimers();
    expect((await acquired)?.correlationId).toBe('household-1');
    expect(warnings).toHaveLength(1);
  });

  it('a lock held by this very process (a round of its own, stopped or slow) is said to be its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'av-waits-'));
    dirs.push(dir);
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
    const coordination = new FileCoordination(dir, { logger });
    await coordination.readCreateOutcome('client', 'household-0');
    const lock = join(dir, 'store.lock');
    symlinkSync(JSON.stringify({ host: hostname(), pid: process.pid, startedAt: 0, token: 't' }), lock);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const acquired = coordination.acquireCreateLease('client', 'household-4', 60_000);
    await vi.advanceTimersByTimeAsync(2_100);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      `for its lock (${lock}), held by this process (its own round under way: it was stopped, or the disk is slow); it is broken at `,
    );
    unlinkSync(lock);
    await vi.advanceTimersByTimeAsync(20);
    vi.useRealTimers();
    expect((await acquired)?.correlationId).toBe('household-4');
  });

  it('an operation that does not wait says nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'av-waits-'));
    dirs.push(dir);
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
    const coordination = new FileCoordination(dir, { logger });
    const lease = await coordination.acquireCreateLease('client', 'household-2', 60_000);
    expect(lease).toBeDefined();
    if (lease) expect(await coordination.recordCreateOutcome(lease, { state: 'unresolved' })).toBe(true);
    expect(warnings).toEqual([]);
  });
});
