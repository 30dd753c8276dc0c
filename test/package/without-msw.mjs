/**
 * The testing kit in a project that did not install msw (an optional peer): `createMockServer()`
 * serves a real call, and the mock bin starts, serves one and stops on SIGTERM. Run by
 * `.ci/package-checks` in a project made with `npm install <tarball>` alone.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { VerificationClient } from 'applicant-verification';

const require = createRequire(`${process.cwd()}/`);
assert.throws(() => require.resolve('msw'), 'this project must not have msw installed');

async function listOnce(baseURL, clientId, secretKey) {
  const client = new VerificationClient({ baseURL, clientId, secretKey });
  try {
    const page = await client.applicantGroups.list();
    return page.totalCount;
  } finally {
    await client.close();
  }
}

function explain(what, error) {
  const first = String(error instanceof Error ? error.message : error).split('\n')[0];
  console.error(`without-msw: ${what} failed without msw installed: ${first}`);
  console.error(
    'without-msw: the testing kit still needs msw at run time; this check passes once it does not.',
  );
  process.exit(1);
}

let testing;
try {
  testing = await import('applicant-verification/testing');
  const mock = await testing.createMockServer({ seed: 1 });
  try {
    console.log(
      `createMockServer() without msw: listed ${await listOnce(mock.url, mock.clientId, mock.secretKey)} groups`,
    );
  } finally {
    await mock.close();
  }
} catch (error) {
  explain('createMockServer()', error);
}

// The bin: started on a free port, one call, then SIGTERM.
const bin = spawn(
  process.execPath,
  [
    require.resolve('applicant-verification/package.json').replace(/package\.json$/, 'dist/testing/bin.js'),
    '--port',
    '0',
    '--seed',
    '1',
  ],
  {
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let output = '';
bin.stderr.on('data', (chunk) => {
  output += chunk;
});
const exited = new Promise((resolve) => bin.on('exit', (code, signal) => resolve({ code, signal })));
const started = new Promise((resolve, reject) => {
  bin.stdout.on('data', (chunk) => {
    output += chunk;
    const value = (name) => new RegExp(`^export ${name}=(.+)$`, 'm').exec(output)?.[1];
    const url = value('VERIFICATION_BASE_URL');
    const id = value('VERIFICATION_CLIENT_ID');
    const key = value('VERIFICATION_SECRET_KEY');
    if (url && id && key) resolve({ url, id, key });
  });
  exited.then(({ code }) =>
    reject(new Error(`the mock bin exited (${code}) before it listened:\n${output}`)),
  );
});
try {
  const { url, id, key } = await started;
  console.log(`mock bin without msw: listed ${await listOnce(url, id, key)} groups`);
} catch (error) {
  bin.kill('SIGKILL');
  explain('the mock bin', error);
}
bin.kill('SIGTERM');
const { code, signal } = await exited;
assert.ok(code === 0 || signal === 'SIGTERM', `the mock bin ended with ${code ?? signal} on SIGTERM`);
