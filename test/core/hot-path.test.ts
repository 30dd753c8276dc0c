/**
 * The per-call path keeps off Node 20's object-spread cliff: on V8 11 (Node 20), an object spread
 * given keys its source lacks (`{ ...call, search }`, or a key assigned to the copy afterwards)
 * gets a fresh hidden class per object, costing about a microsecond and leaving garbage that
 * outlives young collections (docs/benchmarks.md, round 4). The files every call runs through
 * build their objects with literals, `copyRecords` or `Object.assign`; this scan finds a spread
 * followed by further keys in any of them.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The files a call runs through, from the resource method to the transport and back. */
const PER_CALL_FILES = [
  'src/core/call/api-promise.ts',
  'src/core/token/auth.ts',
  'src/core/call/call-context.ts',
  'src/core/call/call.ts',
  'src/core/transport/connector.ts',
  'src/core/error-body.ts',
  'src/core/call/http.ts',
  'src/core/call/limiter.ts',
  'src/core/transport/node-connector.ts',
  'src/core/call/operation.ts',
  'src/core/results/pagination.ts',
  'src/core/call/raw-request.ts',
  'src/core/observability/tracing.ts',
  'src/core/transport/transport.ts',
  'src/core/transport/undici-transport.ts',
  'src/core/call/validate.ts',
  'src/resources/applicant-groups.ts',
  'src/resources/reports.ts',
  'src/resources/screening-groups.ts',
];

/** Lines (1-based) where an object literal spreads a value and then adds a key of its own. */
function spreadsThenKeys(fileName: string, text: string): number[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const first = node.properties.findIndex(ts.isSpreadAssignment);
      if (first !== -1 && node.properties.slice(first + 1).some((member) => !ts.isSpreadAssignment(member))) {
        lines.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

describe('the per-call path', () => {
  it('finds a spread followed by keys, and passes literals and plain spreads', () => {
    const planted = [
      'const a = { ...call, search };',
      'const b = { ...base, ...extra };',
      'const c = { method, ...rest };',
      'const d = {\n  ...options,\n  method: "GET",\n};',
    ].join('\n');
    expect(spreadsThenKeys('planted.ts', planted)).toEqual([1, 4]);
  });

  it.each(PER_CALL_FILES)('%s has no object spread followed by keys', (file) => {
    expect(spreadsThenKeys(file, readFileSync(file, 'utf8'))).toEqual([]);
  });
});
