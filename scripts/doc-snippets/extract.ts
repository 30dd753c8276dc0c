/**
 * The TypeScript and JavaScript snippets of README.md and docs/*.md, with what each declares it is
 * (CONTRIBUTING.md, "Documentation snippets"): every fenced block in `ts`, `typescript`, `js`,
 * `javascript` or `mjs`, at any indentation, and the `<!-- snippet: ... -->` comment on the
 * line before its fence, if any.
 */

/** What a snippet is, as its annotation says (none: `module`). */
export type SnippetKind =
  /** A complete module: type-checked alone, as written. */
  | 'module'
  /** A script written to run: type-checked alone, then run against the mock; it must exit 0. */
  | 'run'
  /** Uses names the text around it introduces (`client`, `groupId`): type-checked with the prelude's declarations of them. */
  | 'fragment'
  /** Not checked, for the reason given. */
  | 'skip';

/** The kinds an annotation may name. */
export const SNIPPET_KINDS: readonly SnippetKind[] = ['module', 'run', 'fragment', 'skip'];

/** One fenced block of a page. */
export interface Snippet {
  /** The page, relative to the repository (`docs/cli.md`). */
  page: string;
  /** Line of the opening fence in the page, from 1. */
  line: number;
  /** The fence's language, as written (`ts`, `js`, ...). */
  language: string;
  /** Whether it is JavaScript (checked as JavaScript, `checkJs`). */
  javascript: boolean;
  /** What its annotation says it is. */
  kind: SnippetKind;
  /** Why it is skipped (`skip` only). */
  reason?: string;
  /** The code, the fence's indentation removed. */
  code: string;
}

/** An annotation that cannot be read: an unknown kind, or a skip without a reason. */
export interface AnnotationProblem {
  page: string;
  line: number;
  message: string;
}

const FENCE = /^( *)```(ts|typescript|js|javascript|mjs)\b[^\n]*$/;
const ANNOTATION = /^ *<!--\s*snippet:\s*(.*?)\s*-->\s*$/;

/** The snippets of one page and the problems of its annotations. */
export function extractSnippets(
  page: string,
  markdown: string,
): { snippets: Snippet[]; problems: AnnotationProblem[] } {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  const problems: AnnotationProblem[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const annotation = ANNOTATION.exec(line);
    const next = lines[index + 1] ?? '';
    if (annotation && !FENCE.test(next)) {
      problems.push({
        page,
        line: index + 1,
        message: 'a snippet annotation must be on the line just before its fence',
      });
      continue;
    }
    const fence = FENCE.exec(line);
    if (!fence) continue;
    const indent = fence[1] ?? '';
    const language = fence[2] ?? 'ts';
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && (lines[end] ?? '') !== `${indent}\`\`\``) {
      const text = lines[end] ?? '';
      body.push(text.startsWith(indent) ? text.slice(indent.length) : text);
      end++;
    }
    if (end === lines.length) {
      problems.push({ page, line: index + 1, message: 'the fence is never closed' });
      break;
    }
    const declared = readAnnotation(page, index, lines[index - 1], problems);
    snippets.push({
      page,
      line: index + 1,
      language,
      javascript: language !== 'ts' && language !== 'typescript',
      kind: declared.kind,
      ...(declared.reason === undefined ? {} : { reason: declared.reason }),
      code: `${body.join('\n')}\n`,
    });
    index = end;
  }
  return { snippets, problems };
}

/** The annotation on the line before a fence (at `fenceIndex`), if any. */
function readAnnotation(
  page: string,
  fenceIndex: number,
  previous: string | undefined,
  problems: AnnotationProblem[],
): { kind: SnippetKind; reason?: string } {
  const match = previous === undefined ? null : ANNOTATION.exec(previous);
  if (!match) return { kind: 'module' };
  const [word = '', ...rest] = (match[1] ?? '').split(/\s+/);
  const reason = rest.join(' ').trim();
  const line = fenceIndex;
  const kind = SNIPPET_KINDS.find((known) => known === word);
  if (kind === undefined) {
    problems.push({
      page,
      line,
      message: `unknown snippet kind "${word}" (one of ${SNIPPET_KINDS.join(', ')})`,
    });
    return { kind: 'module' };
  }
  if (kind === 'skip') {
    if (reason === '')
      problems.push({ page, line, message: 'a skipped snippet needs a reason: <!-- snippet: skip why -->' });
    return { kind, reason };
  }
  if (reason !== '')
    problems.push({ page, line, message: `"${kind}" takes no text after it (only skip has a reason)` });
  return { kind };
}
