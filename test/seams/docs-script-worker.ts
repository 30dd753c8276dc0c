/**
 * The script of docs/cli.md ("Scripts join the same gate"), as written there: the households of
 * `households.csv` (in its working folder) through `createOnce` on `commandLineCoordination()`, the
 * command line's gate, resolved from the environment by the function the command line uses. The
 * seams suite runs it bundled beside `groups create` on the same file. It prints one line per
 * household: key, group id, created or already there.
 */
import { readFile } from 'node:fs/promises';
import { parseHouseholds } from '../../src/households/index.js';
import { commandLineCoordination, VerificationClient } from '../../src/index.js';

const client = new VerificationClient({
  // VERIFICATION_BASE_URL, VERIFICATION_CLIENT_ID and VERIFICATION_SECRET_KEY, as the command line reads them
  coordination: commandLineCoordination(), // the gate groups create uses on this machine
});
const { households } = parseHouseholds(await readFile('households.csv', 'utf8'));
for (const household of households) {
  const { group, created } = await client.applicantGroups.createOnce(household.body);
  console.log(household.key, group.id, created ? 'created' : 'already there');
}
await client.close();
