/**
 * Walks the exports of an entry point with the TypeScript compiler API, following re-exports and
 * `export *` to the declarations, and lists each public export or member without a JSDoc comment.
 * Shared by the check on `src` (test/docs/jsdoc.test.ts, in `npm test`) and the check on the
 * declarations of the installed package (test/package/declarations.test.ts, in the packaging checks).
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/** The project's compiler options (tsconfig.json). */
export function compilerOptions(): ts.CompilerOptions {
  const configPath = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json');
  if (!configPath) throw new Error('tsconfig.json not found');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, root).options;
}

/** A JSDoc block with some text: a description, or a tag that says something (`@param x the ...`). */
export function hasJsDoc(node: ts.Node): boolean {
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
export function findUndocumented(program: ts.Program, entry: string): string[] {
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
