/**
 * `npm run bench -- --platforms`: a platform serving many landlord accounts from one process.
 * For 300 and 3,000 accounts, one list call each at a concurrency of 16 against the mock in
 * another process (behind a proxy counting sockets), through clients derived from one root
 * (`withOptions`), beside the same with a separate client per account (300 only). Reports the
 * sockets established, the most open at once, heap per idle account (every client held, after
 * GC, beyond what the first account's client and call cost), token exchanges per account and wall
 * time (every account but the first). Needs `--expose-gc` (the bench script has it).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { VerificationClient } from '../src/index.js';
import type { PlatformServerStats } from './platforms-server.js';

/** The credentials of account `i` (the server child serves the same). */
export function platformAccount(i: number): { clientId: string; secretKey: string } {
  return { clientId: `landlord-${i}`, secretKey: `bench-secret-${i}` };
}

const CONCURRENCY = 16;

interface Row {
  accounts: number;
  mode: 'derived' | 'separate';
  sockets: number;
  peakSockets: number;
  heapPerAccountKB: number;
  exchanges: PlatformServerStats['exchanges'];
  wallMs: number;
}

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with --expose-gc (npm run bench -- --platforms does)');
  collect();
  collect();
}

async function startServer(
  accounts: number,
): Promise<{ url: string; child: ChildProcess; stats(): Promise<PlatformServerStats> }> {
  const child = fork(fileURLToPath(new URL('./platforms-server.ts', import.meta.url)), [String(accounts)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve(message.url));
    child.once('exit', (code) => reject(new Error(`the platforms server exited (${code})`)));
  });
  return {
    url,
    child,
    stats: () =>
      new Promise((resolve) => {
        child.once('message', (message: PlatformServerStats) => resolve(message));
        child.send({ type: 'stats' });
      }),
  };
}

async function measure(accounts: number, mode: Row['mode']): Promise<Row> {
  const server = await startServer(accounts);
  const clients: VerificationClient[] = [];
  try {
    // The platform's concurrency set on the root: it caps the sockets of the pool it shares.
    const base = { baseURL: server.url, logLevel: 'off' as const, maxConcurrency: CONCURRENCY };
    // Account 0 first, alone: what any process pays once (undici, the schemas' first parse, JIT)
    // stays out of the per-account figure.
    const first = new VerificationClient({ ...base, ...platformAccount(0) });
    clients.push(first);
    await first.applicantGroups.list();
    gc();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    for (let i = 1; i < accounts; i++) {
      clients.push(
        mode === 'derived'
          ? first.withOptions(platformAccount(i))
          : new VerificationClient({ ...base, ...platformAccount(i) }),
      );
    }
    let next = 1;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < clients.length) {
          const client = clients[next++] as VerificationClient;
          const page = await client.applicantGroups.list();
          if (page.items.length !== 0) throw new Error('a new account lists no groups');
        }
      }),
    );
    const wallMs = performance.now() - started;
    gc();
    const heapPerAccountKB = (process.memoryUsage().heapUsed - before) / (accounts - 1) / 1024;
    const stats = await server.stats();
    return {
      accounts,
      mode,
      sockets: stats.sockets,
      peakSockets: stats.peakSockets,
      heapPerAccountKB,
      exchanges: stats.exchanges,
      wallMs,
    };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    server.child.kill();
  }
}

/** Runs the table; returns its markdown lines. */
export async function platformsBench(log: (line: string) => void): Promise<string[]> {
  const rows: Row[] = [];
  for (const [accounts, mode] of [
    [300, 'derived'],
    [300, 'separate'],
    [3000, 'derived'],
  ] as const) {
    log(`  platforms: ${accounts} accounts, ${mode} clients`);
    rows.push(await measure(accounts, mode));
  }
  return [
    `| accounts | clients | sockets established | most open at once | heap per idle account | token exchanges per account | wall time |`,
    '|--:|---|--:|--:|--:|--:|--:|',
    ...rows.map(
      (row) =>
        `| ${row.accounts} | ${row.mode === 'derived' ? '`withOptions` from one root' : 'one `new VerificationClient` each'} | ${row.sockets} | ${row.peakSockets} | ${row.heapPerAccountKB.toFixed(1)} KB | ${row.exchanges.min === row.exchanges.max ? row.exchanges.min : `${row.exchanges.min}-${row.exchanges.max}`} | ${(row.wallMs / 1000).toFixed(2)} s |`,
    ),
  ];
}
