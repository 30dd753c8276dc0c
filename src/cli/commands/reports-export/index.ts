/**
 * `reports export`: every report of the chosen groups, as JSON and PDF, into `DIR/<group id>/`,
 * with `DIR/index.csv` saying which file belongs to which group and applicant. Financial data:
 * files are 0600 and directories 0700 from the moment they exist. Files already there are
 * skipped without a request, and each file is written atomically, so a rerun (after a failure or
 * at the next month end) fetches only what is missing.
 */
import { chmod, mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  type ApplicantGroup,
  type ApplicantGroupListParams,
  NotFoundError,
  type ReportDetail,
  ReportExpiredError,
  type ReportSummary,
  type RequestOptions,
  type VerificationClient,
} from 'applicant-verification';
import { mapSettled } from '../../../internal.js';
import { BatchStop, describeError, EXIT_FAILED, EXIT_OK, UsageError } from '../../errors.js';
import {
  COMMON_HELP,
  expectPositionals,
  numberOption,
  parseCommand,
  statusesOf,
  timeOption,
} from '../../shared/args.js';
import { connect } from '../../shared/connection.js';
import { displayPath, exists, writeFileAtomic } from '../../shared/files.js';
import { type CliIO, write } from '../../shared/io.js';
import { toJson } from '../../shared/json-output.js';
import { progressMode, Reporter } from '../../shared/progress.js';
import { inFlight } from '../../shared/shutdown.js';
import { type IndexRow, indexRowsOf, updateIndex } from './export-index.js';

/** Mode of exported files: the owner only. */
const FILE_MODE = 0o600;
/** Mode of the export directories: the owner only. */
const DIR_MODE = 0o700;

/** Help of `reports export`. */
export const REPORTS_EXPORT_HELP = `Usage: applicant-verification reports export (--group ID ... | --status STATUS | --screening-group ID ...) [options]

Saves every report (household and individual) of the chosen groups into DIR/<group id>/:
<report id>.json (the report detail without its short-lived PDF link) and <report id>.pdf.
DIR/index.csv maps each file to its group, correlation id (the household_key's id in the
results log of groups create), unit, property and applicant. Files are written with mode 0600
in directories of mode 0700. Files already there are skipped, so running it again only fetches
what is missing. PDF links last 2 hours; a stale link is refreshed automatically.

Which groups:
  --group ID             a group id; repeat for several
  --status STATUS        every group with this status (e.g. completed); repeat or comma-separate
  --created-after TIME   with --status: Unix seconds or ISO date/time
  --created-before TIME  with --status: same forms
  --screening-group ID   a screening group (the earlier family); repeat for several. Its one
                         report goes to DIR/<id>/report.json (the report data) and report.pdf;
                         a group whose report is not ready yet fails (run again later)

Options:
  --out DIR              where to write (default ./reports)
  --concurrency N        reports fetched at once (default 4, at most 32)

stdout lists each file written. Expired reports cannot be fetched any more: they are reported
on stderr and do not fail the run.

Exit codes: 0 everything exported (or already there); 1 some groups or reports failed (run
again); 2 usage; 5 authentication failed; 130/143 stopped by SIGINT/SIGTERM.

${COMMON_HELP}`;

const OPTIONS = {
  group: { type: 'string', multiple: true },
  status: { type: 'string', multiple: true },
  'created-after': { type: 'string' },
  'created-before': { type: 'string' },
  out: { type: 'string', default: 'reports' },
  concurrency: { type: 'string' },
  'screening-group': { type: 'string', multiple: true },
} as const;

// Ids become directory and file names: anything that could climb out of DIR is refused.
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** One report to export and which of its files are missing. */
interface ReportJob {
  groupId: string;
  group: ApplicantGroup | undefined;
  report: ReportSummary;
  jsonPath: string;
  pdfPath: string;
  needJson: boolean;
  needPdf: boolean;
}

type JobOutcome = 'exported' | 'expired';

/** The report as archived: the detail without `pdf_url`, a link that is useless (and a bearer capability) after 2 hours. */
export function archivedForm(detail: ReportDetail): Record<string, unknown> {
  return Object.fromEntries(Object.entries(detail).filter(([key]) => key !== 'pdf_url'));
}

const PDF_MAGIC = '%PDF-';

function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, PDF_MAGIC.length)).toString('latin1') === PDF_MAGIC;
}

/** A chosen group: its id, and the group itself when it could be found (for the index). */
interface ChosenGroup {
  id: string;
  group: ApplicantGroup | undefined;
}

async function chosenGroups(
  client: VerificationClient,
  values: { group?: string[] | undefined; status?: string[] | undefined; after?: number; before?: number },
  request: RequestOptions,
): Promise<ChosenGroup[]> {
  if (values.group) {
    const ids = [...new Set(values.group.map((id) => id.trim()).filter((id) => id !== ''))];
    return ids.map((id) => ({ id, group: undefined }));
  }
  const params: ApplicantGroupListParams = { statuses: statusesOf(values.status) ?? [] };
  if (values.after !== undefined) params.created_after = values.after;
  if (values.before !== undefined) params.created_before = values.before;
  const groups: ChosenGroup[] = [];
  for await (const group of client.applicantGroups.list(params, request))
    groups.push({ id: group.id, group });
  return groups;
}

