/**
 * Every public export of both entry points (`applicant-verification` and
 * `applicant-verification/testing`) carries a JSDoc comment, and so does every public member of
 * the exported classes and interfaces: the API reference (`npm run docs`) and editors' hovers
 * show nothing else. Walks the exports with the TypeScript compiler API, following re-exports and
 * `export *` to the declarations: in `src`, and again in the BUILT declarations (`dist/*.d.ts`,
 * what a user installs), where a language-service check reads the hovers an editor would show.
 *
 * The built declarations are the folder named by `DECLARATIONS_DIR` (an installed package, say),
 * else `dist/` when it is newer than `src/` (CI builds before it tests), else declarations this
 * file emits once, in-process, into a temporary folder: `npm test` alone never builds or writes
 * `dist/` (no child process, no race with anything else reading it).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

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

/**
 * Whether a class member overrides one of a base class, and so shares its documentation: in
 * `.d.ts` files the `override` keyword is gone, so the base class tells.
 */
function inheritsDocumentation(checker: ts.TypeChecker, owner: ts.Declaration, member: ts.Node): boolean {
  if (!ts.isClassDeclaration(owner)) return false;
  const name = ts.getNameOfDeclaration(member as ts.Declaration);
  if (name === undefined || !ts.isIdentifier(name)) return false;
  const type = checker.getTypeAtLocation(owner);
  if (!type.isClass()) return false;
  return checker.getBaseTypes(type).some((base) => base.getProperty(name.text) !== undefined);
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
        if (!hasJsDoc(member) && !inheritsDocumentation(checker, declaration, member)) {
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

// ---------------------------------------------------------------------------------------------
// The built declarations: what a user's editor reads
// ---------------------------------------------------------------------------------------------

let DECLARATIONS = process.env.DECLARATIONS_DIR ?? join(root, 'dist');
const BUILT_ENTRY_POINTS = ['index.d.ts', 'testing/index.d.ts'];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Emits the entry points' declarations with the project's compiler options into a temporary
 * folder that is its own `applicant-verification` package (so the testing kit's imports of the
 * main entry resolve there, as they do in `dist/`), and returns the folder.
 */
function emitDeclarations(): string {
  const out = mkdtempSync(join(tmpdir(), 'declarations-'));
  const program = ts.createProgram(
    ENTRY_POINTS.map((entry) => join(root, entry)),
    {
      ...compilerOptions(),
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      outDir: out,
      rootDir: join(root, 'src'),
    },
  );
  const result = program.emit();
  if (result.emitSkipped) throw new Error('declaration emit failed');
  const types = (entry: string) => ({ types: entry, default: entry.replace(/\.d\.ts$/, '.js') });
  writeFileSync(
    join(out, 'package.json'),
    JSON.stringify({
      name: 'applicant-verification',
      type: 'module',
      exports: { '.': types('./index.d.ts'), './testing': types('./testing/index.d.ts') },
    }),
  );
  return out;
}

let ready = false;
/** Points {@link DECLARATIONS} at fresh declarations: see this file's header. */
function ensureBuilt(): void {
  if (ready || process.env.DECLARATIONS_DIR !== undefined) return;
  ready = true;
  const built = join(DECLARATIONS, 'index.d.ts');
  if (existsSync(built) && statSync(built).mtimeMs > newestSource(join(root, 'src'))) return;
  DECLARATIONS = emitDeclarations();
}

const DEPRECATED_FIELDS = [
  ['ScreeningGroup', 'approval_recommendation'],
  ['ScreeningGroup', 'income_multiplier_threshold'],
  ['ScreeningGroupCreateParams', 'income_multiplier_threshold'],
] as const;

/** The declaration of `name.member` among the exports of a built entry point. */
function memberOf(
  program: ts.Program,
  entry: string,
  name: string,
  member: string,
): ts.Declaration | undefined {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  const exported =
    moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((symbol) => symbol.name === name);
  if (!exported) return undefined;
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  return checker.getDeclaredTypeOfSymbol(symbol).getProperty(member)?.declarations?.[0];
}

describe('JSDoc in the built declarations', () => {
  let program: ts.Program;

  beforeAll(() => {
    ensureBuilt();
    const entries = BUILT_ENTRY_POINTS.map((entry) => join(DECLARATIONS, entry));
    program = ts.createProgram(entries, {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      skipLibCheck: true,
      types: ['node'],
    });
  }, 320_000);

  for (const entry of BUILT_ENTRY_POINTS) {
    it(`documents every export of ${entry} and every field of its interfaces`, () => {
      const undocumented = findUndocumented(program, join(DECLARATIONS, entry));
      expect(undocumented, `Undocumented in the built declarations:\n  ${undocumented.join('\n  ')}`).toEqual(
        [],
      );
    });
  }

  it('the public types are documented interfaces, field by field (no inferred zod types)', () => {
    const entry = join(DECLARATIONS, 'index.d.ts');
    for (const [name, member] of [
      ['ApplicantGroup', 'monthly_rent_cents'],
      ['ApplicantGroupCreateParams', 'monthly_rent'],
      ['ReportSummary', 'applicant_group_id'],
      ['IncomeStream', 'end_date'],
      ['ReportReadyEvent', 'applicant_id'],
    ] as const) {
      const declaration = memberOf(program, entry, name, member);
      expect(declaration && ts.isPropertySignature(declaration), `${name}.${member}`).toBe(true);
      expect(declaration && hasJsDoc(declaration), `${name}.${member} has JSDoc`).toBe(true);
    }
  });

  it.each(DEPRECATED_FIELDS)('%s.%s carries @deprecated with its replacement', (name, member) => {
    const declaration = memberOf(program, join(DECLARATIONS, 'index.d.ts'), name, member);
    const tag = declaration && ts.getJSDocDeprecatedTag(declaration);
    expect(tag, `${name}.${member}`).toBeDefined();
    expect(ts.getTextOfJSDocComment(tag?.comment)).toContain('criteria_rule_set_id');
  });
});

describe('an editor over the built declarations', () => {
  let dir: string;
  let service: ts.LanguageService;
  let consumer: string;
  let text: string;

  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'editor-check-'));
    consumer = join(dir, 'consumer.ts');
    const from = JSON.stringify(join(DECLARATIONS, 'index.js'));
    text = [
      `import type { ApplicantGroup, ApplicantGroupCreateParams, ScreeningGroup, ScreeningGroupCreateParams } from ${from};`,
      'declare const screening: ScreeningGroup;',
      'declare const group: ApplicantGroup;',
      'declare const body: ApplicantGroupCreateParams;',
      'declare const screeningBody: ScreeningGroupCreateParams;',
      'export const a = screening.approval_recommendation;',
      'export const b = screening.income_multiplier_threshold;',
      'export const c = body.monthly_rent;',
      'export const d = group.monthly_rent_cents;',
      'export const e = screeningBody.income_multiplier_threshold;',
    ].join('\n');
    writeFileSync(consumer, text);
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      skipLibCheck: true,
      types: ['node'],
    };
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => options,
      getScriptFileNames: () => [consumer],
      getScriptVersion: () => '1',
      getScriptSnapshot: (file) =>
        file === consumer
          ? ts.ScriptSnapshot.fromString(text)
          : ts.sys.fileExists(file)
            ? ts.ScriptSnapshot.fromString(ts.sys.readFile(file) ?? '')
            : undefined,
      getCurrentDirectory: () => root,
      getDefaultLibFileName: (settings) => ts.getDefaultLibFilePath(settings),
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    };
    service = ts.createLanguageService(host, ts.createDocumentRegistry());
    return () => rmSync(dir, { recursive: true, force: true });
  }, 320_000);

  function quickInfo(property: string, occurrence = 0): { documentation: string; tags: string[] } {
    let position = -1;
    for (let i = 0; i <= occurrence; i++) position = text.indexOf(`.${property};`, position + 1);
    expect(position, property).toBeGreaterThan(0);
    const info = service.getQuickInfoAtPosition(consumer, position + 1);
    return {
      documentation: ts.displayPartsToString(info?.documentation),
      tags: (info?.tags ?? []).map((tag) => `@${tag.name} ${ts.displayPartsToString(tag.text)}`),
    };
  }

  it('compiles: the consumer file has no errors', () => {
    const errors = [
      ...service.getSyntacticDiagnostics(consumer),
      ...service.getSemanticDiagnostics(consumer),
    ];
    expect(errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, '\n'))).toEqual([]);
  });

  it.each([
    ['approval_recommendation', 0],
    ['income_multiplier_threshold', 0],
    ['income_multiplier_threshold', 1],
  ] as const)(
    'quick info on %s (#%d) reports the deprecation and its replacement',
    (property, occurrence) => {
      const { tags } = quickInfo(property, occurrence);
      expect(tags.find((tag) => tag.startsWith('@deprecated'))).toMatch(/criteria_rule_set_id/);
    },
  );

  it('strikes the deprecated fields through (the suggestion diagnostics editors render)', () => {
    const deprecated = service
      .getSuggestionDiagnostics(consumer)
      .filter((diagnostic) => diagnostic.reportsDeprecated)
      .map((diagnostic) => text.slice(diagnostic.start, (diagnostic.start ?? 0) + (diagnostic.length ?? 0)));
    expect(deprecated.sort()).toEqual(
      ['approval_recommendation', 'income_multiplier_threshold', 'income_multiplier_threshold'].sort(),
    );
  });

  it('monthly_rent says dollars, monthly_rent_cents says cents', () => {
    expect(quickInfo('monthly_rent').documentation).toMatch(/\bdollars\b/i);
    expect(quickInfo('monthly_rent').documentation).toMatch(/not cents/i);
    expect(quickInfo('monthly_rent_cents').documentation).toMatch(/\bcents\b/i);
    expect(quickInfo('monthly_rent_cents').tags).toEqual([]);
  });
});
