/**
 * `npm run test:mutation`: StrykerJS on the policy modules, then each module's score, failing when
 * any one is under 90% (Stryker's own `thresholds.break` judges the total only).
 *
 *   npm run test:mutation                          every module of mutation.modules.json
 *   npm run test:mutation -- src/core/call/retry.ts     the modules named
 *   npm run test:mutation -- --changed             the modules whose fingerprint differs from the
 *                                                  one recorded in mutation.verified.json (CI)
 *
 * A module's fingerprint hashes its source, its test files (mutation.modules.json) and the mutation
 * configuration. Each module that passes has its fingerprint and score written to
 * mutation.verified.json, which is committed with the change: CI then finds nothing to mutate.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const MIN_SCORE = 90;
const MODULES_FILE = 'mutation.modules.json';
const VERIFIED_FILE = 'mutation.verified.json';
const REPORT = 'reports/mutation/mutation.json';
// A change to these changes every module's result.
const CONFIG_FILES = [
  'stryker.config.mjs',
  'vitest.mutation.config.ts',
  'test/support/setup-exposure-per-test.ts',
];

interface Verified {
  /** The mutation score when last verified, percent. */
  score: number;
  /** sha256 of the module, its test files and the mutation configuration at that time. */
  fingerprint: string;
}

/** What Stryker's JSON report (mutation-testing-report-schema) holds that is read here. */
interface Report {
  files: Record<string, { mutants: { status: string }[] }>;
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

const modules = readJson(MODULES_FILE) as Record<string, string[]>;
const verified: Record<string, Verified> = existsSync(VERIFIED_FILE)
  ? (readJson(VERIFIED_FILE) as Record<string, Verified>)
  : {};

function fingerprint(module: string): string {
  const hash = createHash('sha256');
  for (const file of [module, ...(modules[module] ?? []), ...CONFIG_FILES]) {
    hash.update(`${file}\0`);
    hash.update(existsSync(file) ? readFileSync(file) : '(missing)');
    hash.update('\0');
  }
  return hash.digest('hex');
}

function chooseModules(args: string[]): string[] {
  if (args.includes('--changed')) {
    return Object.keys(modules).filter((module) => verified[module]?.fingerprint !== fingerprint(module));
  }
  const named = args.filter((arg) => !arg.startsWith('--'));
  for (const module of named) {
    if (!(module in modules)) {
      console.error(`${module} is not a policy module: add it and its test files to ${MODULES_FILE}.`);
      process.exit(2);
    }
  }
  return named.length > 0 ? named : Object.keys(modules);
}

/** Killed and timed-out mutants over every mutant with a verdict (survived and uncovered ones too). */
function scoreOf(mutants: readonly { status: string }[]): { score: number; line: string } {
  const count = (status: string) => mutants.filter((mutant) => mutant.status === status).length;
  const detected = count('Killed') + count('Timeout');
  const undetected = count('Survived') + count('NoCoverage');
  const score = detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected);
  return {
    score,
    line: `${score.toFixed(2)}% (killed ${count('Killed')}, timeout ${count('Timeout')}, survived ${count('Survived')}, no coverage ${count('NoCoverage')}, ignored ${count('Ignored')})`,
  };
}

const chosen = chooseModules(process.argv.slice(2));
if (chosen.length === 0) {
  console.log(`mutation: every policy module matches ${VERIFIED_FILE}; nothing to mutate.`);
  for (const [module, { score }] of Object.entries(verified)) console.log(`  ${module}: ${score}%`);
  process.exit(0);
}

console.log(`mutation: ${chosen.join(', ')}`);
rmSync(REPORT, { force: true });
const stryker = spawnSync('npx', ['stryker', 'run', '--mutate', chosen.join(',')], {
  stdio: 'inherit',
  env: { ...process.env, MUTATION_MODULES: chosen.join(',') },
});
if (!existsSync(REPORT)) {
  console.error(`mutation: Stryker wrote no report (exit ${stryker.status}); see its output above.`);
  process.exit(1);
}

const report = readJson(REPORT) as Report;
const failing: string[] = [];
console.log(`\nMutation score per policy module (at least ${MIN_SCORE}% each):`);
for (const module of chosen) {
  const { score, line } = scoreOf(report.files[module]?.mutants ?? []);
  console.log(`  ${score >= MIN_SCORE ? 'ok  ' : 'FAIL'} ${module}: ${line}`);
  if (score < MIN_SCORE) failing.push(module);
  else verified[module] = { score: Number(score.toFixed(2)), fingerprint: fingerprint(module) };
}
const sorted = Object.fromEntries(
  Object.keys(modules).flatMap((m) => (verified[m] ? [[m, verified[m]]] : [])),
);
writeFileSync(VERIFIED_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
if (failing.length > 0) {
  console.error(
    `\nUnder ${MIN_SCORE}%: ${failing.join(', ')}. The survivors: reports/mutation/mutation.html.`,
  );
  process.exit(1);
}
if (stryker.status !== 0) {
  console.error(`mutation: Stryker exited with ${stryker.status}; see its output above.`);
  process.exit(1);
}
