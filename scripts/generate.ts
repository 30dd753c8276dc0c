/**
 * Writes what derives from the operation descriptors: the README's endpoint table. Run it after
 * adding or changing an operation (`npm run generate`); `npm test` fails while the files are stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { OPERATIONS } from '../src/resources/operations.js';
import { withEndpointTable } from './endpoint-table.js';

const readmePath = new URL('../README.md', import.meta.url);
const readme = readFileSync(readmePath, 'utf8');
const next = withEndpointTable(readme, OPERATIONS);
if (next !== readme) writeFileSync(readmePath, next);
console.log(next === readme ? 'README.md: endpoint table current' : 'README.md: endpoint table rewritten');
