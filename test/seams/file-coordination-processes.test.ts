/**
 * Several processes on one machine share one FileCoordination folder at the same time: four real
 * processes (file-coordination-worker.ts, bundled) each count every one of eight keys up twenty
 * times under the key's create lease. A lease held by two processes at once, or a record lost
 * between them, would lose an increment: every count must end at 4 × 20. The folder holds its
 * marker, shard files and clock (Linux: one for this boot) only, no lock left behind.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCoordination } from '../../src/index.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { expose } from '../support/exposure.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PROCESSES = 4;
const KEYS = 8;
const ROUNDS = 20;

let worker: string;
let dir: string;
beforeAll(async () => {
  worker = await bundleForNode(
    fileURLToPath(new URL('./file-coordination-worker.ts', import.meta.url)),
    'file-coordination-worker',
  );
  dir = mkdtempSync(join(tmpdir(), 'av-file-processes-'));
});
afterAll(() => {
  if (worker) removeBundle(worker);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function run(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [worker], {
      cwd: root,
      env: { ...process.env, COORDINATION_DIR: dir, KEYS: String(KEYS), ROUNDS: String(ROUNDS) },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code) => {
      expose(stdout);
      expose(stderr);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('FileCoordination shared by processes on one machine', () => {
  it(`${PROCESSES} processes count ${KEYS} keys up ${ROUNDS} times each: no increment lost`, async () => {
    const results = await Promise.all(Array.from({ length: PROCESSES }, () => run()));
    for (const result of results) {
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout.trim())).toMatchObject({ done: true });
    }
    const reader = new FileCoordination(dir);
    for (let key = 0; key < KEYS; key++) {
      expect(await reader.readCreateOutcome('client', `key-${key}`), `key-${key}`).toMatchObject({
        state: 'created',
        id: String(PROCESSES * ROUNDS),
      });
    }
    const names = readdirSync(dir);
    expect(names).toContain('format.json');
    expect(
      names
        .filter((name) => name !== 'format.json')
        .every((name) => /^shard-[0-9a-f]{2}\.log$/.test(name) || /^clock-[0-9a-f]{16}\.json$/.test(name)),
    ).toBe(true);
  }, 120_000);
});
