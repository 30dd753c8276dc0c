/**
 * CONTRIBUTING.md's "Recipe: a new endpoint" promises that a new GET touches at most four
 * hand-written files (plus its schema when the response shape is new, plus the generated files).
 * This holds the recipe to that count, and each file it names to one that exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const contributing = readFileSync(`${root}CONTRIBUTING.md`, 'utf8');

/** The recipe's section, up to the next heading of its level. */
function recipe(): string {
  const start = contributing.indexOf('## Recipe: a new endpoint');
  const end = contributing.indexOf('\n## ', start + 1);
  return contributing.slice(start, end === -1 ? undefined : end);
}

describe('the endpoint recipe', () => {
  it('has at most four hand-written steps, each naming one file', () => {
    const steps = recipe()
      .split('\n')
      .filter((line) => /^\d+\. /.test(line));
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.length).toBeLessThanOrEqual(4);
    for (const step of steps) expect(step).toMatch(/`[^`]+\.(ts|md)`/);
  });

  it('names files that exist (a <family> placeholder stands for each family)', () => {
    const paths = [...recipe().matchAll(/`((?:src|test|scripts)\/[^`\s]+|[A-Z]+\.md|openapi\.json)`/g)].map(
      (match) => match[1] ?? '',
    );
    expect(paths.length).toBeGreaterThan(5);
    const families = ['applicant-groups', 'reports', 'screening-groups'];
    for (const path of paths) {
      const candidates = path.includes('<family>')
        ? families.map((family) => path.replace('<family>', family))
        : [path];
      expect(
        candidates.some((candidate) => existsSync(`${root}${candidate}`)),
        `${path} named by the recipe does not exist`,
      ).toBe(true);
    }
  });
});
