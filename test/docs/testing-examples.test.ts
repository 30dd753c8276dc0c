/**
 * docs/testing.md's TypeScript examples run as written: each `ts` block is taken from the page,
 * its types stripped (esbuild), its imports bound to the modules the package names stand for,
 * and run. An example that breaks (a renamed option, a changed default, a failing assertion)
 * fails `npm test`.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { transform } from 'esbuild';
import * as msw from 'msw';
import * as mswNode from 'msw/node';
import { describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';
import * as testing from '../../src/testing/index.js';
import * as testingMsw from '../../src/testing/msw.js';

const PAGE = 'docs/testing.md';
const markdown = readFileSync(new URL(`../../${PAGE}`, import.meta.url), 'utf8');

/** The modules an example may import, by the name a user imports them by. */
const MODULES: Readonly<Record<string, object>> = {
  'applicant-verification': sdk,
  'applicant-verification/testing': testing,
  'applicant-verification/testing/msw': testingMsw,
  msw,
  'msw/node': mswNode,
  'node:assert/strict': assert,
};

/** One fenced `ts` block: its code (indentation of a list item removed) and its line in the page. */
interface Example {
  line: number;
  code: string;
}

/** The page's fenced `ts` blocks, at any indentation. */
function examples(text: string): Example[] {
  const found: Example[] = [];
  const fence = /^( *)```ts\n([\s\S]*?)^\1```$/gm;
  for (const match of text.matchAll(fence)) {
    const indent = match[1] ?? '';
    const body = (match[2] ?? '')
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n');
    found.push({ line: text.slice(0, match.index).split('\n').length, code: body });
  }
  return found;
}

/** `import ... from '...'` statements (as esbuild prints them) as lookups in {@link MODULES}. */
function bindImports(code: string): string {
  const bound = code
    .replace(/^import (\w+) from "([^"]+)";$/gm, (_all, name: string, from: string) => {
      return `const ${name} = __module(${JSON.stringify(from)}).default;`;
    })
    .replace(/^import \{([^}]*)\} from "([^"]+)";$/gm, (_all, names: string, from: string) => {
      const fields = names.replace(/\s+as\s+/g, ': ');
      return `const {${fields}} = __module(${JSON.stringify(from)});`;
    });
  const left = /^import\b.*$/m.exec(bound);
  if (left) throw new Error(`an import form the runner does not bind: ${left[0]}`);
  return bound;
}

function moduleNamed(name: string): object {
  const found = MODULES[name];
  if (found === undefined) throw new Error(`the example imports "${name}": add it to MODULES`);
  return found;
}

type AsyncFunctionConstructor = new (...args: string[]) => (...args: unknown[]) => Promise<unknown>;
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as AsyncFunctionConstructor;

async function run(example: Example): Promise<void> {
  const { code } = await transform(example.code, { loader: 'ts', format: 'esm', target: 'es2022' });
  await new AsyncFunction('__module', bindImports(code))(moduleNamed);
}

const found = examples(markdown);

describe(`${PAGE} examples`, () => {
  it('are every ts block of the page', () => {
    const fences = markdown.match(/^ *```ts$/gm) ?? [];
    expect(found.length).toBe(fences.length);
    expect(found.length).toBeGreaterThanOrEqual(6);
  });

  for (const example of found) {
    it(`the example at line ${example.line} runs`, async () => {
      await run(example);
    });
  }

  it('the runner fails an example that throws', async () => {
    const broken = {
      line: 0,
      code: "import { createMockApi } from 'applicant-verification/testing';\ncreateMockApi({ pageSize: 0 });",
    };
    await expect(run(broken)).rejects.toThrow(/pageSize must be an integer >= 1/);
  });
});
