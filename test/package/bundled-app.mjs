/**
 * An application bundled with esbuild, everything inlined, run where no node_modules is
 * (`.ci/package-checks` bundles it as ESM and as CommonJS). The SDK loads undici by `require`
 * when it can (src/core/undici-modules.ts); here nothing resolves so, and its literal
 * `import('undici')`, which the bundler followed, must carry the calls.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { VerificationClient } from 'applicant-verification';
import { createMockServer } from 'applicant-verification/testing';

/** No top-level await: the CommonJS bundle has none. */
async function main() {
  assert.equal(existsSync('node_modules'), false, 'the bundle must run without node_modules');
  const mock = await createMockServer({ seed: 5 });
  const client = new VerificationClient({
    baseURL: mock.url,
    clientId: mock.clientId,
    secretKey: mock.secretKey,
  });
  try {
    const group = await client.applicantGroups.create({
      applicants: [{ first_name: 'Bea', last_name: 'Bundled', email: 'bea@example.com' }],
      property: { name: 'P', street_address: '1 Main St', city: 'Austin', state: 'Texas', zip_code: '78701' },
      decision_maker_display_name: 'Bundle LLC',
      monthly_rent: 1000,
      correlation_id: 'bundled-1',
    });
    const page = await client.applicantGroups.list({ correlation_id: 'bundled-1' });
    assert.equal(page.items[0]?.id, group.id);
    console.log(`${process.env.CONSUMER}: created and listed ${group.id} without node_modules`);
  } finally {
    await client.close();
    await mock.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
