/**
 * The platforms benchmark's server, in its own process: the SDK's mock serving `count` accounts
 * (`landlord-<i>`), behind a TCP proxy that counts the sockets clients open (in total, and the
 * most open at once). Answers `{ type: 'stats' }` over IPC with those counts and the token
 * exchanges per account from the mock's request log.
 *
 *   fork('bench/platforms-server.ts', [String(count)]) with `--import tsx`
 */
import { connect, createServer, type Socket } from 'node:net';
import { createMockServer } from '../src/testing/index.js';
import { platformAccount } from './platforms.js';

/** What the server reports. */
export interface PlatformServerStats {
  type: 'stats';
  /** Sockets clients opened. */
  sockets: number;
  /** The most sockets open at once. */
  peakSockets: number;
  /** Token exchanges, fewest and most per account, and accounts that exchanged at all. */
  exchanges: { min: number; max: number; accounts: number };
}

async function main(): Promise<void> {
  const count = Number(process.argv[2]);
  if (!(count > 0) || !process.send) throw new Error('usage: fork platforms-server.ts <accounts>');
  const mock = await createMockServer({
    seed: 1,
    accounts: Array.from({ length: count }, (_, i) => platformAccount(i)),
  });
  const target = new URL(mock.url);
  let sockets = 0;
  let open = 0;
  let peakSockets = 0;
  const proxy = createServer((client: Socket) => {
    sockets++;
    open++;
    peakSockets = Math.max(peakSockets, open);
    const upstream = connect(Number(target.port), target.hostname);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => {
      open--;
      end();
    });
    client.on('error', end);
    upstream.on('error', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  if (address === null || typeof address === 'string') throw new Error('no proxy address');
  process.on('message', (message: { type: string }) => {
    if (message.type !== 'stats') return;
    const perAccount = new Map<string, number>();
    for (const entry of mock.stats.log()) {
      if (entry.route === 'POST /api/v1/tenants/auth' && entry.account !== undefined) {
        perAccount.set(entry.account, (perAccount.get(entry.account) ?? 0) + 1);
      }
    }
    const counts = [...perAccount.values()];
    const stats: PlatformServerStats = {
      type: 'stats',
      sockets,
      peakSockets,
      exchanges: {
        min: counts.length < count ? 0 : Math.min(...counts),
        max: Math.max(0, ...counts),
        accounts: counts.length,
      },
    };
    process.send?.(stats);
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', url: `http://127.0.0.1:${address.port}` });
}

await main();
