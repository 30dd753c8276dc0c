/**
 * Every public export of both entry points (`applicant-verification` and
 * `applicant-verification/testing`) carries a JSDoc comment, and so does every public member of
 * the exported classes and interfaces: the API reference (`npm run docs`) and editors' hovers
 * show nothing else. Walks the exports with the TypeScript compiler API, following re-exports and
 * `export *` to the declarations.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY_POINTS = ['src/index.ts', 'src/testing/index.ts'];

function compilerOptions(): ts.CompilerOptions {
  const configPath = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json');
  if (!configPath) throw new Error('tsconfig.json not found');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, root).options;
}

/** A JSDoc block with some text: a description, or a tag that says something (`@param x the ...`). */
function hasJsDoc(node: ts.Node): boolean {
  return ts.getJSDocCommentsAndTags(node).some((doc) => {
    if (!ts.isJSDoc(doc)) return false;
    const texts = [doc.comment, ...(doc.tags ?? []).map((tag) => tag.comment)];
    return texts.some((text) => (ts.getTextOfJSDocComment(text) ?? '').trim().length > 0);
  });
}

function where(node: ts.Node): string {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart());
  return `${relative(root, file.fileName)}:${line + 1}`;
}

function isPublicMember(member: ts.Node): boolean {
  if (!ts.canHaveModifiers(member)) return true;
  const flags = ts.getCombinedModifierFlags(member as ts.Declaration);
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return false;
  // An override inherits the documentation of the member it overrides (`name`, `toJSON`).
  if (flags & ts.ModifierFlags.Override) return false;
  const name = ts.getNameOfDeclaration(member as ts.Declaration);
  if (name && ts.isPrivateIdentifier(name)) return false;
  // `@internal` members are hidden from the reference on purpose.
  return !ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal');
}

/** Members that need their own comment: named properties, methods, accessors, constructors with parameters. */
function documentableMembers(declaration: ts.Declaration): ts.Node[] {
  if (!ts.isClassDeclaration(declaration) && !ts.isInterfaceDeclaration(declaration)) return [];
  return declaration.members.filter((member) => {
    if (!isPublicMember(member)) return false;
    if (ts.isConstructorDeclaration(member)) return member.parameters.length > 0;
    if (ts.isIndexSignatureDeclaration(member) || ts.isClassStaticBlockDeclaration(member)) return false;
    // Overload signatures share the implementation's comment; a computed key like
    // `[inspect.custom]` is a Node hook, not API.
    if (ts.isMethodDeclaration(member) && member.body === undefined && ts.isClassDeclaration(declaration))
      return false;
    const name = ts.getNameOfDeclaration(member as ts.Declaration);
    return name !== undefined && !ts.isComputedPropertyName(name);
  });
}

/** `name (file:line)` of each public export, or member of one, without a JSDoc comment. */
function findUndocumented(program: ts.Program, entry: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`${entry} is not part of the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${entry} is not a module`);
  const missing: string[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarations = symbol.declarations ?? [];
    if (declarations.length === 0) missing.push(`${exported.name} (no declaration found)`);
    for (const declaration of declarations) {
      // A function's overloads share one comment: the first signature carries it.
      if (ts.isFunctionDeclaration(declaration) && declaration.body && declarations.length > 1) continue;
      if (!hasJsDoc(declaration)) missing.push(`${exported.name} (${where(declaration)})`);
      for (const member of documentableMembers(declaration)) {
        if (!hasJsDoc(member)) {
          const name = ts.isConstructorDeclaration(member)
            ? 'constructor'
            : (ts.getNameOfDeclaration(member as ts.Declaration)?.getText() ?? '?');
          missing.push(`${exported.name}.${name} (${where(member)})`);
        }
      }
    }
  }
  return missing;
}

describe('JSDoc on the public API', () => {
  const program = ts.createProgram(
    ENTRY_POINTS.map((entry) => `${root}${entry}`),
    compilerOptions(),
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
      expect.arrayContaining(['VerificationClient', 'ApplicantGroup', 'applicantGroupSchema', 'toIsoDate']),
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
