/**
 * Every public export of the entry points (`applicant-verification`, `/schemas`, `/testing`, `/redis`,
 * `/households`)
 * carries a JSDoc comment, and so does every public member of the exported classes and
 * interfaces: the API reference (`npm run docs`) and editors' hovers
 * show nothing else. The same walk over the declarations of the packed package, with an editor's
 * hovers, is test/package/declarations.test.ts (the packaging checks run it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { compilerOptions, findUndocumented, root } from '../support/jsdoc.js';

const ENTRY_POINTS = [
  'src/index.ts',
  'src/schemas/index.ts',
  'src/testing/index.ts',
  'src/redis/index.ts',
  'src/households/index.ts',
];

describe('JSDoc on the public API', () => {
  const program = ts.createProgram(
    ENTRY_POINTS.map((entry) => `${root}${entry}`),
    // Without @types/node: the walk follows exports and comments, which no Node type changes,
    // and the program loads in two thirds of the time.
    { ...compilerOptions(), types: [] },
  );

  for (const entry of ENTRY_POINTS) {
    it(`documents every export of ${entry}`, () => {
      const undocumented = findUndocumented(program, `${root}${entry}`);
      expect(undocumented, `Add a JSDoc comment (/** ... */) to:\n  ${undocumented.join('\n  ')}`).toEqual(
        [],
      );
    });
  }

  it('walks re-exports and export * (the entry points export many symbols)', () => {
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(`${root}src/index.ts`);
    const exports = source && checker.getSymbolAtLocation(source);
    const names = exports ? checker.getExportsOfModule(exports).map((symbol) => symbol.name) : [];
    // Direct, renamed-type and `export *` exports alike.
    expect(names).toEqual(
      expect.arrayContaining(['VerificationClient', 'ApplicantGroup', 'isIncomeReport', 'toIsoDate']),
    );
    expect(names.length).toBeGreaterThan(100);
  });

  it('flags an undocumented export, member and re-export, and accepts documented ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsdoc-check-'));
    try {
      writeFileSync(
        join(dir, 'lib.ts'),
        [
          '/** Documented. */ export const documented = 1;',
          'export const bare = 2;',
          'export function plain(): void {}',
          '/** A class. */ export class Thing {',
          '  /** @param size how big */ constructor(size: number) { this.ok = size; }',
          '  /** Documented member. */ ok = 1;',
          '  bareMember = 2;',
          '  private hidden = 3;',
          '  #secret = 4;',
          '  /** @internal */ internalOnly = 5;',
          '}',
          '/** An interface. */ export interface Shape {',
          '  /** Side. */ side: number;',
          '  area: number;',
          '}',
          '// a line comment is not JSDoc',
          'export type Alias = string;',
        ].join('\n'),
      );
      writeFileSync(
        join(dir, 'entry.ts'),
        "export * from './lib.js';\nexport { bare as renamed } from './lib.js';",
      );
      const entry = join(dir, 'entry.ts');
      const virtual = ts.createProgram([entry], {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: [],
      });
      const found = findUndocumented(virtual, entry).map((line) => line.replace(/ \(.*$/, ''));
      expect(found.sort()).toEqual(
        ['Alias', 'Shape.area', 'Thing.bareMember', 'bare', 'plain', 'renamed'].sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
