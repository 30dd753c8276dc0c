/** The README's endpoint table is the operation descriptors' (scripts/endpoint-table.ts), kept current by `npm run generate`. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ENDPOINTS_END, ENDPOINTS_START, withEndpointTable } from '../../scripts/endpoint-table.js';
import { defineOperation } from '../../src/core/operation.js';
import { OPERATIONS } from '../../src/resources/operations.js';

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
    const added = defineOperation({
      name: 'widgets.retrieve',
      method: 'GET',
      path: '/api/v1/widgets/{widgetId}',
      response: z.object({ id: z.string() }),
      doc: 'One widget.',
    });
    const next = withEndpointTable(readme, [...OPERATIONS, added]);
    expect(next).not.toBe(readme);
    expect(next).toContain('| `widgets.retrieve` | `GET /api/v1/widgets/{widgetId}` | One widget. |');
    expect(next.slice(next.indexOf(ENDPOINTS_END))).toBe(readme.slice(readme.indexOf(ENDPOINTS_END)));
  });
});
