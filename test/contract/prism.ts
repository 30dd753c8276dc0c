/**
 * Prism (`@stoplight/prism-cli`) as a child process: a validating proxy on a free loopback port
 * in front of an upstream (the strict mock), reading the repository's own openapi.json from disk
 * (nothing remote). Every line it logs is kept, so a test can assert it reported no violation.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('../../', import.meta.url));

/** The path of openapi.json in this checkout: what Prism validates against. */
export const DOCUMENT = join(root, 'openapi.json');

/** A port nobody listens on right now (the OS picks it; Prism needs a number before it starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

/** A running Prism proxy. */
export interface PrismProxy {
  /** Its origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Every line Prism has logged so far (its log carries each violation it found). */
  log(): string[];
  /** Stops the process (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts `prism proxy openapi.json <upstream>` (with `--errors` when asked) and waits until it listens. */
export async function startPrismProxy(upstream: string, options: { errors: boolean }): Promise<PrismProxy> {
  const port = await freePort();
  const cli = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
  const args = [cli, 'proxy', DOCUMENT, upstream, '--host', '127.0.0.1', '--port', String(port)];
  if (options.errors) args.push('--errors');
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(line);
      if (lines.some((line) => line.includes('Prism is listening on'))) resolve();
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) =>
      reject(new Error(`Prism exited (${code}) before listening:\n${lines.join('\n')}`)),
    );
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url: `http://127.0.0.1:${port}`, log: () => [...lines], stop };
}
