/** The README's endpoint table is the operation descriptors' (scripts/endpoint-table.ts), kept current by `npm run generate`. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS_END, ENDPOINTS_START, withEndpointTable } from '../../scripts/endpoint-table.js';
import { OPERATIONS } from '../../src/resources/operations.js';
import { addedOperation } from '../support/operations.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README endpoint table', () => {
  it('is the one the descriptors give (run npm run generate when this fails)', () => {
    expect(readme).toContain(ENDPOINTS_START);
    expect(withEndpointTable(readme, OPERATIONS)).toBe(readme);
    for (const operation of OPERATIONS) {
      expect(readme).toContain(`| \`${operation.name}\` | \`${operation.method} ${operation.path}\` |`);
    }
  });

  it('is stale once an operation is added', () => {
    const next = withEndpointTable(readme, [...OPERATIONS, addedOperation]);
    expect(next).not.toBe(readme);
    expect(next).toContain('| `widgets.retrieve` | `GET /api/v1/widgets/{widgetId}` | One widget. |');
    expect(next.slice(next.indexOf(ENDPOINTS_END))).toBe(readme.slice(readme.indexOf(ENDPOINTS_END)));
  });
});
