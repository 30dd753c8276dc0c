#!/usr/bin/env node
/**
 * `applicant-verification-mock`: starts the mock API from the shell for local development, demos
 * and test suites in any language. Prints the URL, the control API's base URL and the mock's
 * fake credentials (printing the defaults is the point: they only open this mock) as `export`
 * lines for the SDK's environment variables, and runs until SIGINT/SIGTERM. Needs no msw.
 *
 *   applicant-verification-mock --port 4010 --seed 1 [--page-size 25] [--host 127.0.0.1]
 *     [--client-id ID] [--secret-key KEY]
 */
import { startMockBin } from './bin-main.js';

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
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
