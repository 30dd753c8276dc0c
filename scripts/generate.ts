/**
 * Writes what derives from the operation descriptors and schemas: the README's endpoint table,
 * `openapi.json`, and the checks that run before zod is loaded (src/resources/cold-checks.generated.ts,
 * src/webhooks/event-fields.generated.ts). Run it after adding or changing an operation or a
 * schema (`npm run generate`); `npm test` fails while any of them is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { OPERATIONS } from '../src/resources/operations.js';
import { COLD_OPERATIONS, coldChecksText } from './cold-checks.js';
import { withEndpointTable } from './endpoint-table.js';
import { openApiText } from './openapi.js';
import { webhookEventFieldsText } from './webhook-event-fields.js';

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
update('src/resources/cold-checks.generated.ts', () => coldChecksText(COLD_OPERATIONS));
update('src/webhooks/event-fields.generated.ts', webhookEventFieldsText);
