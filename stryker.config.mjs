// StrykerJS 9 (10 needs Node 22; CI runs Node 20). `npm run test:mutation` (scripts/mutation.ts)
// runs it on the policy modules of mutation.modules.json and checks each module's score; see
// CONTRIBUTING.md, "Mutation testing". `npx stryker run --mutate <file>` runs it alone.
import { readFileSync } from 'node:fs';

const POLICY_MODULES = Object.keys(JSON.parse(readFileSync('mutation.modules.json', 'utf8')));

/** Whether a literal's text reads as prose (a space in it), not as a code such as `invalid_json`. */
function isWording(node) {
  if (node.type === 'StringLiteral') return node.value.includes(' ');
  if (node.type === 'TemplateLiteral') return node.quasis.some((quasi) => quasi.value.raw.includes(' '));
  return false;
}

/**
 * Message wording is not mutated, as a class: the prose argument of `new …Error(…)` and the value
 * of a `message` property (an affordability reason's sentence). What a program reads (error
 * classes, `code`s, reason codes, numbers) is mutated as everything else is. Equivalent mutants
 * elsewhere are marked in the source, one line each: `// Stryker disable next-line <mutator>: <why>`.
 */
const messageWording = {
  shouldIgnore(path) {
    const { node, parent } = path;
    if (!isWording(node)) return undefined;
    const isErrorArgument =
      parent?.type === 'NewExpression' &&
      parent.arguments.includes(node) &&
      parent.callee.type === 'Identifier' &&
      parent.callee.name.endsWith('Error');
    if (isErrorArgument) return 'message wording (an error message)';
    const isMessageProperty =
      parent?.type === 'ObjectProperty' &&
      parent.value === node &&
      parent.key.type === 'Identifier' &&
      parent.key.name === 'message';
    if (isMessageProperty) return 'message wording (a reason for people)';
    return undefined;
  },
};

/** Loaded by Stryker as a plugin (see `plugins` below): this file declares the ignorer too. */
export const strykerPlugins = [{ kind: 'Ignore', name: 'message-wording', value: messageWording }];

export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner', './stryker.config.mjs'],
  ignorers: ['message-wording'],
  // vitest.mutation.config.ts: the shared config, include narrowed, isolate on, per-test redaction scan.
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: POLICY_MODULES,
  coverageAnalysis: 'perTest',
  // Two cores, shared: never more than two test runners.
  concurrency: 2,
  // Below `low` is red in the report; `break` fails the run on the total. scripts/mutation.ts fails
  // it on any one module under 90 (Stryker's `break` is global only).
  thresholds: { high: 95, low: 90, break: 90 },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['dist', 'coverage', 'docs/api', '/reports', '.tmp', 'bench/.cache', '*.tgz'],
};
