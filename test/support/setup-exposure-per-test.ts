/**
 * Per test, in the mutation run (vitest.mutation.config.ts): what the test exposed is scanned when
 * it ends, and a leak fails that test. `npm test`'s scan runs after the whole run, where Stryker
 * cannot see it: a mutant that leaks an email would survive it.
 */
import { afterEach } from 'vitest';
import { takeExposure } from './exposure.js';

afterEach(async () => {
  const exposed = takeExposure();
  if (exposed.length === 0) return;
  // Loaded on first use: the secrets list imports the testing kit, which a pure test file never loads.
  const { leaksIn } = await import('./leaks.js');
  const leaks = exposed.flatMap((text) => text.split('\n')).flatMap(leaksIn);
  if (leaks.length > 0) {
    throw new Error(`The test exposed ${leaks.length} leak(s):\n${leaks.slice(0, 5).join('\n')}`);
  }
});
