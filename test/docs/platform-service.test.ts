/**
 * docs/platforms.md's "The platform's service" block is the region of
 * `test/docs/platform-service.test-d.ts` that `npm run typecheck` compiles, character for
 * character: the snippet a platform copies type-checks as written.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe("docs/platforms.md, the platform's service", () => {
  it('is the type-checked region of test/docs/platform-service.test-d.ts', () => {
    const checked = read('test/docs/platform-service.test-d.ts');
    const region = checked
      .split("// docs/platforms.md: the platform's service, begin\n")[1]
      ?.split("// docs/platforms.md: the platform's service, end")[0];
    expect(region).toBeDefined();
    const docs = read('docs/platforms.md');
    const section = docs.split("## The platform's service\n")[1]?.split('\n## ')[0] ?? '';
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBe(region);
  });
});
