/**
 * `npm run docs:snippets`: every TypeScript and JavaScript snippet of README.md and docs/*.md
 * compiles (strict, against the sources under the package's names), and the ones written to run
 * run against the mock and exit 0 (CONTRIBUTING.md, "Documentation snippets").
 *
 *   npm run docs:snippets                 # check every snippet, run the `run` ones
 *   npm run docs:snippets -- --no-run     # type-check only
 *   npm run docs:snippets -- docs/cli.md  # the snippets of these pages only
 *   npm run docs:snippets -- --package DIR --scratch DIR2
 *     against a built or installed package's exports instead of the sources, the scratch project
 *     in DIR2 (default .tmp/doc-snippets): put it in the project that installed the package, so
 *     the snippets' other imports (msw, ioredis, express) are the copies the package sees
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { typeCheck, writeSnippetFiles } from './doc-snippets/check.js';
import { type AnnotationProblem, extractSnippets, type Snippet } from './doc-snippets/extract.js';
import { runSnippets } from './doc-snippets/run.js';
import { packageTargets } from './doc-snippets/targets.js';

const root = resolve(import.meta.dirname, '..');

/**
 * README.md and every Markdown file under docs/, relative to the repository; not docs/api/, the
 * API reference typedoc writes there (copies of these pages among it), which is never committed.
 */
function pages(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.md') && !name.startsWith('api/'))
    .map((name) => `docs/${name}`)
    .sort();
  return ['README.md', ...docs];
}

/** The value after `flag` in `args`, if the flag is there. */
function flagValue(args: readonly string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  if (at === -1) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--'))
    throw new Error(`doc-snippets: ${flag} needs a directory`);
  return value;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const noRun = args.includes('--no-run');
  const packageDir = flagValue(args, '--package');
  const scratch = resolve(flagValue(args, '--scratch') ?? join(root, '.tmp/doc-snippets'));
  const targets = packageTargets(root, packageDir === undefined ? undefined : resolve(packageDir));
  const only = args.filter(
    (arg, index) => !arg.startsWith('--') && !/^--(package|scratch)$/.test(args[index - 1] ?? ''),
  );
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
    `the package's names: ${packageDir === undefined ? 'the sources (src/)' : resolve(packageDir)}`,
  );
  console.log(
    `${snippets.length} snippets: ${count('module')} modules, ${count('run')} run, ${count('fragment')} fragments, ${count('skip')} skipped`,
  );
  for (const snippet of snippets.filter((s) => s.kind === 'skip'))
    console.log(`  skipped ${snippet.page}:${snippet.line}: ${snippet.reason}`);

  const files = writeSnippetFiles(root, scratch, snippets);
  const errors = typeCheck(root, scratch, targets, files);
  for (const error of errors) console.error(`${error.where}: ${error.message}`);
  const broken = new Set(errors.map((error) => error.snippet));
  console.log(`type-checked ${files.length}: ${files.length - broken.size} compile, ${broken.size} do not`);

  let failedRuns = 0;
  if (!noRun) {
    const runnable = files.filter((file) => file.snippet.kind === 'run' && !broken.has(file.snippet));
    const results = await runSnippets(root, scratch, targets, runnable);
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
