/**
 * Cold start without a stopwatch: loads the installed package's main entry (import, then
 * require) in a user's project and lists every module that brought in. Fails when one is the
 * testing kit, the command line, the Redis or households entry, jose's signing and verifying code
 * or zod, or when anything loads from node_modules: msw, ioredis and csv-parse/csv-stringify are
 * not the main entry's, the build bundles zod and jose (see tsup.config.ts), zod loads on first
 * need, and undici loads with the first client. Then makes calls and fails unless they loaded
 * undici's Pool module and not its index (which loads all of undici: src/core/transport/undici-modules.ts)
 * and got their answers through them, unless a first list page loaded no zod, and unless a
 * filtered list, which the build-time checks do not cover, did load it.
 *
 *   node main-entry-graph.mjs        (in a project that installed the tarball; .ci/package-checks)
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

// Identifiers (the build minifies no names) only the testing kit, the CLI, the Redis entry, the
// households entry or jose's signing and verifying code define.
const FORBIDDEN_NAMES = [
  'createMockServer',
  'runCli',
  'parseHouseholds',
  'RedisCoordination',
  'RedisTokenStore',
  'SignJWT',
  'jwtVerify',
  'compactVerify',
];

// Every module the ESM loader loads, reported by a load hook (module.register, Node >= 20.6).
const hooks = `
let port;
export function initialize(data) {
  port = data.port;
  port.on('message', (message) => port.postMessage({ flushed: message }));
}
export async function load(url, context, nextLoad) {
  port.postMessage({ url });
  return nextLoad(url, context);
}`;
const { port1, port2 } = new MessageChannel();
const loaded = new Set();
register(`data:text/javascript,${encodeURIComponent(hooks)}`, {
  data: { port: port2 },
  transferList: [port2],
});
let onFlushed = () => {};
port1.on('message', (message) => {
  if (message.url?.startsWith('file:')) loaded.add(fileURLToPath(message.url));
  if (message.flushed) onFlushed();
});
// The port keeps order: once the reply to this arrives, every earlier load has been reported.
const reportedLoads = () =>
  new Promise((resolve) => {
    onFlushed = resolve;
    port1.postMessage('done');
  });
await import('applicant-verification');
await reportedLoads();

const require = createRequire(`${process.cwd()}/`);
require('applicant-verification');
for (const file of Object.keys(require.cache)) loaded.add(file);

// zod's own code (the build keeps names): its base schema class is made by `$constructor`.
const ZOD_MARK = '$constructor("$ZodType"';
/** The loaded files (ES modules, CommonJS) that hold zod's code. */
async function zodFiles() {
  await reportedLoads();
  for (const file of Object.keys(require.cache)) loaded.add(file);
  return [...loaded].filter(
    (file) => !file.includes('/node_modules/zod/') && readFileSync(file, 'utf8').includes(ZOD_MARK),
  );
}

/** The package a file belongs to: the last `node_modules/<name>` in its path. */
function packageOf(file) {
  return /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
}

const packageRoot = fileURLToPath(new URL('.', import.meta.resolve('applicant-verification/package.json')));
const problems = [];
const ours = [];
for (const file of loaded) {
  if (!file.startsWith(packageRoot)) {
    const pkg = packageOf(file);
    if (pkg !== undefined) problems.push(`loads ${pkg} on import: ${file}`);
    continue;
  }
  ours.push(file.slice(packageRoot.length));
  if (/\/dist\/(testing|cli|redis)\//.test(file))
    problems.push(`loads the testing kit, the CLI or the Redis entry: ${file}`);
  const text = readFileSync(file, 'utf8');
  for (const name of FORBIDDEN_NAMES) {
    // A definition (`class X`, `function X`, `X = `), not a mention: a message may name the class
    // a user should build instead.
    if (new RegExp(`\\b(?:class|function\\*?)\\s+${name}\\b|\\b${name}\\s*=[^=]`).test(text))
      problems.push(`loads ${name}: ${file}`);
  }
  if (text.includes(ZOD_MARK)) problems.push(`loads zod on import: ${file}`);
}
const packages = [...loaded]
  .map(packageOf)
  .filter((name) => name !== undefined && name !== 'applicant-verification');
console.log(`main entry (import + require) loads ${ours.sort().join(', ')}`);
console.log(`and from node_modules: ${[...new Set(packages)].sort().join(', ') || 'nothing'}`);

// Clients and calls: undici loads now, its Pool's module and not its index, and that is enough to
// send requests and read their answers: refused credentials (401), then a token (204 with an
// Authorization header) and pages of groups.
const { AuthenticationError, VerificationClient } = require('applicant-verification');
const listed = [];
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    if (request.method === 'POST') {
      if (JSON.parse(body).client_id === 'refused') {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: 'invalid_client', message: 'Unknown client' }));
      } else {
        response.writeHead(204, { authorization: 'Bearer graph-token' });
        response.end();
      }
      return;
    }
    listed.push(request.url);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ applicant_groups: [], total_count: 0 }));
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const clientOf = (clientId) =>
  new VerificationClient({
    baseURL: `http://127.0.0.1:${server.address().port}`,
    clientId,
    secretKey: 'graph-secret',
    logLevel: 'off',
  });
const refused = clientOf('refused');
const client = clientOf('graph');
try {
  await refused.applicantGroups.list();
  problems.push('a call against a server answering 401 did not fail');
} catch (error) {
  if (!(error instanceof AuthenticationError) || error.status !== 401)
    problems.push(`a call against a server answering 401 failed with ${error}, not AuthenticationError`);
}
try {
  const first = await client.applicantGroups.list();
  if (first.items.length !== 0) problems.push('the first list page did not arrive');
  const early = await zodFiles();
  if (early.length > 0)
    problems.push(`a token exchange and a first list page loaded zod: ${early.join(', ')}`);
  await client.applicantGroups.list({ search: 'Ruiz' });
  if ((await zodFiles()).length === 0)
    problems.push('a filtered list did not load zod (or zod was not recognised)');
  if (listed.join(' ') !== '/api/v1/applicant_groups?page=1 /api/v1/applicant_groups?search=Ruiz&page=1')
    problems.push(`the lists sent ${listed.join(' ')}`);
} catch (error) {
  problems.push(`a list failed: ${error}`);
} finally {
  await Promise.all([client.close(), refused.close()]);
  server.close();
  port1.close();
}
console.log('a first list page loaded no zod; a filtered list loaded it');
const undiciFiles = Object.keys(require.cache).filter((file) => packageOf(file) === 'undici');
const undiciRoot = undiciFiles[0]?.replace(/(.*\/node_modules\/undici\/).*/, '$1') ?? '';
const has = (relative) => undiciFiles.includes(`${undiciRoot}${relative}`);
if (!has('lib/dispatcher/pool.js')) problems.push("a client did not load undici's lib/dispatcher/pool.js");
if (has('index.js')) problems.push("a client loaded undici's index.js (all of undici)");
if (has('lib/web/fetch/index.js')) problems.push("a client loaded undici's fetch");
console.log(
  `a client's first call loads ${undiciFiles.length} of undici's modules, and got its 401 and its pages`,
);
if (problems.length > 0) {
  for (const problem of problems) console.error(`main-entry-graph: ${problem}`);
  process.exit(1);
}
