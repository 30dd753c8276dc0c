/**
 * Type-checks the docs' snippets (extract.ts) with the TypeScript compiler, strict, each as a
 * module of its own in a scratch project under `.tmp/doc-snippets/`, where the package's names
 * (`applicant-verification`, `/testing`, `/testing/msw`, `/redis`, `/schemas`, `/households`,
 * `/openapi.json`) resolve to the sources or to a package's declarations (targets.ts). A
 * `fragment` gets, on its first line, an import of the names it uses from the preludes
 * (prelude/: the page's own, then common.ts): the client, ids and stores the text around it
 * introduces.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import type { Snippet } from './extract.js';
import type { PackageTargets } from './targets.js';

/** A snippet as a file of the scratch project. */
export interface SnippetFile {
  snippet: Snippet;
  /** Absolute path of the file. */
  path: string;
  /** Lines added before the snippet's code (the prelude import of a fragment). */
  headerLines: number;
}

/** A compiler error in a snippet, placed at its line in the page. */
export interface SnippetError {
  snippet: Snippet;
  /** `docs/cli.md:317`. */
  where: string;
  message: string;
}

/** The names a prelude exports: its `export declare`d names and its re-exports. */
export function preludeNames(prelude: string): string[] {
  const names: string[] = [];
  for (const match of prelude.matchAll(/^export declare (?:const|function|class) (\w+)/gm))
    names.push(match[1] ?? '');
  for (const match of prelude.matchAll(/^export (?:type )?\{([^}]*)\}/gm)) {
    for (const part of (match[1] ?? '').split(',')) {
      const name =
        part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .pop() ?? '';
      if (name !== '') names.push(name);
    }
  }
  return [...new Set(names)];
}

/** The prelude file of `page` (`docs/platforms.md`: `docs-platforms`), without extension. */
export function pagePrelude(page: string): string {
  return page.replace(/\.md$/, '').replace(/[^\w]+/g, '-');
}

/** A fragment's first line: imports of the prelude names it uses, the page's prelude first. */
export function fragmentHeader(root: string, snippet: Snippet): string {
  const dir = join(root, 'scripts/doc-snippets/prelude');
  const pageFile = join(dir, `${pagePrelude(snippet.page)}.ts`);
  const pageNames = existsSync(pageFile) ? preludeNames(readFileSync(pageFile, 'utf8')) : [];
  const commonNames = preludeNames(readFileSync(join(dir, 'common.ts'), 'utf8')).filter(
    (name) => !pageNames.includes(name),
  );
  const imports: string[] = [];
  const fromPage = namesUsed(snippet.code, pageNames);
  if (fromPage.length > 0)
    imports.push(`import { ${fromPage.join(', ')} } from './prelude/${pagePrelude(snippet.page)}.js';`);
  const fromCommon = namesUsed(snippet.code, commonNames);
  if (fromCommon.length > 0) imports.push(`import { ${fromCommon.join(', ')} } from './prelude/common.js';`);
  return imports.length > 0 ? `${imports.join(' ')}\n` : '';
}

/** The prelude names a fragment uses and does not declare or import itself. */
export function namesUsed(code: string, names: readonly string[]): string[] {
  const declared = new Set<string>();
  for (const match of code.matchAll(/\b(?:const|let|var|function|class|type|interface)\s+(\w+)/g))
    declared.add(match[1] ?? '');
  for (const match of code.matchAll(/^import\s+(?:type\s+)?(?:\*\s+as\s+)?(\w+)/gm))
    declared.add(match[1] ?? '');
  for (const match of code.matchAll(/^import\s+(?:type\s+)?(?:\w+\s*,\s*)?\{([^}]*)\}/gm)) {
    for (const part of (match[1] ?? '').split(','))
      declared.add(
        part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .pop() ?? '',
      );
  }
  for (const match of code.matchAll(/\{([^}=]*)\}\s*=/g)) {
    for (const part of (match[1] ?? '').split(',')) declared.add(part.trim().split(':').pop()?.trim() ?? '');
  }
  return names.filter((name) => !declared.has(name) && new RegExp(`(?<![\\w.$])${name}\\b`).test(code));
}

/** The scratch project's compiler options: strict, as a user's `tsc --init` project is. */
export function compilerOptions(root: string, dir: string, targets: PackageTargets): ts.CompilerOptions {
  const paths: Record<string, string[]> = {};
  for (const [name, target] of Object.entries(targets.types)) paths[name] = [target];
  return {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    allowJs: true,
    checkJs: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    // The project's own @types first (a consumer project's, in --scratch), then the repository's.
    typeRoots: [join(dir, '../node_modules/@types'), join(root, 'node_modules/@types')].filter((path) =>
      existsSync(path),
    ),
    paths,
  };
}

/** Writes each snippet (skips aside) and the prelude into `dir`, emptied first. */
export function writeSnippetFiles(root: string, dir: string, snippets: readonly Snippet[]): SnippetFile[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(root, 'scripts/doc-snippets/prelude'), join(dir, 'prelude'), { recursive: true });
  const files: SnippetFile[] = [];
  for (const snippet of snippets) {
    if (snippet.kind === 'skip') continue;
    const base = `${snippet.page.replace(/\.md$/, '').replace(/[^\w]+/g, '-')}-${snippet.line}`;
    const path = join(dir, `${base}.${snippet.javascript ? 'mjs' : 'ts'}`);
    const header = snippet.kind === 'fragment' ? fragmentHeader(root, snippet) : '';
    // `export {}`: a snippet without an import is a module too, so its names stay its own.
    writeFileSync(path, `${header}${snippet.code}export {};\n`);
    files.push({ snippet, path, headerLines: header === '' ? 0 : 1 });
  }
  return files;
}

/** Compiles the files in one program; the errors found in them, placed in their pages. */
export function typeCheck(
  root: string,
  dir: string,
  targets: PackageTargets,
  files: readonly SnippetFile[],
): SnippetError[] {
  const program = ts.createProgram(
    files.map((file) => file.path),
    compilerOptions(root, dir, targets),
  );
  const errors: SnippetError[] = [];
  for (const diagnostic of program.getOptionsDiagnostics()) {
    throw new Error(
      `doc-snippets: compiler options: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
    );
  }
  for (const file of files) {
    const source = program.getSourceFile(file.path);
    if (!source) throw new Error(`doc-snippets: the compiler did not read ${relative(root, file.path)}`);
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    for (const diagnostic of diagnostics) {
      const at =
        diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line;
      const line = file.snippet.line + 1 + Math.max(0, at - file.headerLines);
      errors.push({
        snippet: file.snippet,
        where: `${file.snippet.page}:${line}`,
        message: `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
      });
    }
  }
  return errors;
}
