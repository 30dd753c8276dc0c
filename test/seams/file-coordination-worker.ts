/**
 * A process of test/seams/file-coordination-processes.test.ts: on the FileCoordination folder
 * COORDINATION_DIR, ROUNDS times for each of KEYS keys, it takes the key's create lease (trying
 * again while another process holds it), reads the count the key's last holder recorded (a
 * `created` outcome whose id is the count), records the count plus one, and gives the lease back.
 * Every increment lost to two holders at once would show in the final counts. Prints
 * `{"done":true,"waits":n}` at the end.
 */
import { FileCoordination } from '../../src/index.js';

const dir = process.env.COORDINATION_DIR;
if (!dir) throw new Error('COORDINATION_DIR must be set');
const keys = Number(process.env.KEYS ?? 8);
const rounds = Number(process.env.ROUNDS ?? 20);
const coordination = new FileCoordination(dir);
let waits = 0;

async function increment(key: string): Promise<void> {
  for (;;) {
    const lease = await coordination.acquireCreateLease('client', key, 60_000);
    if (!lease) {
      waits++;
      await new Promise((resolve) => setTimeout(resolve, 1));
      continue;
    }
    const last = await coordination.readCreateOutcome('client', key);
    const count = last?.state === 'created' ? Number(last.id) : 0;
    if (!(await coordination.recordCreateOutcome(lease, { state: 'unresolved' })))
      throw new Error(`the unresolved record on ${key} was refused under a fresh lease`);
    if (!(await coordination.recordCreateOutcome(lease, { state: 'created', id: String(count + 1) })))
      throw new Error(`the count on ${key} was refused under a fresh lease`);
    await coordination.releaseCreateLease(lease);
    return;
  }
}

// Every key at once, each key's rounds one after another: processes meet on every key.
await Promise.all(
  Array.from({ length: keys }, async (_, key) => {
    for (let round = 0; round < rounds; round++) await increment(`key-${key}`);
  }),
);
console.log(JSON.stringify({ done: true, waits }));
