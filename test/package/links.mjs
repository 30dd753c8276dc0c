/**
 * The installed package stands alone: run by `.ci/package-checks` on the package a user's project
 * installed from the tarball (`node links.mjs <node_modules/applicant-verification>`). It fails when
 *   - a relative link of README.md or docs/*.md (Markdown or HTML) does not resolve to a file in
 *     the package, or its #fragment to a heading of the Markdown file it points at;
 *   - a path README.md, docs/*.md or a comment of examples/ names (`docs/....md`,
 *     `examples/...`) is not in the package;
 *   - a document the declarations or the code in dist/ cite (`docs/wire-contract.md §4.1`) is
 *     not in the package;
 *   - any of them names a test file of the repository (`test/....test.ts`): tests are not shipped.
 * Plain Node, no dependencies: it runs in the consumer project, outside the repository.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(process.argv[2] ?? '.');
if (!existsSync(join(root, 'package.json'))) {
  console.error(`links.mjs: ${root} is not a package directory`);
  process.exit(2);
}
const problems = [];
const problem = (file, text) => problems.push(`${file}: ${text}`);

/** Files under `dir` (relative to the package), recursively, or none when it is absent. */
function filesIn(dir) {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((file) => statSync(join(root, file)).isFile());
}

const read = (file) => readFileSync(join(root, file), 'utf8');
const isInside = (file) => file !== '..' && !file.startsWith(`..${sep}`) && !file.startsWith(sep);

/** Markdown outside fenced code blocks and inline code spans. */
function prose(markdown) {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line.replace(/`[^`]*`/g, '``');
    })
    .join('\n');
}

/** Inline code spans of a Markdown file, fenced blocks excluded. */
function codeSpans(markdown) {
  let fenced = false;
  const spans = [];
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) for (const [, span] of line.matchAll(/`([^`]+)`/g)) spans.push(span);
  }
  return spans;
}

/** The anchors of a Markdown file's headings, as GitHub and most renderers make them. */
const anchorCache = new Map();
function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of read(file).split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of read(file).matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
  anchorCache.set(file, anchors);
  return anchors;
}

/** Checks one relative link target written in `from`. */
function checkLink(from, target) {
  const [path, fragment] = target.split('#', 2);
  const file = path === '' ? from : relative(root, resolve(root, dirname(from), decodeURI(path)));
  if (!isInside(file)) return problem(from, `link "${target}" leaves the package`);
  if (!existsSync(join(root, file))) return problem(from, `link "${target}": ${file} is not in the package`);
  if (fragment && file.endsWith('.md') && !anchorsOf(file).has(fragment.toLowerCase()))
    problem(from, `link "${target}": ${file} has no heading #${fragment}`);
}

const external = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
const TEST_FILE = /(?:^|[\s(`'"/])(test\/[\w./-]+\.(?:[cm]?[jt]s|json))/;
const PACKAGE_PATH = /(?:^|[\s(`'"])((?:docs|examples)\/[\w.-]+\.\w+)(#[\w-]+)?/g;

let links = 0;
const documents = ['README.md', ...filesIn('docs').filter((file) => file.endsWith('.md'))];
for (const file of documents) {
  const markdown = read(file);
  const text = prose(markdown);
  const targets = [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((match) => match[1]),
    ...[...text.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g)].map((match) => match[1]),
  ];
  for (const target of targets) {
    if (external(target)) continue;
    links++;
    checkLink(file, target);
  }
  for (const span of codeSpans(markdown)) {
    const test = TEST_FILE.exec(span);
    if (test) problem(file, `names ${test[1]}: test files are not shipped`);
    for (const [, path] of ` ${span}`.matchAll(PACKAGE_PATH)) {
      links++;
      checkLink('README.md', path);
    }
  }
  const test = TEST_FILE.exec(text);
  if (test) problem(file, `names ${test[1]}: test files are not shipped`);
}

/** Comment text of a source file: `//` lines and `/* ... *\/` blocks. */
const commentsOf = (source) =>
  [...source.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)].map((match) => match[0]).join('\n');

for (const file of filesIn('examples').filter((name) => /\.[cm]?[jt]s$/.test(name))) {
  const comments = commentsOf(read(file));
  const test = TEST_FILE.exec(comments);
  if (test) problem(file, `names ${test[1]} in a comment: test files are not shipped`);
  for (const [, path, fragment = ''] of comments.matchAll(PACKAGE_PATH)) {
    links++;
    checkLink('README.md', `${path}${fragment}`);
  }
  for (const [, target] of comments.matchAll(/\]\(\s*([^)\s]+)\s*\)/g)) {
    if (external(target)) continue;
    links++;
    checkLink(file, target);
  }
}

let citations = 0;
for (const file of filesIn('dist').filter((name) => /\.(d\.[cm]?ts|[cm]?js)$/.test(name))) {
  const cited = new Set(
    [...read(file).matchAll(/\b(docs\/[\w.-]+\.md)(#[\w-]+)?/g)].map((match) => match[1] + (match[2] ?? '')),
  );
  for (const document of cited) {
    citations++;
    const [path] = document.split('#');
    if (!existsSync(join(root, path))) problem(file, `cites ${document}, which is not in the package`);
    else checkLink('README.md', document);
  }
}

if (problems.length > 0) {
  console.error(`The installed package does not stand alone (${problems.length} problems):`);
  for (const line of problems) console.error(`  ${line}`);
  process.exit(1);
}
console.log(
  `${links} relative links and paths in README.md, docs/ and examples/ resolve inside the package; ` +
    `${citations} document citations in dist/ name shipped files.`,
);
