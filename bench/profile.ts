/**
 * One contender under load, for `node --cpu-prof`: the server runs in a child process, so the
 * profile holds only the client.
 *
 *   node --cpu-prof --cpu-prof-dir=.tmp/prof --import tsx bench/profile.ts A report 5000
 *   npx tsx bench/profile-summary.ts .tmp/prof
 *
 * Contenders: A (SDK), A_agent, B (undici Pool), B_agent, C (fetch), D (fetch + zod); endpoints:
 * small, report. Prints requests/s and client CPU per request.
 */
import {
  type Contender,
  fetchToken,
  rawAgent,
  rawFetch,
  rawPool,
  sdk,
  sdkOnAgent,
  zodFetch,
} from './clients.js';
import { buildBundles, loadPackage, measure, repeat, startServer } from './harness.js';

const [key = 'A', endpoint = 'small', duration = '5000', concurrency = '16'] = process.argv.slice(2);
if (endpoint !== 'small' && endpoint !== 'report') throw new Error('endpoint: small or report');
const pkg = await loadPackage((await buildBundles()).sdk);
const server = await startServer();
try {
  const token = await fetchToken(server.origin);
  const contenders: Record<string, () => Contender> = {
    A: () => sdk(pkg, server.origin),
    A_agent: () => sdkOnAgent(pkg, server.origin),
    B: () => rawPool(server.origin, token),
    B_agent: () => rawAgent(server.origin, token),
    C: () => rawFetch(server.origin, token),
    D: () => zodFetch(pkg, server.origin, token),
  };
  const make = contenders[key];
  if (!make) throw new Error(`Unknown contender ${key}`);
  const client = make();
  await repeat(client[endpoint], Number(concurrency), endpoint === 'report' ? 500 : 3_000);
  const sample = await measure(client[endpoint], Number(concurrency), Number(duration));
  process.stdout.write(
    `${key} ${endpoint} c${concurrency}: ${sample.rps.toFixed(0)} requests/s, ${sample.cpuUs.toFixed(1)} µs client CPU per request\n`,
  );
  await client.close();
} finally {
  await server.stop();
}
