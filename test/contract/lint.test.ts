/**
 * openapi.json through two independent linters, as a team in another language would first check
 * it: Redocly CLI (its recommended rules, an operation without a 4xx answer an error:
 * redocly.yaml) and Spectral (`spectral:oas`, .spectral.yaml). Both must report 0 errors, and both
 * do report a document broken the way the old one was (no error answers, an undeclared path
 * parameter), so the check can fail.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runTool } from './tools.js';

interface RedoclyReport {
  totals: { errors: number };
  problems: Array<{ ruleId: string; severity: string; message: string }>;
}

interface SpectralResult {
  code: string;
  severity: number;
  message: string;
}

async function redocly(file: string): Promise<RedoclyReport> {
  const run = await runTool('@redocly/cli', 'redocly', [
    'lint',
    file,
    '--config',
    join(ROOT, 'redocly.yaml'),
    '--format=json',
  ]);
  return JSON.parse(run.stdout) as RedoclyReport;
}

async function spectral(file: string): Promise<SpectralResult[]> {
  const run = await runTool('@stoplight/spectral-cli', 'spectral', [
    'lint',
    file,
    '--ruleset',
    join(ROOT, '.spectral.yaml'),
    '--format',
    'json',
    '--quiet',
  ]);
  return JSON.parse(run.stdout) as SpectralResult[];
}

const errorsOf = (results: SpectralResult[]) => results.filter((result) => result.severity === 0);

let dir: string;
let broken: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'contract-lint-'));
  const document = JSON.parse(await readFile(join(ROOT, 'openapi.json'), 'utf8'));
  // The old document's faults: no error answers, and here a path parameter left undeclared.
  const retrieve = document.paths['/api/v1/reports/{reportId}'].get;
  retrieve.responses = { '200': retrieve.responses['200'] };
  delete retrieve.parameters;
  broken = join(dir, 'broken.json');
  await writeFile(broken, JSON.stringify(document));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('openapi.json under Redocly CLI (recommended, operation-4xx-response: error)', () => {
  it('has 0 errors', async () => {
    const report = await redocly('openapi.json');
    expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('fails an operation with no 4xx answer and an undeclared path parameter', async () => {
    const report = await redocly(broken);
    const rules = report.problems.filter((problem) => problem.severity === 'error').map((p) => p.ruleId);
    expect(rules).toEqual(expect.arrayContaining(['operation-4xx-response', 'path-parameters-defined']));
  });
});

describe('openapi.json under Spectral (spectral:oas)', () => {
  it('has 0 errors', async () => {
    expect(errorsOf(await spectral('openapi.json'))).toEqual([]);
  });

  it('fails an undeclared path parameter', async () => {
    const codes = errorsOf(await spectral(broken)).map((result) => result.code);
    expect(codes).toContain('path-params');
  });
});
