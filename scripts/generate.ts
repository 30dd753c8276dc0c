/**
 * Writes what derives from the operation descriptors: the README's endpoint table and
 * `openapi.json`. Run it after adding or changing an operation or a schema (`npm run generate`);
 * `npm test` fails while either file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { OPERATIONS } from '../src/resources/operations.js';
import { withEndpointTable } from './endpoint-table.js';
import { openApiText } from './openapi.js';

function update(file: string, next: (current: string) => string): void {
  const url = new URL(`../${file}`, import.meta.url);
  let current = '';
  try {
    current = readFileSync(url, 'utf8');
  } catch {
    // A missing file is written afresh.
  }
  const text = next(current);
  if (text !== current) writeFileSync(url, text);
  console.log(`${file}: ${text === current ? 'current' : 'rewritten'}`);
}

update('README.md', (readme) => withEndpointTable(readme, OPERATIONS));
update('openapi.json', () => openApiText(OPERATIONS));
