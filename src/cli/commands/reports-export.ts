/**
 * `reports export`: every report of the chosen groups, as JSON and PDF, into `DIR/<group id>/`.
 * Files already there are skipped without a request, and each file is written atomically, so a
 * rerun (after a failure or at the next month end) fetches only what is missing.
 */
import { access, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { VerificationClient } from '../../client.js';
import { mapSettled } from '../../core/batch.js';
import { ReportExpiredError } from '../../core/errors.js';
import type { RequestOptions } from '../../core/http.js';
import type { ApplicantGroupListParams } from '../../schemas/applicant-groups.js';
import type { ReportDetail, ReportSummary } from '../../schemas/reports.js';
import { COMMON_HELP, expectPositionals, numberOption, parseCommand, timeOption } from '../args.js';
import { connect } from '../connection.js';
import { describeError, UsageError } from '../errors.js';
import { EXIT_FAILED, EXIT_OK } from '../exit-codes.js';
import { BatchStop } from '../fatal.js';
import { displayPath, writeFileAtomic } from '../files.js';
import { type CliIO, write } from '../io.js';
import { progressMode, Reporter } from '../progress.js';
import { inFlight } from '../shutdown.js';
import { statusesOf } from './groups-list.js';

/** Help of `reports export`. */
export const REPORTS_EXPORT_HELP = `Usage: applicant-verification reports export (--group ID ... | --status STATUS) [options]

Saves every report (household and individual) of the chosen groups into DIR/<group id>/:
<report id>.json (the report detail without its short-lived PDF link) and <report id>.pdf.
Files already there are skipped, so running it again only fetches what is missing. PDF links
last 2 hours; a stale link is refreshed automatically.

Which groups:
  --group ID             a group id; repeat for several
  --status STATUS        every group with this status (e.g. completed); repeat or comma-separate
  --created-after TIME   with --status: Unix seconds or ISO date/time
  --created-before TIME  with --status: same forms

Options:
  --out DIR              where to write (default ./reports)
  --concurrency N        reports fetched at once (default 4, at most 32)

stdout lists each file written. Expired reports cannot be fetched any more: they are reported
on stderr and do not fail the run.

Exit codes: 0 everything exported (or already there); 1 some groups or reports failed (run
again); 2 usage; 130/143 stopped by SIGINT/SIGTERM.

${COMMON_HELP}`;

const OPTIONS = {
  group: { type: 'string', multiple: true },
  status: { type: 'string', multiple: true },
  'created-after': { type: 'string' },
  'created-before': { type: 'string' },
  out: { type: 'string', default: 'reports' },
  concurrency: { type: 'string' },
} as const;

// Ids become directory and file names: anything that could climb out of DIR is refused.
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** One report to export and which of its files are missing. */
interface ReportJob {
  groupId: string;
  report: ReportSummary;
  jsonPath: string;
  pdfPath: string;
  needJson: boolean;
  needPdf: boolean;
}

type JobOutcome = 'exported' | 'expired';

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** The report as archived: the detail without `pdf_url`, a link that is useless (and a bearer capability) after 2 hours. */
export function archivedForm(detail: ReportDetail): Record<string, unknown> {
  return Object.fromEntries(Object.entries(detail).filter(([key]) => key !== 'pdf_url'));
}

const PDF_MAGIC = '%PDF-';

function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, PDF_MAGIC.length)).toString('latin1') === PDF_MAGIC;
}

async function groupIds(
  client: VerificationClient,
  values: { group?: string[] | undefined; status?: string[] | undefined; after?: number; before?: number },
  request: RequestOptions,
): Promise<string[]> {
  if (values.group) return [...new Set(values.group.map((id) => id.trim()).filter((id) => id !== ''))];
  const params: ApplicantGroupListParams = { statuses: statusesOf(values.status) ?? [] };
  if (values.after !== undefined) params.created_after = values.after;
  if (values.before !== undefined) params.created_before = values.before;
  const ids: string[] = [];
  for await (const group of client.applicantGroups.list(params, request)) ids.push(group.id);
  return ids;
}

