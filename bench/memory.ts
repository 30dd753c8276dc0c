/**
 * Flat memory while walking a long list: `for await` over 10,000 applicant groups (400 pages of
 * 25) with the heap measured before and after (forced GC), and its peak sampled once a page.
 * For contrast, the same items collected into an array. Runs in its own process:
 *
 *   node --expose-gc --import tsx bench/memory.ts <origin>   (after bench/run.ts built the bundle)
 */
import { BULK_PAGE_SIZE, BULK_SEARCH, BULK_TOTAL, CLIENT_ID, SECRET_KEY } from './fixtures.js';
import { loadPackage } from './harness.js';

/** What the memory run reports (bytes, except counts and ms). */
export interface MemoryResult {
  items: number;
  pages: number;
  ms: number;
  heapBefore: number;
  heapAfter: number;
  /** Highest heapUsed seen at a page boundary during the walk. */
  heapPeak: number;
  /** Retained heap when the same 10,000 items are held in an array (`toArray()`). */
  heapHoldingAll: number;
}

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('Run with --expose-gc');
  collect();
  collect();
}

async function main(origin: string): Promise<MemoryResult> {
  const { VerificationClient } = await loadPackage();
  const client = new VerificationClient({
    baseURL: origin,
    clientId: CLIENT_ID,
    secretKey: SECRET_KEY,
    logLevel: 'off',
  });
  // Warm: token, sockets and the schema's first parses, so "before" is the steady state.
  for await (const _ of client.applicantGroups.list({ search: BULK_SEARCH, page: 399 })) {
    // drain
  }
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  let items = 0;
  const started = performance.now();
  for await (const group of client.applicantGroups.list({ search: BULK_SEARCH })) {
    if (typeof group.id !== 'string') throw new Error('Unexpected item');
    if (++items % BULK_PAGE_SIZE === 0) heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }
  const ms = performance.now() - started;
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  if (items !== BULK_TOTAL) throw new Error(`Walked ${items} items, expected ${BULK_TOTAL}`);

  const all = await client.applicantGroups.list({ search: BULK_SEARCH }).toArray();
  gc();
  const heapHoldingAll = process.memoryUsage().heapUsed - heapAfter;
  if (all.length !== BULK_TOTAL) throw new Error('toArray() came back short');
  await client.close();
  return {
    items,
    pages: Math.ceil(items / BULK_PAGE_SIZE),
    ms,
    heapBefore,
    heapAfter,
    heapPeak,
    heapHoldingAll,
  };
}

const origin = process.argv[2];
if (!origin) throw new Error('usage: memory.ts <origin>');
process.stdout.write(`${JSON.stringify(await main(origin))}\n`);
