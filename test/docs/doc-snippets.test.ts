/**
 * `npm run docs:snippets` (scripts/doc-snippets.ts): how it reads the docs' blocks and their
 * annotations, and what a fragment is compiled with. The compiler and the runs (seconds each) are
 * tested in test/seams/doc-snippets.test.ts; the full check is its own CI step.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fragmentHeader, namesUsed } from '../../scripts/doc-snippets/check.js';
import { extractSnippets } from '../../scripts/doc-snippets/extract.js';

const ROOT = join(import.meta.dirname, '../..');

describe('extractSnippets', () => {
  const page = [
    '# A page', //                                      1
    '', //                                              2
    '```ts', //                                         3
    "import { x } from 'applicant-verification';", //  4
    '```', //                                           5
    'Text:', //                                         6
    '<!-- snippet: fragment -->', //                    7
    '```typescript', //                                 8
    'await client.applicantGroups.list();', //          9
    '```', //                                          10
    '- a list item', //                                11
    '  <!-- snippet: run -->', //                      12
    '  ```js', //                                      13
    '  console.log(1);', //                            14
    '    nested();', //                                15
    '  ```', //                                        16
    '<!-- snippet: skip needs a Hono app -->', //      17
    '```mjs', //                                       18
    'app.get();', //                                   19
    '```', //                                          20
    '```sh', //                                        21
    'npm test', //                                     22
    '```', //                                          23
  ].join('\n');

  it('finds every ts, typescript, js and mjs block, its line, its kind, and its code unindented', () => {
    const { snippets, problems } = extractSnippets('docs/page.md', page);
    expect(problems).toEqual([]);
    expect(snippets).toEqual([
      {
        page: 'docs/page.md',
        line: 3,
        language: 'ts',
        javascript: false,
        kind: 'module',
        code: "import { x } from 'applicant-verification';\n",
      },
      {
        page: 'docs/page.md',
        line: 8,
        language: 'typescript',
        javascript: false,
        kind: 'fragment',
        code: 'await client.applicantGroups.list();\n',
      },
      {
        page: 'docs/page.md',
        line: 13,
        language: 'js',
        javascript: true,
        kind: 'run',
        code: 'console.log(1);\n  nested();\n',
      },
      {
        page: 'docs/page.md',
        line: 18,
        language: 'mjs',
        javascript: true,
        kind: 'skip',
        reason: 'needs a Hono app',
        code: 'app.get();\n',
      },
    ]);
  });

  it('names each annotation it cannot read: a skip without a reason, an unknown kind, text after a kind, one not before a fence', () => {
    const broken = [
      '<!-- snippet: skip -->',
      '```ts',
      'a();',
      '```',
      '<!-- snippet: fragmnet -->',
      '```ts',
      'b();',
      '```',
      '<!-- snippet: run please -->',
      '```ts',
      'c();',
      '```',
      '<!-- snippet: run -->',
      '',
      '```ts',
      'd();',
      '```',
      '```ts',
      'never closed',
    ].join('\n');
    const { snippets, problems } = extractSnippets('README.md', broken);
    expect(problems).toEqual([
      { page: 'README.md', line: 1, message: 'a skipped snippet needs a reason: <!-- snippet: skip why -->' },
      {
        page: 'README.md',
        line: 5,
        message: 'unknown snippet kind "fragmnet" (one of module, run, fragment, skip)',
      },
      { page: 'README.md', line: 9, message: '"run" takes no text after it (only skip has a reason)' },
      {
        page: 'README.md',
        line: 13,
        message: 'a snippet annotation must be on the line just before its fence',
      },
      { page: 'README.md', line: 18, message: 'the fence is never closed' },
    ]);
    expect(snippets.map((snippet) => [snippet.line, snippet.kind])).toEqual([
      [2, 'skip'],
      [6, 'module'],
      [10, 'run'],
      [15, 'module'],
    ]);
  });

  it("reads every page's annotations, each skip with its reason, and misses no TypeScript or JavaScript fence", () => {
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ];
    let count = 0;
    for (const page of pages) {
      const markdown = readFileSync(join(ROOT, page), 'utf8');
      const { snippets, problems } = extractSnippets(page, markdown);
      expect(problems, page).toEqual([]);
      for (const snippet of snippets.filter((s) => s.kind === 'skip'))
        expect(snippet.reason, page).not.toBe('');
      expect(snippets.length, page).toBe(
        markdown.match(/^ *```(ts|typescript|js|javascript|mjs)\b/gm)?.length ?? 0,
      );
      count += snippets.length;
    }
    expect(count).toBeGreaterThanOrEqual(50);
  });
});

describe('fragments and the preludes', () => {
  it('imports the prelude names a fragment uses, never one it declares or imports, nor a property', () => {
    const names = ['client', 'groupId', 'store', 'express', 'report', 'GroupStore', 'Token'];
    const code = [
      "import express from 'express';",
      "import { type GroupStore, type StoredToken as Token } from 'applicant-verification';",
      'const { report } = await read();',
      'const page = await client.applicantGroups.list();',
      'page.store; // a property, not the name',
      'await decide(groupId);',
    ].join('\n');
    expect(namesUsed(code, names)).toEqual(['client', 'groupId']);
  });

  it("takes a name from the page's own prelude first (docs/platforms.md's apply has the account)", () => {
    const header = fragmentHeader(ROOT, {
      page: 'docs/platforms.md',
      line: 1,
      language: 'ts',
      javascript: false,
      kind: 'fragment',
      code: 'await apply(account, change); await client.applicantGroups.list();\n',
    });
    expect(header).toBe(
      "import { apply } from './prelude/docs-platforms.js'; import { client } from './prelude/common.js';\n",
    );
  });
});
