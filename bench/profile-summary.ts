/**
 * Reads the largest `.cpuprofile` in a folder (from `node --cpu-prof`: the main thread's, not
 * the TypeScript loader's worker) and prints where the
 * samples went: by package or file, by function (self time), and optionally by function
 * including callees.
 *
 *   npx tsx bench/profile-summary.ts <dir> [top=40] [inclusiveTop=0]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}

const [dir, topArg = '40', inclusiveArg = '0'] = process.argv.slice(2);
if (!dir) throw new Error('usage: profile-summary.ts <dir> [top] [inclusiveTop]');
const newest = readdirSync(dir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => join(dir, name))
  .sort((a, b) => statSync(b).size - statSync(a).size)[0];
if (!newest) throw new Error(`No .cpuprofile in ${dir}`);
const { nodes } = JSON.parse(readFileSync(newest, 'utf8')) as { nodes: ProfileNode[] };

const byId = new Map(nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const total = nodes.reduce((sum, node) => sum + node.hitCount, 0);
const where = (url: string) =>
  url
    .replace(/^file:\/\/.*?\/node_modules\//, 'node_modules/')
    .replace(/^file:\/\/.*?\/(src|bench)\//, '$1/');
const label = (node: ProfileNode) =>
  `${node.callFrame.functionName || '(anonymous)'} ${where(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
const group = (url: string) => {
  const path = where(url);
  if (path.startsWith('node_modules/')) return path.split('/').slice(0, 2).join('/');
  return path || '(native / VM)';
};

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const files = new Map<string, number>();
for (const node of nodes) {
  self.set(label(node), (self.get(label(node)) ?? 0) + node.hitCount);
  files.set(group(node.callFrame.url), (files.get(group(node.callFrame.url)) ?? 0) + node.hitCount);
  const seen = new Set<string>();
  for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
    const ancestor = byId.get(id);
    if (!ancestor || seen.has(label(ancestor))) continue;
    seen.add(label(ancestor));
    inclusive.set(label(ancestor), (inclusive.get(label(ancestor)) ?? 0) + node.hitCount);
  }
}
const top = (map: Map<string, number>, count: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hits]) => `${((hits / total) * 100).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
process.stdout.write(`${newest}: ${total} samples\n\nBy package or file:\n${top(files, 20)}\n\n`);
process.stdout.write(`Self time:\n${top(self, Number(topArg))}\n`);
if (Number(inclusiveArg) > 0)
  process.stdout.write(`\nIncluding callees:\n${top(inclusive, Number(inclusiveArg))}\n`);
