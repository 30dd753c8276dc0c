/**
 * `reports export --screening-group`: the earlier family's report (data and PDF) in-process
 * against the mock; a group without a report yet fails the run, an expired one is reported.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScreeningGroup, VerificationClient } from '../../src/index.js';
import type { MockServer } from '../../src/testing/index.js';
import { oakCourtBody } from '../support/bodies.js';
import { mockWithClient } from '../support/mock-client.js';
import { parseCsv, runCli, tempDir } from './helpers.js';

let mock: MockServer;
let sdk: VerificationClient;
let ready: ScreeningGroup;
let pending: ScreeningGroup;

function body(tag: string) {
  return oakCourtBody(tag, [
    { applicant_first_name: 'Sam', applicant_last_name: tag, applicant_email: `sam.${tag}@example.com` },
  ]);
}

// The SDK's default log level (warn), not the helper's `off`.
mockWithClient((pair) => ({ mock, client: sdk } = pair), {
  mock: { seed: 31 },
  client: () => ({ logLevel: undefined }),
});
beforeAll(async () => {
  ready = await sdk.screeningGroups.create(body('ready'));
  pending = await sdk.screeningGroups.create(body('pending'));
  mock.applicants.complete(ready.screenings?.[0]?.id ?? '', 'finished');
});

describe('reports export --screening-group', () => {
  it('writes report.json and report.pdf (0600) and an index row; not ready fails; expired is reported', async () => {
    const out = tempDir('av-export-sg-');
    const run = await runCli(['reports', 'export', '--screening-group', ready.id, '--out', out], mock);
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(out, ready.id, 'report.json'), 'utf8'));
    expect(json.summary_timespan_length).toBe(180);
    expect(
      readFileSync(join(out, ready.id, 'report.pdf'))
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    expect(statSync(join(out, ready.id, 'report.pdf')).mode & 0o777).toBe(0o600);
    const index = parseCsv(readFileSync(join(out, 'index.csv'), 'utf8'));
    expect(index.map((row) => [row.file, row.report_scope, row.correlation_id])).toEqual([
      [join(ready.id, 'report.json'), 'screening_group', 'oak-ready'],
      [join(ready.id, 'report.pdf'), 'screening_group', 'oak-ready'],
    ]);

    const notReady = await runCli(['reports', 'export', '--screening-group', pending.id, '--out', out], mock);
    expect(notReady.code).toBe(1);
    expect(notReady.stderr).toContain('no report yet');

    mock.reports.expire(ready.id);
    const fresh = tempDir('av-export-sg-');
    const expired = await runCli(['reports', 'export', '--screening-group', ready.id, '--out', fresh], mock);
    expect(expired.code).toBe(0);
    expect(expired.stderr).toContain('has expired');
  });
});
