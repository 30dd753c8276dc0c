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
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { DEFAULT_CLIENT_ID, DEFAULT_SECRET_KEY } from './api.js';
import { createMockServer } from './server.js';

const USAGE = [
  'Usage: applicant-verification-mock [--port 4010] [--seed 1] [--page-size 25] [--host 127.0.0.1]',
  '                                   [--client-id ID] [--secret-key KEY]',
  'Credentials also come from VERIFICATION_MOCK_CLIENT_ID and VERIFICATION_MOCK_SECRET_KEY.',
].join('\n');

function integer(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`--${name} must be an integer >= ${min}, got "${raw}"\n${USAGE}`);
  }
  return value;
}

/** Whether `host` only accepts connections from this machine. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', short: 'p' },
      seed: { type: 'string', short: 's' },
      'page-size': { type: 'string' },
      host: { type: 'string' },
      'client-id': { type: 'string' },
      'secret-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const host = values.host ?? '127.0.0.1';
  const clientId = nonEmpty(values['client-id']) ?? nonEmpty(process.env.VERIFICATION_MOCK_CLIENT_ID);
  const secretKey = nonEmpty(values['secret-key']) ?? nonEmpty(process.env.VERIFICATION_MOCK_SECRET_KEY);
  const mock = await createMockServer({
    port: integer('port', values.port, 4010, 0),
    seed: integer('seed', values.seed, 1, 0),
    pageSize: integer('page-size', values['page-size'], 25, 1),
    host,
    ...(clientId === undefined ? {} : { clientId }),
    ...(secretKey === undefined ? {} : { secretKey }),
  });
  if (!isLoopback(host)) {
    const defaults = [
      clientId === undefined ? `client id "${DEFAULT_CLIENT_ID}"` : undefined,
      secretKey === undefined ? `secret key "${DEFAULT_SECRET_KEY}"` : undefined,
    ].filter((part) => part !== undefined);
    console.error(
      [
        `Warning: the mock listens on ${host}, so other machines can reach it, and its control API`,
        `(${mock.controlUrl}/) needs no token.`,
        defaults.length > 0
          ? `It accepts the well-known default ${defaults.join(' and ')}: set others with --client-id and --secret-key (or VERIFICATION_MOCK_CLIENT_ID and VERIFICATION_MOCK_SECRET_KEY).`
          : 'It accepts the credentials you set.',
      ].join('\n'),
    );
  }
  // A secret key the user chose is theirs: it is not echoed back.
  const shownSecret = secretKey === undefined ? mock.secretKey : '<the secret key you set>';
  console.log(`Mock Applicant Verification API listening on ${mock.url}`);
  console.log(
    `  control API: ${mock.controlUrl} (reset, outbox, applicants, clock, reports, faults, deliveries)`,
  );
  console.log(`  client id:   ${mock.clientId}`);
  console.log(`  secret key:  ${shownSecret}`);
  console.log('');
  console.log(`export VERIFICATION_BASE_URL=${mock.url}`);
  console.log(`export VERIFICATION_CLIENT_ID=${mock.clientId}`);
  console.log(
    `export VERIFICATION_SECRET_KEY=${secretKey === undefined ? mock.secretKey : "'<the secret key you set>'"}`,
  );

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
