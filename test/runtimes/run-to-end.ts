/**
 * Runs an example module to its end, then exits with its exit code. Deno keeps a process alive
 * while msw's module-level BroadcastChannel exists (msw is loaded by the testing kit), even after
 * the example closed its mock and client; Node and Bun exit by themselves.
 *
 *   deno run -A --sloppy-imports --import-map=test/runtimes/import-map.json test/runtimes/run-to-end.ts examples/quickstart.ts
 */
import { pathToFileURL } from 'node:url';

const file = process.argv[2];
if (!file) {
  console.error('usage: run-to-end.ts <module>');
  process.exit(2);
}
await import(pathToFileURL(file).href);
process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
