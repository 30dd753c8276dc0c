/**
 * One process of the cross-process createOnce test: a client with a FileCoordination on the
 * folder COORDINATION_DIR calls createOnce for the household in HOUSEHOLD (JSON) once START_AT
 * (epoch ms) has come, so that both processes call at nearly the same moment, and prints what it
 * got: the group id and whether this process created it.
 */
import { FileCoordination, VerificationClient } from '../../src/index.js';

const dir = process.env.COORDINATION_DIR;
const household = process.env.HOUSEHOLD;
if (!dir || !household) throw new Error('COORDINATION_DIR and HOUSEHOLD must be set');
const client = new VerificationClient({ coordination: new FileCoordination(dir), logLevel: 'error' });
try {
  const startAt = Number(process.env.START_AT ?? 0);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  const { group, created } = await client.applicantGroups.createOnce(JSON.parse(household));
  console.log(JSON.stringify({ id: group.id, created }));
} finally {
  await client.close();
}
