#!/usr/bin/env node
/**
 * `applicant-verification-mock`: starts the mock API from the shell for local development and
 * demos. Prints the URL and the mock's fake credentials (printing them is the point: they only
 * open this mock) as `export` lines for the SDK's environment variables, and runs until
 * SIGINT/SIGTERM.
 *
 *   applicant-verification-mock --port 4010 --seed 1 [--page-size 25] [--host 127.0.0.1]
 */
import { parseArgs } from 'node:util';
import { createMockServer } from './server.js';

const USAGE =
  'Usage: applicant-verification-mock [--port 4010] [--seed 1] [--page-size 25] [--host 127.0.0.1]';

function integer(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`--${name} must be an integer >= ${min}, got "${raw}"\n${USAGE}`);
  }
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', short: 'p' },
      seed: { type: 'string', short: 's' },
      'page-size': { type: 'string' },
      host: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const mock = await createMockServer({
    port: integer('port', values.port, 4010, 0),
    seed: integer('seed', values.seed, 1, 0),
    pageSize: integer('page-size', values['page-size'], 25, 1),
    host: values.host ?? '127.0.0.1',
  });
  console.log(`Mock Applicant Verification API listening on ${mock.url}`);
  console.log(`  client id:  ${mock.clientId}`);
  console.log(`  secret key: ${mock.secretKey}`);
  console.log('');
  console.log(`export VERIFICATION_BASE_URL=${mock.url}`);
  console.log(`export VERIFICATION_CLIENT_ID=${mock.clientId}`);
  console.log(`export VERIFICATION_SECRET_KEY=${mock.secretKey}`);

  const stop = (signal: NodeJS.Signals): void => {
    console.log(`\n${signal}: closing the mock`);
    mock.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
