/**
 * What a command runs against: its streams, environment, working directory and stop signal.
 * Commands never touch `process` directly, so tests can run them in-process with fake streams.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';

import type { ClientOptions } from 'applicant-verification';
import type { RedisLoader } from './redis-modules.js';

/** A writable stream that may be a terminal. */
export type OutputStream = Writable & { isTTY?: boolean; columns?: number };

/** The environment of one command run. */
export interface CliIO {
  /** Data (list output, dry-run plans): pipe it. */
  stdout: OutputStream;
  /** Progress, warnings, errors and summaries: never data. */
  stderr: OutputStream;
  /** Environment variables (`VERIFICATION_*`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths are resolved against. */
  cwd: string;
  /**
   * Aborted (with an `InterruptedError` reason) on the first SIGINT or SIGTERM: commands stop
   * starting new work, let work in flight settle for a bounded time, and write what they have.
   */
  signal: AbortSignal;
  /** The clock the SDK and the command's own polls wait with; the real one when absent. Tests pass a fast one. */
  clock?: ClientOptions['clock'];
  /** Loads ioredis and the Redis entry for `--coordination redis://...`; tests pass a failing one. */
  loadRedis?: RedisLoader;
}

/** Writes `chunk`, waiting for the stream to drain when it is full (a slow pipe must not buffer unbounded). */
export async function write(stream: Writable, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}
