/**
 * `npm run docs:snippets`: every TypeScript and JavaScript snippet of README.md and docs/*.md
 * compiles (strict, against the sources under the package's names), and the ones written to run
 * run against the mock and exit 0 (CONTRIBUTING.md, "Documentation snippets").
 *
 *   npm run docs:snippets                 # check every snippet, run the `run` ones
 *   npm run docs:snippets -- --no-run     # type-check only
 *   npm run docs:snippets -- docs/cli.md  # the snippets of these pages only
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { typeCheck, writeSnippetFiles } from './doc-snippets/check.js';
import { type AnnotationProblem, extractSnippets, type Snippet } from './doc-snippets/extract.js';
import { runSnippets } from './doc-snippets/run.js';

const root = resolve(import.meta.dirname, '..');
const scratch = join(root, '.tmp/doc-snippets');

/** README.md and every Markdown file under docs/, relative to the repository. */
function pages(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .sort();
  return ['README.md', ...docs];
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const noRun = args.includes('--no-run');
  const only = args.filter((arg) => !arg.startsWith('--'));
  const snippets: Snippet[] = [];
  const problems: AnnotationProblem[] = [];
  for (const page of pages()) {
    if (only.length > 0 && !only.includes(page)) continue;
    const found = extractSnippets(page, readFileSync(join(root, page), 'utf8'));
    snippets.push(...found.snippets);
    problems.push(...found.problems);
  }
  for (const problem of problems) console.error(`${problem.page}:${problem.line}: ${problem.message}`);

  const count = (kind: Snippet['kind']) => snippets.filter((snippet) => snippet.kind === kind).length;
  console.log(
    `${snippets.length} snippets: ${count('module')} modules, ${count('run')} run, ${count('fragment')} fragments, ${count('skip')} skipped`,
  );
  for (const snippet of snippets.filter((s) => s.kind === 'skip'))
    console.log(`  skipped ${snippet.page}:${snippet.line}: ${snippet.reason}`);

  const files = writeSnippetFiles(root, scratch, snippets);
  const errors = typeCheck(root, files);
  for (const error of errors) console.error(`${error.where}: ${error.message}`);
  const broken = new Set(errors.map((error) => error.snippet));
  console.log(`type-checked ${files.length}: ${files.length - broken.size} compile, ${broken.size} do not`);

  let failedRuns = 0;
  if (!noRun) {
    const runnable = files.filter((file) => file.snippet.kind === 'run' && !broken.has(file.snippet));
    const results = await runSnippets(root, scratch, runnable);
    for (const result of results) {
      const where = `${result.file.snippet.page}:${result.file.snippet.line}`;
      if (result.ok) console.log(`ran ${where}: exit 0 (${result.ms} ms)`);
      else {
        failedRuns += 1;
        console.error(`ran ${where}: ${result.failure}\n${result.output.trimEnd()}`);
      }
    }
  }
  return problems.length + errors.length + failedRuns === 0 ? 0 : 1;
}

process.exitCode = await main();
