#!/usr/bin/env node
/**
 * The `applicant-verification` bin: wires the process (argv, streams, environment, signals) to
 * {@link runCli}. The first SIGINT/SIGTERM asks the running command to stop gracefully (no new
 * work, work in flight settles, the log is written); a second one exits at once.
 */
import { describeError, exitCodeForSignal, InterruptedError } from './errors.js';
import { runCli } from './main.js';

const stop = new AbortController();

function onSignal(signal: NodeJS.Signals): void {
  if (stop.signal.aborted) process.exit(exitCodeForSignal(signal));
  stop.abort(new InterruptedError(signal));
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

// `groups list | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// No top-level await: the same file is also bundled as CommonJS.
runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: stop.signal,
}).then(
  (code) => {
    process.exitCode = code;
    // Everything is closed by now; should a stray handle keep the loop alive, do not hang a script.
    setTimeout(() => process.exit(code), 2_000).unref();
  },
  (error: unknown) => {
    process.stderr.write(`applicant-verification: unexpected failure: ${describeError(error)}\n`);
    process.exit(1);
  },
);
