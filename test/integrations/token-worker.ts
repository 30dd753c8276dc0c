/**
 * One process of the shared-token test: a client with a FileTokenStore makes a call and prints
 * what the test checks (how many groups it saw, and a short hash of the token it used: never the
 * token itself). Configuration comes through the environment, as a batch job's would. The test
 * runs it bundled (test/support/bundle.ts), with the SDK's sources from src inlined.
 */
import { createHash } from 'node:crypto';
import { FileTokenStore, VerificationClient } from '../../src/index.js';

const tokenFile = process.env.TOKEN_FILE;
if (!tokenFile) throw new Error('TOKEN_FILE is not set');
const client = new VerificationClient({ tokenStore: new FileTokenStore(tokenFile), logLevel: 'error' });
try {
  const page = await client.applicantGroups.list();
  const token = await client.auth.getToken();
  const tokenHash = createHash('sha256').update(token).digest('hex').slice(0, 16);
  console.log(JSON.stringify({ groups: page.totalCount, tokenHash }));
} finally {
  await client.close();
}
