/**
 * `npm run docs:snippets` (scripts/doc-snippets.ts): a snippet that does not compile fails at its
 * line in the page, and a `run` snippet runs in a process of its own against a fresh mock, passing
 * only when it exits 0. Seconds each (the compiler reads the SDK's types; tsx starts a process),
 * so here and not in npm test; how blocks and annotations are read: test/docs/doc-snippets.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { typeCheck, writeSnippetFiles } from '../../scripts/doc-snippets/check.js';
import type { Snippet } from '../../scripts/doc-snippets/extract.js';
import { runSnippets } from '../../scripts/doc-snippets/run.js';
import { packageTargets } from '../../scripts/doc-snippets/targets.js';

const ROOT = join(import.meta.dirname, '../..');
const targets = packageTargets(ROOT);
const scratches: string[] = [];
afterAll(() => {
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(join(ROOT, '.tmp', 'doc-snippets-test-'));
  scratches.push(dir);
  return dir;
}
function snippet(
  page: string,
  line: number,
  kind: Snippet['kind'],
  code: string,
  javascript = false,
): Snippet {
  return { page, line, language: javascript ? 'js' : 'ts', javascript, kind, code };
}

describe('typeCheck', () => {
  it('reports each error at its line in the page (a fragment header not counted), JavaScript too, skips unwritten', () => {
    const dir = scratch();
    const files = writeSnippetFiles(ROOT, dir, [
      snippet('docs/a.md', 10, 'module', 'const a = 1;\nconst b: string = a;\n'),
      snippet('docs/b.md', 20, 'fragment', 'const ok: string = groupId;\nconst bad: number = groupId;\n'),
      snippet('docs/c.md', 30, 'module', '/** @type {number} */\nconst n = "x";\n', true),
      { ...snippet('docs/d.md', 40, 'skip', 'nonsense(\n'), reason: 'broken on purpose' },
      snippet(
        'docs/e.md',
        50,
        'module',
        "import { VerificationClient } from 'applicant-verification';\nnew VerificationClient({ timeout: '1s' });\n",
      ),
    ]);
    expect(files.map((file) => file.path.slice(dir.length + 1))).toEqual([
      'docs-a-10.ts',
      'docs-b-20.ts',
      'docs-c-30.mjs',
      'docs-e-50.ts',
    ]);
    const errors = typeCheck(ROOT, dir, targets, files);
    expect(errors.map(({ where, message }) => `${where} ${message.split(':')[0]}`)).toEqual([
      'docs/a.md:12 TS2322',
      'docs/b.md:22 TS2322',
      'docs/c.md:32 TS2322',
      'docs/e.md:52 TS2322',
    ]);
  });
});

describe('runSnippets', () => {
  it('passes a script that calls the mock named by VERIFICATION_BASE_URL and exits 0; fails one that throws, with its output', async () => {
    const dir = scratch();
    const files = writeSnippetFiles(ROOT, dir, [
      snippet(
        'docs/ok.md',
        5,
        'run',
        [
          "import { readFile } from 'node:fs/promises';",
          "import { VerificationClient } from 'applicant-verification';",
          'const client = new VerificationClient({ logLevel: "off" });',
          'const page = await client.applicantGroups.list();',
          "const csv = await readFile('households.csv', 'utf8');",
          "console.log('groups', page.items.length, csv.slice(0, csv.indexOf(',')));",
          'await client.close();',
          '',
        ].join('\n'),
      ),
      snippet('docs/throws.md', 7, 'run', "throw new Error('as written, this throws');\n"),
    ]);
    const results = await runSnippets(ROOT, dir, targets, files);
    expect(results.map(({ file, ok, failure }) => ({ page: file.snippet.page, ok, failure }))).toEqual([
      { page: 'docs/ok.md', ok: true, failure: undefined },
      { page: 'docs/throws.md', ok: false, failure: 'exited with 1' },
    ]);
    expect(results[0]?.output.trim()).toBe('groups 0 household_key');
    expect(results[1]?.output).toContain('as written, this throws');
  });
});
