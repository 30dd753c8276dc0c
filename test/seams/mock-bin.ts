/** The mock bin (bundled) in a process of its own, for the seams suites. */
import { type ChildProcess, spawn } from 'node:child_process';

/** A running mock bin. */
export interface MockBinProcess {
  /** Its base URL, from its `export VERIFICATION_BASE_URL=` line. */
  url: string;
  child: ChildProcess;
  /** What it printed on stdout so far. */
  output(): string;
}

/** Starts the bundled bin on a free port and resolves once it printed its export lines. */
export async function startMockBinProcess(bin: string, args: readonly string[]): Promise<MockBinProcess> {
  const child = spawn(process.execPath, [bin, '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('VERIFICATION_SECRET_KEY=')) resolve();
    });
    child.once('exit', () => reject(new Error(`the bin exited early: ${output}`)));
  });
  return { url: /export VERIFICATION_BASE_URL=(\S+)/.exec(output)?.[1] ?? '', child, output: () => output };
}

/** Stops the bin with SIGTERM and waits for it to exit. */
export async function stopMockBinProcess(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
