/**
 * The shared token store across real processes: three separate Node processes with one
 * FileTokenStore make their calls against the mock, and the mock sees exactly one token exchange;
 * a stored token within 60 s of expiry is not used, and is replaced. The worker (which imports the
 * SDK from src) is bundled once, so each process is a plain `node` start.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/testing/index.js';
import { bundleForNode, removeBundle } from '../support/bundle.js';
import { expose } from '../support/exposure.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const AUTH = 'POST /api/v1/tenants/auth';
const LIST = 'GET /api/v1/applicant_groups';

interface WorkerResult {
  groups: number;
  tokenHash: string;
}

function runWorker(worker: string, mock: MockServer, tokenFile: string): Promise<WorkerResult> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VERIFICATION_BASE_URL: mock.url,
    VERIFICATION_CLIENT_ID: mock.clientId,
    VERIFICATION_SECRET_KEY: mock.secretKey,
    TOKEN_FILE: tokenFile,
  };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [worker], { cwd: root, env, timeout: 30_000 }, (error, stdout, stderr) => {
      expose(stdout);
      expose(stderr);
      if (error) reject(new Error(`worker failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim()) as WorkerResult);
    });
  });
}

describe('FileTokenStore shared by processes', () => {
  let worker: string;
  let mock: MockServer;
  let dir: string;
  let tokenFile: string;

  beforeAll(async () => {
    // A `new URL(…, import.meta.url)`, so knip sees the worker file is used.
    worker = await bundleForNode(
      fileURLToPath(new URL('./token-worker.ts', import.meta.url)),
      'token-worker',
    );
  });

  afterAll(() => {
    if (worker) removeBundle(worker);
  });

  beforeEach(async () => {
    mock = await createMockServer({ seed: 5 });
    dir = mkdtempSync(join(tmpdir(), 'shared-token-'));
    tokenFile = join(dir, 'token.json');
  });

  afterEach(async () => {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives three processes one token exchange between them', async () => {
    const first = await runWorker(worker, mock, tokenFile);
    // The next two start together, both after the first saved its token.
    const [second, third] = await Promise.all([
      runWorker(worker, mock, tokenFile),
      runWorker(worker, mock, tokenFile),
    ]);

    expect(mock.stats.count(AUTH)).toBe(1);
    expect(mock.stats.count(LIST)).toBe(3);
    expect(
      mock.stats
        .log()
        .filter((entry) => entry.route === LIST)
        .every((entry) => entry.authorized),
    ).toBe(true);
    expect(new Set([first.tokenHash, second?.tokenHash, third?.tokenHash]).size).toBe(1);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(tokenFile, 'utf8')) as {
      tokens: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(file.tokens)).toEqual([mock.clientId]);
    const stored = file.tokens[mock.clientId] ?? {};
    expect(Object.keys(stored).sort()).toEqual(['clientId', 'expiresAt', 'token']);
    expect(stored.clientId).toBe(mock.clientId);
  });

  it('ignores a stored token within 60 s of expiry and replaces it', async () => {
    const first = await runWorker(worker, mock, tokenFile);
    // The earlier one-token shape still reads as that client id's token.
    const stored = storedIn(tokenFile, mock.clientId);
    writeFileSync(tokenFile, JSON.stringify({ ...stored, expiresAt: Date.now() + 59_000 }), { mode: 0o600 });

    const second = await runWorker(worker, mock, tokenFile);
    expect(mock.stats.count(AUTH)).toBe(2);
    expect(second.tokenHash).not.toBe(first.tokenHash);
    const replaced = storedIn(tokenFile, mock.clientId);
    expect(replaced.token).not.toBe(stored.token);
    expect(replaced.expiresAt).toBeGreaterThan(Date.now() + 25 * 60_000);
  });
});

/** The token the file keeps for `clientId`. */
function storedIn(
  tokenFile: string,
  clientId: string,
): { token: string; expiresAt: number; clientId: string } {
  const file = JSON.parse(readFileSync(tokenFile, 'utf8')) as {
    tokens: Record<string, { token: string; expiresAt: number; clientId: string }>;
  };
  const stored = file.tokens[clientId];
  if (!stored) throw new Error(`no token stored for ${clientId}`);
  return stored;
}