// Created 0700; an existing directory that others can read is reported, not changed behind the
// operator's back (it may be their home directory).
async function privateDir(path: string, reporter: Reporter, own: boolean): Promise<void> {
  await mkdir(path, { recursive: true, mode: DIR_MODE });
  const mode = (await stat(path)).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  if (own) await chmod(path, DIR_MODE);
  else
    reporter.error(
      `warning: ${path} can be read by other users (mode ${mode.toString(8)}): reports are financial data`,
    );
}

/** The options both exports read to open a run. */
type ExportValues = Parameters<typeof connect>[0] & { out: string; quiet?: boolean | undefined };

/**
 * What an export run (of groups' reports or of screening groups') opens: its directory, progress on
 * stderr, the client, the signal its requests share and the stop of the batch; `close` stops
 * listening for signals and closes the client.
 */
async function openExport(values: ExportValues, io: CliIO) {
  const outDir = resolve(io.cwd, values.out);
  const reporter = new Reporter(io.stderr, { mode: progressMode(io.stderr, values.quiet ?? false) });
  const client = await connect(values, io, reporter);
  const flight = inFlight(io, reporter);
  const request: RequestOptions = { signal: flight.signal };
  const stop = new BatchStop(io.signal);
  const close = async () => {
    flight.dispose();
    await client.close();
  };
  return { outDir, reporter, client, request, stop, close };
}

