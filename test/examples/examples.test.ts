/**
 * Every example runs as a user would run it (a child process, against its embedded mock server)
 * and must exit 0 by itself and print its key lines, so the examples cannot rot. Their output is
 * also handed to the suite's redaction scan.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expose } from '../support/exposure.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vitestBin = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[]): Promise<Run> {
  // Examples read VERIFICATION_* only in --live mode; keep a developer's settings out anyway.
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  for (const name of Object.keys(env)) if (name.startsWith('VERIFICATION_')) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      expose(stdout);
      expose(stderr);
      resolve({ code, stdout, stderr });
    });
  });
}

const runExample = (file: string) => run(['--import', 'tsx', `examples/${file}`]);

/** Asserts a clean exit; on failure the message carries the example's output. */
function expectSuccess(result: Run): string {
  expect(result.code, `exit code; stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
  return result.stdout;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Key lines of each script example, in order. */
const scripts: Record<string, RegExp[]> = {
  'quickstart.ts': [
    new RegExp(`^Created group ${UUID} \\(not_started\\) for 2 applicants$`, 'm'),
    /^Listed by correlation_id: found$/m,
    /^Group is now completed$/m,
    /^- Jane Doe: recurring \$[\d,]+\/month/m,
    /^Household: recurring \$[\d,]+\/month/m,
    /^PDF: \d+ bytes, starts with %PDF-$/m,
  ],
  'pagination.ts': [
    /^Page 1: 10 of 25 groups, more: true$/m,
    /^Page 2: 10 groups$/m,
    /^Walked 25 groups with for await; average rent \$\d+$/m,
    /^toArray\(\{ limit: 12 \}\) gave 12 groups$/m,
    /^Completed: 4$/m,
    /^Search "Boston": 8 groups$/m,
  ],
  'create-with-correlation-id.ts': [
    new RegExp(`^Created ${UUID} \\(correlation_id lease-2026-0042\\)$`, 'm'),
    /POSTs sent 1, recovered by lookup$/m,
    /^ {2}invitations sent: 2 \(one email, one text\)$/m,
    /after a 429 .*\(POSTs sent so far 3\)$/m,
    /^Without a correlation_id: GroupMayHaveBeenCreatedError$/m,
    new RegExp(`^findByCorrelationId\\('lease-2026-0042'\\): ${UUID}$`, 'm'),
    /^Groups on the server: 3; invitations: 6$/m,
  ],
  'reports-and-pdf.ts': [
    /^2 individual reports, 1 household report$/m,
    /^- Lena Fischer \(finished, via bank\): recurring \$[\d,]+\/month/m,
    /^- Omar Haddad \(no_income, /m,
    /^PDF: \d+ bytes, starts with %PDF-$/m,
    /^Three hours later: 2 download attempts \(old link refused, then a fresh one\), \d+ bytes$/m,
    /^After expiry: ReportExpiredError \(status 410\)$/m,
  ],
  'webhook-receiver.ts': [
    /^Receiver listening on http:\/\/127\.0\.0\.1:\d+\/webhooks$/m,
    /^VERIFICATION_STARTED +Ana Silva$/m,
    /^VERIFICATION_COMPLETED +Ana Silva \(finished\)$/m,
    /^REPORT_READY +income report for Ana Silva: recurring \$[\d,]+\/month$/m,
    /^REPORT_READY +income report for Ben Okafor: recurring/m,
    /^REPORT_READY +income report for the household: recurring/m,
    /^rejected delivery: bad_signature$/m,
    /^Forged delivery answered 400$/m,
    /^7 events verified and handled$/m,
  ],
  'opentelemetry.ts': [
    /^applicant-verification applicantGroups\.create attempts=1 status=- lookups=1 recovered=true$/m,
    /^ {2}- attempt attempt=1 outcome=connection_error$/m,
    /^ {2}- lookup lookup=1 found=true$/m,
    /^ {2}applicant-verification auth\.exchange attempts=1 status=204 /m,
    /^ {2}applicant-verification applicantGroups\.list attempts=1 status=200 lookups=0 recovered=false$/m,
    /^applicant-verification applicantGroups\.listReports attempts=2 status=200 /m,
    /^ {2}- retry attempt=1 reason=status 503$/m,
    /^4 spans exported$/m,
  ],
  'integration.ts': [
    /^Created 3 groups, webhooks to \/webhooks$/m,
    /^\[webhook\] unit 4B: household income \$[\d.]+\/month, [\d.]+x rent \(threshold 2\.5x\): approve$/m,
    // Every event sent twice (one held back and sent once): each distinct body handled once.
    /^Webhooks: 13 deliveries, 7 handled \(repeats dropped\)$/m,
    /^\[nightly\] unit 7: not_started -> completed$/m,
    /^\[nightly\] unit 7: household income \$[\d.]+\/month, [\d.]+x rent \(threshold 2\.5x\): decline \(below_threshold\)$/m,
    /^Nightly sync 1: 3 changes$/m,
    /^\[nightly\] unit 9: expired, ask the applicants to apply again$/m,
    /^Nightly sync 2: 1 changes$/m,
    /^Groups still live in the store: 0$/m,
  ],
  'platform.ts': [
    /^Webhooks: oak-street 4, harbor-view 4, elm-court 4 \(each verified with its own secret\)$/m,
    /^Harbor View mid-rotation: 4 deliveries verified with its previous key$/m,
    /^Oak Street's signature on Elm Court's URL: 400$/m,
    /^Unknown landlord: 404$/m,
    /^\[nightly\] birch-lane: failed \(credentials refused, ask the landlord to reconnect\)$/m,
    /^\[nightly\] elm-court: 3 changes$/m,
    /^\[nightly\] harbor-view: 3 changes$/m,
    /^\[nightly\] oak-street: 3 changes$/m,
    /^Nightly sync: 3 landlords synced, 1 failed$/m,
    /^Store: 3 groups across 3 landlords$/m,
  ],
  'batch.ts': [
    /^progress 12\/12 \(1 failed\)$/m,
    /^LEASE-1004 failed: applicants\[0\]\.email: /m,
    /^Created 11 of 12 groups$/m,
    // Recovered and retried creates never duplicate a group or an invitation.
    /^Groups on the server: 11; invitations sent: 11$/m,
  ],
};

describe('examples', () => {
  it('covers every example file', () => {
    const files = readdirSync(new URL('../../examples/', import.meta.url)).filter(
      (file) => file.endsWith('.ts') && file !== 'vitest.config.ts',
    );
    // bullmq-households.ts needs Redis: the fleet suite runs it (npm run test:fleet).
    expect(files.sort()).toEqual(
      [...Object.keys(scripts), 'testing-with-vitest.ts', 'bullmq-households.ts'].sort(),
    );
  });

  for (const [file, lines] of Object.entries(scripts)) {
    it(`${file} runs against the mock and exits 0`, async () => {
      const stdout = expectSuccess(await runExample(file));
      let from = 0;
      for (const line of lines) {
        const match = line.exec(stdout.slice(from));
        expect(match, `${file} should print ${line} (after offset ${from}) in:\n${stdout}`).not.toBeNull();
        from += (match?.index ?? 0) + (match?.[0].length ?? 0);
      }
    });
  }

  it('testing-with-vitest.ts passes under its own vitest config', async () => {
    const result = await run([vitestBin, 'run', '--config', 'examples/vitest.config.ts']);
    const stdout = expectSuccess(result);
    expect(stdout).toMatch(/Tests\s+4 passed \(4\)/);
  });
});
