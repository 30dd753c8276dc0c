/**
 * One measured run of bench/scale.ts, in its own process so that its CPU and peak RSS are its
 * own: `server` starts a mock and answers its CPU on request; `cli` runs `groups create --csv`
 * in process (the bin's `runCli`); `once` and `plain` run `createMany` with and without
 * `once: true`. Each reports `{ wallMs, cpuUs, maxRssKb, failed }` to the parent over IPC.
 */
import { type ApplicantGroupCreateParams, VerificationClient } from '../src/index.js';

/** What a measured run reports. */
export interface RunReport {
  wallMs: number;
  cpuUs: number;
  maxRssKb: number;
  failed: number;
}

/** A message the server child answers. */
export type ServerMessage = { kind: 'cpu' } | { kind: 'stop' };

const send = (message: unknown): void => {
  process.send?.(message);
};

/** The body of household `i`, as the CSV bench/scale.ts writes has it. */
export function household(i: number): ApplicantGroupCreateParams {
  return {
    applicants: [{ first_name: 'Tenant', last_name: `No${i}`, email: `tenant${i}@example.com` }],
    property: {
      name: 'Cedar Park',
      street_address: '9 Cedar Ln',
      city: 'Seattle',
      state: 'WA',
      zip_code: '98101',
      unit: `${i}`,
    },
    decision_maker_display_name: 'Cedar Park Rentals',
    monthly_rent: 1400 + (i % 50),
    correlation_id: `bench-${i}`,
    is_invitation_disabled: true,
  };
}

function cpuNow(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

async function server(): Promise<void> {
  const { createMockServer } = await import('../src/testing/index.js');
  const mock = await createMockServer({ seed: 51, ticking: true });
  process.on('message', (message: ServerMessage) => {
    if (message.kind === 'cpu') send({ cpuUs: cpuNow(), maxRssKb: process.resourceUsage().maxRSS });
    else void mock.close().then(() => process.exit(0));
  });
  send({ url: mock.url, clientId: mock.clientId, secretKey: mock.secretKey });
}

async function measured(run: () => Promise<number>): Promise<void> {
  const cpu = cpuNow();
  const started = performance.now();
  const failed = await run();
  const report: RunReport = {
    wallMs: performance.now() - started,
    cpuUs: cpuNow() - cpu,
    maxRssKb: process.resourceUsage().maxRSS,
    failed,
  };
  send(report);
}

async function createMany(once: boolean, count: number, concurrency: number): Promise<number> {
  const client = new VerificationClient({
    baseURL: process.env.BENCH_URL ?? '',
    clientId: process.env.BENCH_CLIENT_ID ?? '',
    secretKey: process.env.BENCH_SECRET_KEY ?? '',
    allowInsecureHttp: true,
    logLevel: 'error',
  });
  const bodies = Array.from({ length: count }, (_, i) => household(i));
  const results = once
    ? await client.applicantGroups.createMany(bodies, { once: true, concurrency })
    : await client.applicantGroups.createMany(bodies, { concurrency });
  await client.close();
  return results.filter((result) => !result.ok).length;
}

async function cli(args: string[]): Promise<number> {
  const { runCli } = await import('../src/cli/main.js');
  const { Writable } = await import('node:stream');
  const sink = () =>
    new Writable({
      write(_chunk, _encoding, done) {
        done();
      },
    });
  const stderr: string[] = [];
  const code = await runCli(args, {
    stdout: sink(),
    stderr: new Writable({
      write(chunk, _encoding, done) {
        if (stderr.length < 20) stderr.push(String(chunk));
        done();
      },
    }),
    env: process.env,
    cwd: process.cwd(),
    signal: new AbortController().signal,
  });
  if (code !== 0) process.stderr.write(`groups create exited ${code}: ${stderr.join('').slice(0, 2000)}\n`);
  return code === 0 ? 0 : 1;
}

const [mode = '', ...rest] = process.argv.slice(2);
if (mode === 'server') await server();
else if (mode === 'cli') await measured(() => cli(rest));
else if (mode === 'once' || mode === 'plain')
  await measured(() => createMany(mode === 'once', Number(rest[0]), Number(rest[1])));
else throw new Error(`unknown mode ${mode}`);
