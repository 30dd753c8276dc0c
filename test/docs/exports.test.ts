/**
 * The public face of the package, name by name. The main entry exports what a user calls (the
 * client, its options, the errors, the documented types, the helpers the README and docs/ show),
 * the edge entry the same names, and `applicant-verification/schemas` the zod schemas; each list is
 * committed in test/docs/exports.json, so an export added or removed by accident fails here. An
 * export is a promise: add a name there on purpose, with its documentation and a CHANGELOG line.
 *
 * The README, docs/ and examples/ import only what the entry they name exports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as edge from '../../src/edge.js';
import * as main from '../../src/index.js';
import * as schemas from '../../src/schemas/index.js';
import { compilerOptions, root } from '../support/jsdoc.js';
import committed from './exports.json' with { type: 'json' };

/** The most values the main entry may export (issue: "a small public face"); types are free. */
const MAX_MAIN_VALUES = 80;

/** Each entry a document may import from, by the name a user imports it by. */
const ENTRY_FILES: Readonly<Record<string, string>> = {
  'applicant-verification': 'src/index.ts',
  'applicant-verification/schemas': 'src/schemas/index.ts',
  'applicant-verification/testing': 'src/testing/index.ts',
  'applicant-verification/testing/msw': 'src/testing/msw.ts',
  'applicant-verification/redis': 'src/redis/index.ts',
};

const program = ts.createProgram(
  [...Object.values(ENTRY_FILES), 'src/edge.ts'].map((file) => `${root}${file}`),
  // Without @types/node: listing exports needs no Node type, and the program loads faster.
  { ...compilerOptions(), types: [] },
);

/** Every name an entry exports, values and types alike, as the compiler sees it. */
function exportedNames(file: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(`${root}${file}`);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`${file} is not a module`);
  return checker
    .getExportsOfModule(symbol)
    .map((exported) => exported.name)
    .sort();
}

/** An entry's names split into the values it exports at run time and the names that are types only. */
function surface(module: object, file: string): { values: string[]; types: string[] } {
  const values = Object.keys(module).sort();
  return { values, types: exportedNames(file).filter((name) => !values.includes(name)) };
}

const ADD_ON_PURPOSE =
  'the entry exports other names than test/docs/exports.json lists: a new name is a promise to users; add it there on purpose (documented, in CHANGELOG.md), or keep it in its module';

describe('the entries export exactly their committed lists', () => {
  const mainSurface = surface(main, 'src/index.ts');

  it('main entry (applicant-verification)', () => {
    expect(mainSurface, ADD_ON_PURPOSE).toEqual(committed['applicant-verification']);
  });

  it(`main entry: at most ${MAX_MAIN_VALUES} values`, () => {
    expect(mainSurface.values.length).toBeLessThanOrEqual(MAX_MAIN_VALUES);
  });

  it('edge entry: the same names as the main entry (its stand-ins for what needs Node included)', () => {
    const edgeSurface = surface(edge, 'src/edge.ts');
    expect(edgeSurface.values).toEqual(mainSurface.values);
    // The Express and Fastify adapters' option types live beside the adapters, which load Node
    // modules the edge entry must not reach (.dependency-cruiser.cjs); its stand-ins take none.
    const nodeAdapterTypes = /^(Express|Fastify)Webhook/;
    expect(edgeSurface.types).toEqual(mainSurface.types.filter((name) => !nodeAdapterTypes.test(name)));
  });

  it('applicant-verification/schemas: the schemas, the lists of values, and the same wire types', () => {
    const schemasSurface = surface(schemas, 'src/schemas/index.ts');
    expect(schemasSurface.values, ADD_ON_PURPOSE).toEqual(committed['applicant-verification/schemas'].values);
    // The wire's types are the main entry's own: a schema user needs no second name for them.
    expect(schemasSurface.types.filter((name) => !mainSurface.types.includes(name))).toEqual([]);
  });
});

/** A document's `import { ... } from 'applicant-verification...'` lines (and `require` destructurings). */
function importsOf(text: string): { names: string[]; from: string }[] {
  const found: { names: string[]; from: string }[] = [];
  const patterns = [
    /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"](applicant-verification(?:\/[^'"]*)?)['"]/g,
    /const\s+\{([^}]*)\}\s*=\s*require\(\s*['"](applicant-verification(?:\/[^'"]*)?)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const [, list = '', from = ''] of text.matchAll(pattern)) {
      const names = list
        .split(',')
        .map(
          (item) =>
            item
              .replace(/^\s*type\s+/, '')
              .split(/\s+as\s+|:/)[0]
              ?.trim() ?? '',
        )
        .filter((name) => name !== '');
      found.push({ names, from });
    }
  }
  return found;
}

/** The README, every page of docs/ and every example: what a user reads and copies. */
function documents(): string[] {
  const docs = readdirSync(`${root}docs`).filter((file) => file.endsWith('.md'));
  const examples = readdirSync(`${root}examples`).filter((file) => file.endsWith('.ts'));
  return ['README.md', ...docs.map((file) => `docs/${file}`), ...examples.map((file) => `examples/${file}`)];
}

describe('the README, docs/ and examples/ import only what their entry exports', () => {
  const packageExports = Object.keys(
    (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, unknown> }).exports,
  );
  const namesByEntry = new Map(
    Object.entries(ENTRY_FILES).map(([entry, file]) => [entry, new Set(exportedNames(file))]),
  );

  it.each(documents())('%s', (document) => {
    const missing: string[] = [];
    for (const { names, from } of importsOf(readFileSync(`${root}${document}`, 'utf8'))) {
      const subpath = `.${from.slice('applicant-verification'.length)}`;
      if (!packageExports.includes(subpath)) {
        missing.push(`'${from}' (package.json exports no ${subpath})`);
        continue;
      }
      const exported = namesByEntry.get(from);
      // An entry that is not code (openapi.json, package.json) has no names to check.
      if (!exported) continue;
      for (const name of names) if (!exported.has(name)) missing.push(`${name} from '${from}'`);
    }
    expect(missing, `${document} imports what the entry does not export`).toEqual([]);
  });

  it('reads every form of import the documents use', () => {
    expect(
      importsOf(
        [
          "import { VerificationClient, type ApplicantGroup } from 'applicant-verification';",
          'import type { MockServer } from "applicant-verification/testing";',
          "import {\n  createMockApi,\n  createTestClock as clock,\n} from 'applicant-verification/testing';",
          "const { VerificationClient: Client, VERSION } = require('applicant-verification');",
          "import openapi from 'applicant-verification/openapi.json' with { type: 'json' };",
        ].join('\n'),
      ),
    ).toEqual([
      { names: ['VerificationClient', 'ApplicantGroup'], from: 'applicant-verification' },
      { names: ['MockServer'], from: 'applicant-verification/testing' },
      { names: ['createMockApi', 'createTestClock'], from: 'applicant-verification/testing' },
      { names: ['VerificationClient', 'VERSION'], from: 'applicant-verification' },
    ]);
  });
});
