/**
 * The independent tools of the contract suite, run as child processes the way a team in another
 * language runs them: from their packages' own `bin` entries, offline (telemetry and update
 * checks off; only the built-in rulesets, so nothing is fetched at run time).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The repository root: openapi.json, redocly.yaml and .spectral.yaml live there. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Telemetry, update notices and analytics off, for every tool. */
const OFFLINE_ENV = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  SCARF_ANALYTICS: 'false',
  DO_NOT_TRACK: '1',
  NO_UPDATE_NOTIFIER: '1',
  CI: 'true',
};

/** The package.json of each tool (literal paths, so the dependency checker sees each use). */
const MANIFESTS = {
  '@redocly/cli': require.resolve('@redocly/cli/package.json'),
  '@stoplight/spectral-cli': require.resolve('@stoplight/spectral-cli/package.json'),
  'openapi-typescript': require.resolve('openapi-typescript/package.json'),
};

/** A tool of the contract suite. */
export type Tool = keyof typeof MANIFESTS;

/** The file of `bin` in `tool`'s package.json. */
function binOf(tool: Tool, bin: string): string {
  const manifest = require(MANIFESTS[tool]) as { bin: Record<string, string> };
  const file = manifest.bin[bin];
  if (file === undefined) throw new Error(`${tool} has no bin ${bin}`);
  return join(dirname(MANIFESTS[tool]), file);
}

/** What a tool printed, and its exit code. */
export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `bin` of `tool` with `args` under Node, in the repository root. */
export function runTool(tool: Tool, bin: string, args: readonly string[]): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [binOf(tool, bin), ...args],
      { cwd: ROOT, env: { ...process.env, ...OFFLINE_ENV }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}
