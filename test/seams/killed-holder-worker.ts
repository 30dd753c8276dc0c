/**
 * The process test/seams/killed-holder.test.ts kills with SIGKILL while it holds a
 * FileCoordination's leases and locks on the folder COORDINATION_DIR. The test runs it bundled
 * (test/support/bundle.ts). MODE says what it holds:
 *
 * - `hold`: the create lease of ('client', CORRELATION_ID) for ten minutes, with an `unresolved`
 *   outcome recorded under it (as a create being sent leaves), and the token-exchange lock of
 *   'client' (ttl ten minutes) in an exchange that never ends. Prints the lease as one JSON line
 *   once it holds both, then waits to be killed.
 * - `create-once`: a client on the mock named by VERIFICATION_BASE_URL (and its credentials) calls
 *   `createOnce` for HOUSEHOLD (JSON) with a five-minute deadline, so its lease lives about twelve
 *   minutes; the test kills it while the create is in flight. Prints the result if it ever ends.
 */
import { FileCoordination, VerificationClient } from '../../src/index.js';

const TEN_MINUTES = 10 * 60_000;

const dir = process.env.COORDINATION_DIR;
if (!dir) throw new Error('COORDINATION_DIR must be set');
const coordination = new FileCoordination(dir);

async function hold(correlationId: string): Promise<void> {
  const lease = await coordination.acquireCreateLease('client', correlationId, TEN_MINUTES);
  if (!lease) throw new Error('the create lease was held by another process');
  await coordination.recordCreateOutcome(lease, { state: 'unresolved' });
  // The exchange runs once the lock is held, and never settles: held until the process dies.
  await new Promise<void>((held) => {
    coordination
      .withTokenExchange('client', TEN_MINUTES, () => {
        held();
        return new Promise<never>(() => {});
      })
      .catch(() => {});
  });
  console.log(JSON.stringify(lease));
  // Nothing else keeps the event loop alive while it waits to be killed.
  setInterval(() => {}, 60_000);
}

async function createOnce(household: string): Promise<void> {
  const client = new VerificationClient({ coordination, logLevel: 'error' });
  try {
    const { group, created } = await client.applicantGroups.createOnce(JSON.parse(household), {
      deadline: 5 * 60_000,
    });
    console.log(JSON.stringify({ id: group.id, created }));
  } finally {
    await client.close();
  }
}

const mode = process.env.MODE;
if (mode === 'hold') await hold(process.env.CORRELATION_ID ?? 'unit-4B');
else if (mode === 'create-once') await createOnce(process.env.HOUSEHOLD ?? '');
else throw new Error(`unknown MODE "${String(mode)}"`);
