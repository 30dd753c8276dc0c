/**
 * Runs the `run` snippets, each in a process of its own (`node --import tsx`) with the scratch
 * project's tsconfig.json mapping the package's names (targets.ts), against a fresh mock server:
 * `VERIFICATION_BASE_URL`, `VERIFICATION_CLIENT_ID` and `VERIFICATION_SECRET_KEY` name it, as a
 * user's environment names the API. `VERIFICATION_STATE_DIR` is a folder of the scratch project,
 * and `households.csv` there is `examples/households.csv`. A snippet must exit 0 by itself: one
 * that leaves a socket or a timer open (a client never closed) is stopped and fails.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMockServer } from '../../src/testing/index.js';
import type { SnippetFile } from './check.js';
import type { PackageTargets } from './targets.js';

/** How long a snippet may take before it is stopped as one that never exits. */
const EXIT_WITHIN_MS = 60_000;

/** What one snippet's run came to. */
export interface RunResult {
  file: SnippetFile;
  ok: boolean;
  /** Why it failed (exit code, signal, not exiting). */
  failure?: string;
  /** Its stdout and stderr, interleaved. */
  output: string;
  ms: number;
}

/** The scratch project's tsconfig.json: the package's names to `code`, for tsx. */
function writeRuntimeConfig(dir: string, code: Readonly<Record<string, string>>): void {
  const paths = Object.fromEntries(Object.entries(code).map(([name, file]) => [name, [file]]));
  const config = {
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', paths },
  };
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(config, null, 2)}\n`);
}

async function runOne(dir: string, file: SnippetFile): Promise<RunResult> {
  const mock = await createMockServer();
  const started = performance.now();
  const stateDir = join(dir, `state-${file.snippet.line}`);
  mkdirSync(stateDir, { recursive: true });
  try {
    // tsx from the repository: a consumer project (--scratch) need not install it.
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), file.path], {
      cwd: dir,
      env: {
        ...process.env,
        VERIFICATION_BASE_URL: mock.url,
        VERIFICATION_CLIENT_ID: mock.clientId,
        VERIFICATION_SECRET_KEY: mock.secretKey,
        VERIFICATION_STATE_DIR: stateDir,
        TSX_TSCONFIG_PATH: join(dir, 'tsconfig.json'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_WITHIN_MS);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(timer);
    const ms = Math.round(performance.now() - started);
    if (code === 0) return { file, ok: true, output, ms };
    const failure =
      signal === 'SIGKILL'
        ? `did not exit within ${EXIT_WITHIN_MS / 1000} s (a client, server or timer left open?)`
        : `exited with ${code ?? signal}`;
    return { file, ok: false, failure, output, ms };
  } finally {
    await mock.close();
  }
}

/** Runs `files`, two at a time, in the scratch project `dir`, the package's names loading `targets.code`. */
export async function runSnippets(
  root: string,
  dir: string,
  targets: PackageTargets,
  files: readonly SnippetFile[],
): Promise<RunResult[]> {
  writeRuntimeConfig(dir, targets.code);
  copyFileSync(join(root, 'examples/households.csv'), join(dir, 'households.csv'));
  const results: RunResult[] = [];
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) results.push(await runOne(dir, file));
  };
  await Promise.all([worker(), worker()]);
  return results.sort((a, b) => a.file.path.localeCompare(b.file.path));
}