/** Runs `reports export`. */
export async function reportsExport(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS);
  if (values.help) {
    await write(io.stdout, `${REPORTS_EXPORT_HELP}\n`);
    return EXIT_OK;
  }
  expectPositionals(positionals, []);
  if ((values.group === undefined) === (values.status === undefined)) {
    throw new UsageError('give either --group ID (repeatable) or --status STATUS, not both and not neither');
  }
  if (values.group && (values['created-after'] ?? values['created-before']) !== undefined) {
    throw new UsageError('--created-after and --created-before go with --status, not --group');
  }
  const after = timeOption('created-after', values['created-after']);
  const before = timeOption('created-before', values['created-before']);
  const concurrency = numberOption('concurrency', values.concurrency, 4, { min: 1, max: 32, integer: true });
  for (const id of values.group ?? []) {
    if (!SAFE_NAME.test(id.trim())) throw new UsageError(`--group "${id}" is not a group id`);
  }
  const outDir = resolve(io.cwd, values.out);
  const reporter = new Reporter(io.stderr, { mode: progressMode(io.stderr, values.quiet ?? false) });
  const client = connect(values, io, reporter);
  const flight = inFlight(io, reporter);
  const request: RequestOptions = { signal: flight.signal };
  const stop = new BatchStop(io.signal);
  let failed = 0;
  try {
    const ids = await groupIds(
      client,
      {
        group: values.group,
        status: values.status,
        ...(after === undefined ? {} : { after }),
        ...(before === undefined ? {} : { before }),
      },
      request,
    );

    // Reports of each group: one request per group, a failed group does not stop the others.
    const listed = await mapSettled(
      ids,
      (id) => stop.guard(() => client.applicantGroups.listReports(id, request)),
      { concurrency, signal: stop.signal },
    );
    const jobs: ReportJob[] = [];
    let present = 0;
    for (const [index, outcome] of listed.entries()) {
      const groupId = ids[index] ?? '';
      if (!outcome.ok) {
        if (!io.signal.aborted)
          reporter.error(`group ${groupId}: could not list reports: ${describeError(outcome.error)}`);
        failed++;
        continue;
      }
      for (const report of [...outcome.value.household_reports, ...outcome.value.individual_reports]) {
        if (!SAFE_NAME.test(groupId) || !SAFE_NAME.test(report.id)) {
          reporter.error(`group ${groupId}: report id "${report.id}" cannot be a file name; skipped`);
          failed++;
          continue;
        }
        const dir = join(outDir, groupId);
        const jsonPath = join(dir, `${report.id}.json`);
        const pdfPath = join(dir, `${report.id}.pdf`);
        const needJson = !(await exists(jsonPath));
        const needPdf = !(await exists(pdfPath));
        present += Number(!needJson) + Number(!needPdf);
        if (needJson || needPdf) jobs.push({ groupId, report, jsonPath, pdfPath, needJson, needPdf });
      }
    }
    reporter.note(
      `${ids.length} group(s): ${jobs.length} report(s) to fetch, ${present} file(s) already in ${displayPath(io.cwd, outDir)}`,
    );

    let written = 0;
    const shownPath = (path: string) => displayPath(io.cwd, path);
    const exportOne = async (job: ReportJob): Promise<JobOutcome> => {
      if (job.report.is_expired) return 'expired';
      await mkdir(join(outDir, job.groupId), { recursive: true });
      let detail: ReportDetail | undefined;
      try {
        if (job.needJson) {
          detail = await client.reports.retrieve(job.report.id, request);
          await writeFileAtomic(job.jsonPath, `${JSON.stringify(archivedForm(detail), null, 2)}\n`);
          written++;
          await write(io.stdout, `${shownPath(job.jsonPath)}\n`);
        }
        if (job.needPdf) {
          // A detail just retrieved carries a fresh link; otherwise the SDK retrieves one, and
          // refreshes it once if storage refuses it as stale.
          const bytes = await client.reports.downloadPdf(detail ?? job.report.id, request);
          if (!isPdf(bytes)) throw new Error(`the PDF of report ${job.report.id} is not a PDF file`);
          await writeFileAtomic(job.pdfPath, bytes);
          written++;
          await write(io.stdout, `${shownPath(job.pdfPath)}\n`);
        }
      } catch (error) {
        if (error instanceof ReportExpiredError) return 'expired';
        throw error;
      }
      return 'exported';
    };
    const progress = reporter.start('export', jobs.length);
    const outcomes = await mapSettled(jobs, (job) => stop.guard(() => exportOne(job)), {
      concurrency,
      signal: stop.signal,
      // Once stopped, items that never started would count as failures: freeze the display instead.
      onProgress: (snapshot) => !stop.signal.aborted && progress.update(snapshot),
    });
    progress.finish();
    let expired = 0;
    for (const [index, outcome] of outcomes.entries()) {
      const job = jobs[index];
      if (!job) continue;
      if (outcome.ok && outcome.value === 'expired') {
        expired++;
        reporter.error(
          `group ${job.groupId}: report ${job.report.id} has expired; its data can no longer be fetched`,
        );
      } else if (!outcome.ok) {
        failed++;
        if (!stop.signal.aborted) {
          reporter.error(`group ${job.groupId}: report ${job.report.id}: ${describeError(outcome.error)}`);
        }
      }
    }
    if (stop.fatalError !== undefined) reporter.error(`Stopped: ${describeError(stop.fatalError)}`);
    reporter.note(
      `${written} file(s) written, ${present} already there, ${expired} expired report(s), ${failed} failure(s).`,
    );
  } finally {
    flight.dispose();
    await client.close();
  }
  return failed > 0 ? EXIT_FAILED : EXIT_OK;
}
