/** The README's endpoint table, rendered from the operation descriptors (`npm run generate` writes it). */
import type { AnyOperation } from '../src/core/call/operation.js';

/** The markers around the generated table in README.md. */
export const ENDPOINTS_START =
  '<!-- endpoints:start (generated from the operation descriptors by npm run generate) -->';
export const ENDPOINTS_END = '<!-- endpoints:end -->';

const CREATE_POLICY = {
  lookup: 'A create: looked up by `correlation_id` after an ambiguous failure, never resent blindly.',
  none: 'A create: never resent after an ambiguous failure.',
} as const;

/** A Markdown table: one row per operation (name, method and path template, doc, create policy). */
export function endpointTable(operations: readonly AnyOperation[]): string {
  const rows = operations.map((operation) => {
    const notes = operation.create ? `${operation.doc} ${CREATE_POLICY[operation.create]}` : operation.doc;
    return `| \`${operation.name}\` | \`${operation.method} ${operation.path}\` | ${notes} |`;
  });
  return ['| operation | HTTP | what it does |', '|---|---|---|', ...rows].join('\n');
}

/** `readme` with the text between the markers replaced by the table of `operations`. */
export function withEndpointTable(readme: string, operations: readonly AnyOperation[]): string {
  const start = readme.indexOf(ENDPOINTS_START);
  const end = readme.indexOf(ENDPOINTS_END);
  if (start === -1 || end < start) throw new Error('README.md has no endpoint table markers');
  return `${readme.slice(0, start + ENDPOINTS_START.length)}\n${endpointTable(operations)}\n${readme.slice(end)}`;
}
