#!/usr/bin/env node
/**
 * `applicant-verification-mock`: starts the mock API from the shell for local development, demos
 * and test suites in any language. Prints the URL, the control API's base URL and the mock's
 * fake credentials (printing the defaults is the point: they only open this mock) as `export`
 * lines for the SDK's environment variables, and runs until SIGINT/SIGTERM. Needs no msw.
 *
 * Started by npm (`npx`, `npm exec`, `npm run`: npm sets `npm_command`), it also stops when its
 * parent goes: `kill $!` after `npx applicant-verification-mock &` ends npm's wrapper, which
 * passes no signal on, and the server would otherwise keep the port.
 *
 *   applicant-verification-mock --port 4010 --seed 1 [--page-size 25] [--host 127.0.0.1]
 *     [--client-id ID] [--secret-key KEY] [--now TIME] [--frozen]
 *
 * Its clock ticks with real time from `--now` (default: the real current time); `--frozen` holds
 * it still, to be moved only through the control API.
 */
import { startMockBin } from './bin-main.js';

/** How often a bin started by npm checks that npm's wrapper still runs. */
const PARENT_CHECK_MS = 250;

startMockBin(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  env: process.env,
}).then(
  (mock) => {
    if (mock === undefined) return;
    const stop = (signal: NodeJS.Signals): void => {
      console.log(`\n${signal}: closing the mock`);
      mock.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (process.env.npm_command !== undefined) {
      const parent = process.ppid;
      const watch = setInterval(() => {
        if (process.ppid === parent) return;
        clearInterval(watch);
        console.log('\nnpm, which started the mock, is gone: closing the mock');
        mock.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      }, PARENT_CHECK_MS);
      watch.unref();
    }
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
