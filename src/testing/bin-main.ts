/**
 * The work of `applicant-verification-mock` (src/testing/bin.ts), apart from the process: its
 * arguments, output lines and environment come in through {@link MockBinIO}, so tests run it
 * in-process and only the signal test spawns the bin.
 */
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { DEFAULT_CLIENT_ID, DEFAULT_SECRET_KEY } from './server/api.js';
import { createMockServer, type MockServer } from './server/server.js';

const USAGE = [
  'Usage: applicant-verification-mock [--port 4010] [--seed 1] [--page-size 25] [--host 127.0.0.1]',
  '                                   [--client-id ID] [--secret-key KEY] [--api-rent-unit dollars|cents]',
  '                                   [--now TIME] [--frozen] [--strict] [--console | --no-console]',
  '--now sets where the mock clock starts (ISO date-time or epoch ms); default: the real current time.',
  'The clock ticks with real time from there; --frozen holds it still (it then moves only through',
  'POST /__mock/clock/advance). GET /__mock/clock reads it.',
  '--strict holds requests to openapi.json: unknown body keys, enum violations and nulls get 400,',
  'a JSON body under another content type 415, a wrong method on a known path 405 with Allow.',
  '--console serves the console (a page at /__mock/console) on a non-loopback --host; on a loopback',
  'host it is on unless --no-console.',
  'Credentials also come from VERIFICATION_MOCK_CLIENT_ID and VERIFICATION_MOCK_SECRET_KEY.',
  '--account ID:SECRET (repeatable, instead of --client-id/--secret-key) serves several accounts,',
  'each seeing only its own groups and reports; the first is the one the export lines name.',
  "Each account's webhook deliveries are signed with its secret key, as the service signs them;",
  "--account-webhook-secret ID:KEY (repeatable) signs that account's with KEY instead (a test of a",
  'receiver that still accepts a rotated-away key).',
].join('\n');

function integer(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`--${name} must be an integer >= ${min}, got "${raw}"\n${USAGE}`);
  }
  return value;
}

/** `--now`: epoch milliseconds, or a date-time `Date` can read (ISO 8601 preferred). */
function timeOption(raw: string): number {
  const ms = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (!Number.isFinite(ms))
    throw new Error(`--now must be an ISO date-time or epoch milliseconds, got "${raw}"\n${USAGE}`);
  return ms;
}

/** Whether `host` only accepts connections from this machine. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** `ID:SECRET`: split at the first colon, so a secret may hold colons, a client id not. */
function idAndSecret(raw: string, option: string, shape: string): [string, string] {
  const colon = raw.indexOf(':');
  const clientId = colon < 0 ? '' : raw.slice(0, colon);
  const secret = colon < 0 ? '' : raw.slice(colon + 1);
  if (clientId === '' || secret === '') {
    // The value is not echoed: it holds a secret.
    throw new Error(`${option} must be ${shape} with both parts non-empty\n${USAGE}`);
  }
  return [clientId, secret];
}

/** `--account ID:SECRET`. */
function accountOption(raw: string): { clientId: string; secretKey: string } {
  const [clientId, secretKey] = idAndSecret(raw, '--account', 'ID:SECRET');
  return { clientId, secretKey };
}

