/**
 * A user's stack trace, read without source maps: `.ci/package-checks` runs this in a project
 * that installed the packed tarball. Two failing calls (a create refused before any I/O, a list
 * against a closed port) must name the package's files with a line and a column a reader can
 * find: the build keeps the code's lines (no whitespace minification), so every frame in the
 * package sits at a column under 300.
 */
import { strict as assert } from 'node:assert';
import { fileURLToPath } from 'node:url';
import { VerificationClient } from 'applicant-verification';

const client = new VerificationClient({
  baseURL: 'http://127.0.0.1:9',
  clientId: 'stack-trace',
  secretKey: 'stack-trace-secret',
  maxRetries: 0,
});
const failing = {
  'a create refused before any I/O': () => client.applicantGroups.create({ applicants: [] }),
  'a list against a closed port': () => client.applicantGroups.list(),
};
// The package's dist/ folder, as Node resolved it (a real path, as stack frames name it).
const dist = fileURLToPath(new URL('.', import.meta.resolve('applicant-verification')));
const frame = /(?:\(|at )(?:file:\/\/)?([^()\s]+):(\d+):(\d+)\)?$/;
for (const [label, call] of Object.entries(failing)) {
  let stack = '';
  try {
    await call();
  } catch (error) {
    stack = String(error?.stack ?? '');
  }
  const frames = stack
    .split('\n')
    .map((line) => frame.exec(line.trim()))
    .filter(Boolean)
    .map((match) => ({
      file: match[1] ?? match[4],
      line: Number(match[2] ?? match[5]),
      column: Number(match[3] ?? match[6]),
    }));
  assert.ok(frames.length > 0, `${label}: no frame names the package's files:\n${stack}`);
  for (const { file, line, column } of frames) {
    assert.ok(line > 0 && column < 300, `${label}: ${file}:${line}:${column} is past column 300:\n${stack}`);
  }
  const top = frames[0];
  console.log(
    `${label}: ${frames.length} frames in the package, the first ${`dist/${top.file.slice(dist.length)}`}:${top.line}:${top.column}; widest column ${Math.max(...frames.map((f) => f.column))}`,
  );
}
await client.close();
