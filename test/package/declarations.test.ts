/**
 * What a user's editor reads from the installed package: every export of the built declarations
 * (`index.d.ts`, `testing/index.d.ts`, `households/index.d.ts`) and every field of their interfaces carries its JSDoc, the
 * deprecated fields carry `@deprecated` with their replacement, and a language service over them
 * shows the hovers and strike-throughs an editor would.
 *
 * The packaging checks (`.ci/package-checks`) run this file on the declarations of the package
 * installed from `npm pack`: `DECLARATIONS_DIR=<dir> npx vitest run --project package`.
 * Without `DECLARATIONS_DIR` it reads `dist/` (`npm run build` first). Not part of `npm test`,
 * which builds nothing; test/docs/jsdoc.test.ts checks the same comments in `src`.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { findUndocumented, hasJsDoc, root } from '../support/jsdoc.js';

const DECLARATIONS = process.env.DECLARATIONS_DIR ?? join(root, 'dist');
const BUILT_ENTRY_POINTS = ['index.d.ts', 'testing/index.d.ts', 'households/index.d.ts'];

if (!existsSync(join(DECLARATIONS, 'index.d.ts'))) {
  throw new Error(
    `No declarations in ${DECLARATIONS}: run \`npm run build\` first, or set DECLARATIONS_DIR to an installed package's dist/.`,
  );
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
    const entries = BUILT_ENTRY_POINTS.map((entry) => join(DECLARATIONS, entry));
    program = ts.createProgram(entries, {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      skipLibCheck: true,
      types: ['node'],
    });
  });

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
      ['RentInDollars', 'monthly_rent'],
      ['RentInCents', 'monthly_rent_cents'],
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
    dir = mkdtempSync(join(tmpdir(), 'editor-check-'));
    consumer = join(dir, 'consumer.ts');
    const from = JSON.stringify(join(DECLARATIONS, 'index.js'));
    text = [
      `import type { ApplicantGroup, ApplicantGroupCreateInDollars, ScreeningGroup, ScreeningGroupCreateParams } from ${from};`,
      'declare const screening: ScreeningGroup;',
      'declare const group: ApplicantGroup;',
      'declare const body: ApplicantGroupCreateInDollars;',
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
  });

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