/** The accounts with their `--account-webhook-secret ID:KEY` overrides; an unknown ID is refused. */
function withWebhookSecrets(
  accounts: Array<{ clientId: string; secretKey: string; webhookSecret?: string }>,
  raw: readonly string[] | undefined,
): Array<{ clientId: string; secretKey: string; webhookSecret?: string }> {
  for (const entry of raw ?? []) {
    const [clientId, webhookSecret] = idAndSecret(entry, '--account-webhook-secret', 'ID:KEY');
    const account = accounts.find((candidate) => candidate.clientId === clientId);
    if (account === undefined) {
      throw new Error(`--account-webhook-secret names ${clientId}, which no --account gives\n${USAGE}`);
    }
    account.webhookSecret = webhookSecret;
  }
  return accounts;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Where the bin writes, the environment it reads credentials from, and the time it ticks with. */
export interface MockBinIO {
  /** One line of standard output. */
  out(line: string): void;
  /** One line of standard error. */
  err(line: string): void;
  /** Environment variables (`VERIFICATION_MOCK_*`). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Monotonic milliseconds the mock clock ticks with (default `performance.now()`); a test passes
   * its own to age the bin by minutes without waiting them. Unused with `--frozen`.
   */
  elapsedMs?: () => number;
}

/**
 * Runs the bin's work for `args`: parses them (a bad option throws, with the usage), starts the
 * mock and prints its URL, credentials and `export` lines. Returns the running mock (`undefined`
 * after `--help`); the bin closes it on SIGINT/SIGTERM.
 */
export async function startMockBin(args: readonly string[], io: MockBinIO): Promise<MockServer | undefined> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      port: { type: 'string', short: 'p' },
      seed: { type: 'string', short: 's' },
      'page-size': { type: 'string' },
      host: { type: 'string' },
      'client-id': { type: 'string' },
      'secret-key': { type: 'string' },
      account: { type: 'string', multiple: true },
      'account-webhook-secret': { type: 'string', multiple: true },
      'api-rent-unit': { type: 'string' },
      now: { type: 'string' },
      frozen: { type: 'boolean' },
      strict: { type: 'boolean' },
      console: { type: 'boolean' },
      'no-console': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    io.out(USAGE);
    return undefined;
  }
  const host = values.host ?? '127.0.0.1';
  if (values.console === true && values['no-console'] === true)
    throw new Error(`--console cannot be combined with --no-console\n${USAGE}`);
  // The console is for whoever can reach the mock: on by default only where that is this machine.
  const serveConsole = values['no-console'] !== true && (values.console === true || isLoopback(host));
  const given = values.account?.map(accountOption);
  if (given === undefined && values['account-webhook-secret'] !== undefined)
    throw new Error(`--account-webhook-secret needs the --account it names\n${USAGE}`);
  const accounts =
    given === undefined ? undefined : withWebhookSecrets(given, values['account-webhook-secret']);
  if (accounts !== undefined && (values['client-id'] !== undefined || values['secret-key'] !== undefined))
    throw new Error(`--account cannot be combined with --client-id or --secret-key\n${USAGE}`);
  // With --account, the environment's single pair is not used: the accounts are all given.
  const single = accounts === undefined;
  const clientId = single
    ? (nonEmpty(values['client-id']) ?? nonEmpty(io.env.VERIFICATION_MOCK_CLIENT_ID))
    : undefined;
  const secretKey = single
    ? (nonEmpty(values['secret-key']) ?? nonEmpty(io.env.VERIFICATION_MOCK_SECRET_KEY))
    : undefined;
  const rentUnit = values['api-rent-unit'] ?? 'dollars';
  if (rentUnit !== 'dollars' && rentUnit !== 'cents') {
    throw new Error(`--api-rent-unit must be dollars or cents, got "${rentUnit}"\n${USAGE}`);
  }
  const mock = await createMockServer({
    apiRentUnit: rentUnit,
    port: integer('port', values.port, 4010, 0),
    seed: integer('seed', values.seed, 1, 0),
    pageSize: integer('page-size', values['page-size'], 25, 1),
    host,
    ...(values.now === undefined ? {} : { now: timeOption(values.now) }),
    // A bin runs for minutes or days: a clock stuck at its start would stamp every group with the
    // start-up time, which clients (create recovery among them) would read as long past.
    ticking: values.frozen === true ? false : (io.elapsedMs ?? true),
    strict: values.strict === true,
    console: serveConsole,
    ...(clientId === undefined ? {} : { clientId }),
    ...(secretKey === undefined ? {} : { secretKey }),
    ...(accounts === undefined ? {} : { accounts }),
  });
  if (!isLoopback(host)) {
    const defaults = [
      single && clientId === undefined ? `client id "${DEFAULT_CLIENT_ID}"` : undefined,
      single && secretKey === undefined ? `secret key "${DEFAULT_SECRET_KEY}"` : undefined,
    ].filter((part) => part !== undefined);
    io.err(
      [
        `Warning: the mock listens on ${host}, so other machines can reach it, and its control API`,
        mock.consoleUrl === undefined
          ? `(${mock.controlUrl}/) needs no token.`
          : `(${mock.controlUrl}/) and its console (${mock.consoleUrl}, --console) need no token.`,
        defaults.length > 0
          ? `It accepts the well-known default ${defaults.join(' and ')}: set others with --client-id and --secret-key (or VERIFICATION_MOCK_CLIENT_ID and VERIFICATION_MOCK_SECRET_KEY).`
          : 'It accepts the credentials you set.',
      ].join('\n'),
    );
  }
  // A secret key the user chose (with --account too) is theirs: it is not echoed back.
  const defaultSecret = single && secretKey === undefined;
  const shownSecret = defaultSecret ? mock.secretKey : '<the secret key you set>';
  io.out(`Mock Applicant Verification API listening on ${mock.url}`);
  io.out(
    `  console:     ${mock.consoleUrl ?? (isLoopback(host) ? 'off (--no-console)' : `off on ${host} (--console serves it)`)}`,
  );
  io.out(`  control API: ${mock.controlUrl} (reset, outbox, applicants, clock, reports, faults, deliveries)`);
  if (single) {
    io.out(`  client id:   ${mock.clientId}`);
    io.out(`  secret key:  ${shownSecret}`);
  } else {
    io.out(
      `  accounts:    ${mock.accounts.map((account) => account.clientId).join(', ')} (secret keys as you set them)`,
    );
  }
  io.out(
    `  clock:       ${values.frozen === true ? 'frozen at' : 'ticking from'} ${mock.clock.date().toISOString()}`,
  );
  if (values.strict === true) io.out('  strict:      requests are held to openapi.json (400, 415, 405)');
  if (rentUnit === 'cents') io.out('  rent unit:   cents (applicant-group monthly_rent is read in cents)');
  io.out('');
  io.out(`export VERIFICATION_BASE_URL=${mock.url}`);
  io.out(`export VERIFICATION_CLIENT_ID=${mock.clientId}`);
  io.out(`export VERIFICATION_SECRET_KEY=${defaultSecret ? mock.secretKey : "'<the secret key you set>'"}`);

  return mock;
}
