// Run by .ci/package-checks in a project that installed the tarball, as
// `node --conditions=workerd edge-consumer.mjs`: under a Workers bundler's condition the package
// resolves to dist/edge.js, whose module graph (its own chunks) imports no Node built-in and no
// undici, and whose client calls the mock through fetch.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(import.meta.resolve('applicant-verification'));
assert.match(entry, /[\\/]dist[\\/]edge\.js$/, `the workerd condition resolved to ${entry}`);

const loaded = new Set();
const external = new Set();
const queue = [entry];
while (queue.length > 0) {
  const file = queue.pop();
  if (file === undefined || loaded.has(file)) continue;
  loaded.add(file);
  const code = readFileSync(file, 'utf8');
  for (const [, specifier] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)) {
    if (specifier.startsWith('.')) queue.push(join(dirname(file), specifier));
    else external.add(specifier);
  }
}
assert.deepEqual([...external], [], `dist/edge.js and its chunks import ${[...external].join(', ')}`);

const { ConfigurationError, VerificationClient } = await import('applicant-verification');
const { createMockServer } = await import('applicant-verification/testing');
const mock = await createMockServer({ seed: 3 });
try {
  assert.throws(
    () => new VerificationClient({ baseURL: mock.url, accessToken: 'token', dispatcher: {} }),
    (error) => error instanceof ConfigurationError && /needs undici/.test(error.message),
  );
  const client = new VerificationClient({
    baseURL: mock.url,
    clientId: mock.clientId,
    secretKey: mock.secretKey,
  });
  const page = await client.applicantGroups.list();
  assert.equal(page.page, 1);
  console.log(
    `edge entry (${loaded.size} files, no Node built-in or undici import): listed page ${page.page}`,
  );
} finally {
  await mock.close();
}