/** Runs `reports export`. */
export async function reportsExport(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS);
  if (values.help) {
    await write(io.stdout, `${REPORTS_EXPORT_HELP}\n`);
    return EXIT_OK;
  }
  expectPositionals(positionals, []);
  const choices = [values.group, values.status, values['screening-group']].filter((v) => v !== undefined);
  if (choices.length !== 1) {
    throw new UsageError(
      'give one of --group ID (repeatable), --status STATUS or --screening-group ID (repeatable), not several and not none',
    );
  }
  if (values['screening-group']) return exportScreeningGroups(values['screening-group'], values, io);
  if (values.group && (values['created-after'] ?? values['created-before']) !== undefined) {
    throw new UsageError('--created-after and --created-before go with --status, not --group');
  }
  const after = timeOption('created-after', values['created-after']);
  const before = timeOption('created-before', values['created-before']);
  const concurrency = numberOption('concurrency', values.concurrency, 4, { min: 1, max: 32, integer: true });
  for (const id of values.group ?? []) {
    if (!SAFE_NAME.test(id.trim())) throw new UsageError(`--group "${id}" is not a group id`);
  }
  const { outDir, reporter, client, request, stop, close } = await openExport(values, io);
  let failed = 0;
  try {
    const chosen = await chosenGroups(
      client,
      {
        group: values.group,
        status: values.status,
        ...(after === undefined ? {} : { after }),
        ...(before === undefined ? {} : { before }),
      },
      request,
    );

    const ids = chosen.map((item) => item.id);
    // Groups named by id are looked up for the index (the API has no retrieve-by-id): one walk
    // of the list, stopped as soon as every one is found.
    const details = new Map(chosen.flatMap((item) => (item.group ? [[item.id, item.group] as const] : [])));
    if (details.size < chosen.length) {
      try {
        await stop.guard(async () => {
          for await (const group of client.applicantGroups.list({}, request)) {
            if (chosen.some((item) => item.id === group.id)) details.set(group.id, group);
            if (details.size === chosen.length) break;
          }
        });
      } catch (error) {
        if (stop.signal.aborted) throw error;
        reporter.error(`warning: could not look the groups up for index.csv: ${describeError(error)}`);
      }
    }
    const groupOf = (index: number) => details.get(ids[index] ?? '');
    // Reports of each group: one request per group, a failed group does not stop the others.
    const listed = await mapSettled(
      ids,
      (id) => stop.guard(() => client.applicantGroups.listReports(id, request)),
      { concurrency, signal: stop.signal },
    );
    await privateDir(outDir, reporter, !(await exists(outDir)));
    const indexRows: IndexRow[] = [];
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
      const scoped = [
        ...outcome.value.household_reports.map((report) => ({ report, scope: 'household' as const })),
        ...outcome.value.individual_reports.map((report) => ({ report, scope: 'individual' as const })),
      ];
      for (const { report, scope } of scoped) {
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
        const group = groupOf(index);
        if (!report.is_expired) {
          indexRows.push(...indexRowsOf({ outDir, jsonPath, pdfPath, groupId, group, report, scope }));
        }
        if (needJson || needPdf) jobs.push({ groupId, group, report, jsonPath, pdfPath, needJson, needPdf });
      }
    }
    reporter.note(
      `${ids.length} group(s): ${jobs.length} report(s) to fetch, ${present} file(s) already in ${displayPath(io.cwd, outDir)}`,
    );

    let written = 0;
    const shownPath = (path: string) => displayPath(io.cwd, path);
    const exportOne = async (job: ReportJob): Promise<JobOutcome> => {
      if (job.report.is_expired) return 'expired';
      await privateDir(join(outDir, job.groupId), reporter, true);
      let detail: ReportDetail | undefined;
      try {
        if (job.needJson) {
          detail = await client.reports.retrieve(job.report.id, request);
          await writeFileAtomic(job.jsonPath, `${toJson(archivedForm(detail), 2)}\n`, FILE_MODE);
          written++;
          await write(io.stdout, `${shownPath(job.jsonPath)}\n`);
        }
        if (job.needPdf) {
          // A detail just retrieved carries a fresh link; otherwise the SDK retrieves one, and
          // refreshes it once if storage refuses it as stale.
          const bytes = await client.reports.downloadPdf(detail ?? job.report.id, request);
          if (!isPdf(bytes)) throw new Error(`the PDF of report ${job.report.id} is not a PDF file`);
          await writeFileAtomic(job.pdfPath, bytes, FILE_MODE);
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
    // The index lists the files on disk, this run's and earlier runs'.
    const onDisk: IndexRow[] = [];
    for (const row of indexRows) if (await exists(join(outDir, row.file))) onDisk.push(row);
    if (onDisk.length > 0) await updateIndex(outDir, onDisk, FILE_MODE);
    if (stop.fatalError !== undefined) throw stop.fatalError;
    reporter.note(
      `${written} file(s) written, ${present} already there, ${expired} expired report(s), ${failed} failure(s).`,
    );
  } finally {
    await close();
  }
  return failed > 0 ? EXIT_FAILED : EXIT_OK;
}

/** `reports export --screening-group ID ...`: each group's report data and PDF, into DIR/<id>/. */
async function exportScreeningGroups(
  given: readonly string[],
  values: ExportValues & { concurrency?: string | undefined },
  io: CliIO,
): Promise<number> {
  const ids = [...new Set(given.map((id) => id.trim()).filter((id) => id !== ''))];
  for (const id of ids) {
    if (!SAFE_NAME.test(id)) throw new UsageError(`--screening-group "${id}" is not a group id`);
  }
  const concurrency = numberOption('concurrency', values.concurrency, 4, { min: 1, max: 32, integer: true });
  const { outDir, reporter, client, request, stop, close } = await openExport(values, io);
  let failed = 0;
  try {
    await privateDir(outDir, reporter, !(await exists(outDir)));
    const indexRows: IndexRow[] = [];
    const exportOne = async (id: string): Promise<JobOutcome> => {
      const dir = join(outDir, id);
      const jsonPath = join(dir, 'report.json');
      const pdfPath = join(dir, 'report.pdf');
      // Both files there: nothing to fetch (a rerun fetches only what is missing).
      if ((await exists(jsonPath)) && (await exists(pdfPath))) return 'exported';
      try {
        const group = await client.screeningGroups.retrieve(id, request);
        const data = await client.screeningGroups.reportData(id, request);
        const bytes = await client.screeningGroups.downloadReportPdf(id, request);
        if (!isPdf(bytes)) throw new Error(`the report PDF of screening group ${id} is not a PDF file`);
        await privateDir(dir, reporter, true);
        await writeFileAtomic(jsonPath, `${toJson(data, 2)}\n`, FILE_MODE);
        await writeFileAtomic(pdfPath, bytes, FILE_MODE);
        await write(io.stdout, `${displayPath(io.cwd, jsonPath)}\n${displayPath(io.cwd, pdfPath)}\n`);
        const base = {
          report_id: '',
          report_scope: 'screening_group',
          group_id: id,
          correlation_id: group.correlation_id ?? '',
          unit: group.unit_number ?? '',
          property: group.property_name ?? '',
          applicant_id: '',
          applicant_name: '',
          applicant_email: '',
        };
        indexRows.push(
          { file: join(id, 'report.json'), kind: 'json', ...base },
          { file: join(id, 'report.pdf'), kind: 'pdf', ...base },
        );
        return 'exported';
      } catch (error) {
        if (error instanceof ReportExpiredError) return 'expired';
        if (error instanceof NotFoundError)
          throw new Error('no report yet (the group is in progress), or no such group');
        throw error;
      }
    };
    const outcomes = await mapSettled(ids, (id) => stop.guard(() => exportOne(id)), {
      concurrency,
      signal: stop.signal,
    });
    for (const [index, outcome] of outcomes.entries()) {
      const id = ids[index] ?? '';
      if (outcome.ok && outcome.value === 'expired') {
        reporter.error(`screening group ${id}: its report has expired; it can no longer be fetched`);
      } else if (!outcome.ok) {
        failed++;
        if (!stop.signal.aborted) reporter.error(`screening group ${id}: ${describeError(outcome.error)}`);
      }
    }
    if (indexRows.length > 0) await updateIndex(outDir, indexRows, FILE_MODE);
    if (stop.fatalError !== undefined) throw stop.fatalError;
  } finally {
    await close();
  }
  return failed > 0 ? EXIT_FAILED : EXIT_OK;
}
