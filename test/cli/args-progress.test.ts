/** Option parsing helpers and the progress display. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/errors.js';
import { numberOption, parseCommand, timeOption } from '../../src/cli/shared/args.js';
import { cliLogLine } from '../../src/cli/shared/connection.js';
import { formatProgress, Reporter } from '../../src/cli/shared/progress.js';
import { closest } from '../../src/cli/shared/suggest.js';

describe('timeOption', () => {
  it('reads Unix seconds, ISO days (midnight UTC) and ISO date-times with a zone', () => {
    expect(timeOption('created-after', '1767225600')).toBe(1767225600);
    expect(timeOption('created-after', '2026-01-01')).toBe(Date.UTC(2026, 0, 1) / 1000);
    expect(timeOption('created-after', '2026-01-01T09:30:00-05:00')).toBe(
      Date.UTC(2026, 0, 1, 14, 30) / 1000,
    );
    expect(timeOption('created-after', undefined)).toBeUndefined();
  });

  it('refuses ambiguous or unit-confused values with a usage error', () => {
    for (const bad of ['01/02/2026', 'yesterday', '2026-01-01T09:30', '1767225600000', '']) {
      expect(() => timeOption('created-after', bad), bad).toThrow(UsageError);
    }
  });
});

describe('numberOption and parseCommand', () => {
  it('checks ranges and whole numbers', () => {
    const range = { min: 1, max: 64, integer: true };
    expect(numberOption('concurrency', undefined, 8, range)).toBe(8);
    expect(numberOption('concurrency', '16', 8, range)).toBe(16);
    for (const bad of ['0', '65', '1.5', 'x', '']) {
      expect(() => numberOption('concurrency', bad, 8, range), bad).toThrow(UsageError);
    }
  });

  it('turns unknown options and missing values into usage errors', () => {
    expect(() => parseCommand(['--nope'], {})).toThrow(UsageError);
    expect(() => parseCommand(['--csv'], { csv: { type: 'string' } })).toThrow(UsageError);
    const { values } = parseCommand(['--csv', 'a.csv', '-q'], { csv: { type: 'string' } });
    expect(values).toMatchObject({ csv: 'a.csv', quiet: true });
  });
});

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    }),
    { isTTY, columns: 100 },
  );
  return { stream, text: () => chunks.join('') };
}

describe('progress', () => {
  it('shows done/total, percent, rate, ETA and failures', () => {
    expect(formatProgress('create', { done: 120, total: 300, failed: 2 }, 4_000)).toBe(
      'create 120/300  40%  30.0/s  ETA 0:06  2 failed',
    );
    expect(formatProgress('create', { done: 300, total: 300, failed: 0 }, 65_000)).toBe(
      'create 300/300  100%  4.6/s  in 1:05',
    );
  });

  it('redraws one line on a terminal and prints messages above it', () => {
    const out = sink(true);
    let now = 0;
    const reporter = new Reporter(out.stream, { mode: 'bar', now: () => now });
    const progress = reporter.start('create', 10);
    now = 1_000;
    progress.update({ done: 5, total: 10, failed: 0 });
    reporter.error('line 7: failed');
    progress.finish();
    const text = out.text();
    expect(text).toContain('\r\u001b[2K[');
    expect(text).toContain('line 7: failed\n');
    expect(text.endsWith('\n')).toBe(true);
    expect(text).toContain('create 5/10  50%');
  });

  it('prints plain periodic lines when not a terminal, and nothing when quiet', () => {
    const out = sink(false);
    let now = 0;
    const reporter = new Reporter(out.stream, { mode: 'lines', lineIntervalMs: 1_000, now: () => now });
    const progress = reporter.start('check', 4);
    now = 500;
    progress.update({ done: 1, total: 4, failed: 0 });
    now = 1_200;
    progress.update({ done: 2, total: 4, failed: 1 });
    progress.update({ done: 3, total: 4, failed: 1 });
    progress.finish();
    expect(out.text().split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^check 2\/4 {2}50% .* 1 failed$/),
      expect.stringMatching(/^check 3\/4 {2}75% {2}2\.5\/s {2}ETA 0:00 {2}1 failed$/),
    ]);
    expect(out.text()).not.toContain('\r');

    const quiet = sink(false);
    const silent = new Reporter(quiet.stream, { mode: 'off' });
    const bar = silent.start('x', 1);
    bar.update({ done: 1, total: 1, failed: 0 });
    bar.finish();
    silent.note('summary');
    silent.error('an error still shows');
    expect(quiet.text()).toBe('an error still shows\n');
  });
});

describe('cliLogLine and closest', () => {
  it('drops the library prefix and passes the SDK retry line through as written', () => {
    expect(
      cliLogLine(
        '[applicant-verification] retrying in 2 s (attempt 2 of 5): POST /api/v1/applicant_groups on 10.0.0.7:443 failed: connect ECONNREFUSED 10.0.0.7:443',
      ),
    ).toBe(
      'retrying in 2 s (attempt 2 of 5): POST /api/v1/applicant_groups on 10.0.0.7:443 failed: connect ECONNREFUSED 10.0.0.7:443',
    );
    expect(cliLogLine('[applicant-verification] Token refreshed')).toBe('Token refreshed');
  });

  it('suggests the nearest known name for a typo, a swap or a prefix, and nothing for a stranger', () => {
    const known = ['csv', 'concurrency', 'dry-run', 'skip-invalid', 'batch-id', 'grace', 'log'];
    expect(closest('cvs', known)).toBe('csv');
    expect(closest('concurency', known)).toBe('concurrency');
    expect(closest('dryrun', known)).toBe('dry-run');
    expect(closest('skip', known)).toBe('skip-invalid');
    expect(closest('verbosity', known)).toBeUndefined();
  });
});
