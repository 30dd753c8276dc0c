/**
 * `groups create --csv FILE`: one applicant group per household of a spreadsheet, resumable.
 *
 * 1. Every row is checked; if any is bad, all problems are listed (line, column) and nothing is sent.
 * 2. Each household's deterministic correlation id is looked up: groups an earlier (crashed,
 *    killed, partly failed) run created are skipped, so nobody is invited twice.
 * 3. The missing groups are created with `createMany` (bounded concurrency; the SDK recovers
 *    ambiguous failures through the correlation id).
 * 4. The results log gets one entry per household: its group id, or its error.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { VerificationClient } from '../../client.js';
import { mapSettled, type Settled } from '../../core/batch.js';
import { APIUserAbortError } from '../../core/errors.js';
import type { ApplicantGroup } from '../../schemas/applicant-groups.js';
import { COMMON_HELP, expectPositionals, numberOption, parseCommand } from '../args.js';
import { connect } from '../connection.js';
import { batchNamespace } from '../correlation.js';
import { CsvSyntaxError, type CsvTable, readCsv } from '../csv-input.js';
import { describeError, InterruptedError, UsageError } from '../errors.js';
import { EXIT_FAILED, EXIT_OK } from '../exit-codes.js';
import { BatchStop } from '../fatal.js';
import { displayPath } from '../files.js';
import { HEADER_LINE, HOUSEHOLD_COLUMNS } from '../household-columns.js';
import { buildHouseholds, type Household, mapHeader } from '../households.js';
import { type CliIO, write } from '../io.js';
import { progressMode, Reporter } from '../progress.js';
import {
  defaultLogPath,
  type HouseholdResult,
  type HouseholdStatus,
  summarize,
  writeResultLog,
} from '../result-log.js';
import { inFlight } from '../shutdown.js';

function columnsHelp(): string {
  return HOUSEHOLD_COLUMNS.map(
    (column) =>
      `  ${column.name.padEnd(19)}${(column.required ? 'required' : 'optional').padEnd(9)}${column.level.padEnd(10)}${column.description}`,
  ).join('\n');
}

/** Help of `groups create`. */
export const GROUPS_CREATE_HELP = `Usage: applicant-verification groups create --csv FILE [options]

Creates one applicant group per household of a CSV file and invites its applicants. Safe to
rerun: each household gets a correlation id derived from the file name and its household key,
and households whose group already exists are skipped. After a crash, a kill or failed rows,
run the same command again; it creates only what is missing.

Options:
  --csv FILE             the households file (header below; one row per applicant)
  --concurrency N        groups created at once (default 8, at most 64)
  --dry-run              check the file and print the plan; send nothing
  --no-invitations       create the groups without emailing or texting anyone
  --decision-maker NAME  decision maker for rows with a blank decision_maker column
  --batch-id NAME        namespace of the correlation ids instead of the file's name; keep it
                         the same across reruns (use it if the file gets renamed)
  --log FILE             results log (default FILE.results.csv beside the input; .json for
                         JSON; - for CSV on stdout)

CSV columns (header names are case-insensitive; unknown columns are ignored with a warning):
${columnsHelp()}

Rows with the same household_key form one group (one row per applicant). Household columns
may be left blank on a household's later rows; if repeated they must match.

${HEADER_LINE}

Exit codes: 0 every household created or already there; 1 bad rows (nothing sent) or some
households failed (rerun to retry them); 2 usage; 130/143 stopped by SIGINT/SIGTERM.

${COMMON_HELP}`;

const OPTIONS = {
  csv: { type: 'string' },
  concurrency: { type: 'string' },
  'dry-run': { type: 'boolean' },
  'no-invitations': { type: 'boolean' },
  'decision-maker': { type: 'string' },
  'batch-id': { type: 'string' },
  log: { type: 'string' },
} as const;

const SHOWN_FAILURES = 20;

function resultOf(household: Household, status: HouseholdStatus, groupId = '', error = ''): HouseholdResult {
  return {
    line: household.line,
    household_key: household.key,
    correlation_id: household.correlationId,
    status,
    group_id: groupId,
    applicants: household.lines.length,
    error,
  };
}

// Why an item did not finish: a stop before it started, a stop that cut its request, or a failure.
function failedResult(household: Household, error: unknown, context = ''): HouseholdResult {
  if (error instanceof InterruptedError) return resultOf(household, 'not_attempted');
  if (error instanceof APIUserAbortError) {
    return resultOf(
      household,
      'interrupted',
      '',
      'stopped while in flight; a rerun finds out whether it was created',
    );
  }
  return resultOf(household, 'failed', '', `${context}${describeError(error)}`);
}

async function loadTable(csvPath: string, shownPath: string): Promise<CsvTable> {
  try {
    return await readCsv(csvPath);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw error;
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : describeError(error);
    throw new UsageError(`cannot read --csv ${shownPath}: ${reason}`);
  }
}

async function printPlan(io: CliIO, households: readonly Household[]): Promise<void> {
  const lines = ['LINE   HOUSEHOLD             APPL  CORRELATION ID        UNIT      RENT'];
  for (const household of households) {
    lines.push(
      [
        String(household.line).padEnd(5),
        household.key.padEnd(20).slice(0, 20),
        String(household.lines.length).padEnd(4),
        household.correlationId.padEnd(20),
        (household.body.property.unit ?? '').padEnd(8).slice(0, 8),
        String(household.body.monthly_rent),
      ].join('  '),
    );
  }
  await write(io.stdout, `${lines.join('\n')}\n`);
}

/** What a run did to each household, and the error that stopped it early, if one did. */
interface BatchOutcome {
  results: HouseholdResult[];
  fatalError: unknown;
}

/**
 * Steps 2 and 3: looks every household up by correlation id, then creates the missing ones with
 * `createMany`. On SIGINT/SIGTERM nothing new starts and requests in flight get a grace period.
 */
async function createHouseholds(
  client: VerificationClient,
  households: readonly Household[],
  options: { concurrency: number; io: CliIO; reporter: Reporter },
): Promise<BatchOutcome> {
  const { concurrency, io, reporter } = options;
  const flight = inFlight(io, reporter);
  const request = { signal: flight.signal };
  const stop = new BatchStop(io.signal);
  const results: HouseholdResult[] = [];
  try {
    const checking = reporter.start('check', households.length);
    const found = await mapSettled(
      households,
      (household) =>
        stop.guard(() => client.applicantGroups.findByCorrelationId(household.correlationId, request)),
      {
        concurrency,
        signal: stop.signal,
        // Once stopped, rows that never started would count as failures: freeze the display.
        onProgress: (progress) => !stop.signal.aborted && checking.update(progress),
      },
    );
    checking.finish();
    const missing: Household[] = [];
    found.forEach((outcome: Settled<ApplicantGroup | undefined>, index) => {
      const household = households[index];
      if (!household) return;
      if (!outcome.ok)
        results.push(failedResult(household, outcome.error, 'could not check for an existing group: '));
      else if (outcome.value) results.push(resultOf(household, 'skipped_existing', outcome.value.id));
      else if (stop.signal.aborted) results.push(failedResult(household, stop.signal.reason));
      else missing.push(household);
    });
    if (missing.length > 0) {
      const creating = reporter.start('create', missing.length);
      const created = await client.applicantGroups.createMany(
        missing.map((household) => household.body),
        {
          concurrency,
          signal: io.signal,
          onProgress: (progress) => !io.signal.aborted && creating.update(progress),
          request,
        },
      );
      creating.finish();
      created.forEach((outcome, index) => {
        const household = missing[index];
        if (!household) return;
        results.push(
          outcome.ok
            ? resultOf(household, 'created', outcome.value.id)
            : failedResult(household, outcome.error),
        );
      });
    }
    return { results, fatalError: stop.fatalError };
  } finally {
    flight.dispose();
  }
}

async function checkWritableDir(dir: string, option: string): Promise<void> {
  try {
    await access(dir, constants.W_OK);
  } catch {
    throw new UsageError(`${option}: cannot write to the directory ${dir}`);
  }
}

/** Runs `groups create`. */
export async function groupsCreate(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS);
  if (values.help) {
    await write(io.stdout, `${GROUPS_CREATE_HELP}\n`);
    return EXIT_OK;
  }
  expectPositionals(positionals, []);
  if (values.csv === undefined) throw new UsageError('--csv FILE is required');
  const concurrency = numberOption('concurrency', values.concurrency, 8, { min: 1, max: 64, integer: true });
  const csvPath = resolve(io.cwd, values.csv);
  const shown = values.csv;
  const reporter = new Reporter(io.stderr, { mode: progressMode(io.stderr, values.quiet ?? false) });

  // 1. Check everything before sending anything.
  let table: CsvTable;
  try {
    table = await loadTable(csvPath, shown);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    reporter.error(
      `${shown}: ${error.line === undefined ? '' : `line ${error.line}: `}${describeError(error)}`,
    );
    reporter.error('The file is not valid CSV; nothing was sent.');
    return EXIT_FAILED;
  }
  const header = mapHeader(table.header);
  if (header.missing.length > 0 || header.duplicates.length > 0) {
    const problems = [
      header.missing.length > 0 && `lacks the column(s) ${header.missing.join(', ')}`,
      header.duplicates.length > 0 && `names ${header.duplicates.join(', ')} twice`,
    ].filter((item) => typeof item === 'string');
    throw new UsageError(`the header of ${shown} ${problems.join(' and ')}; expected:\n  ${HEADER_LINE}`);
  }
  if (!header.columns.includes('decision_maker') && values['decision-maker'] === undefined) {
    throw new UsageError(`${shown} has no decision_maker column: pass --decision-maker NAME`);
  }
  if (header.unknown.length > 0) {
    reporter.error(`warning: ${shown}: ignoring unknown column(s) ${header.unknown.join(', ')}`);
  }
  const namespace = batchNamespace(csvPath, values['batch-id']);
  const plan = buildHouseholds(table, header, {
    namespace,
    decisionMaker: values['decision-maker'],
    invitations: !values['no-invitations'],
  });
  if (plan.errors.length > 0) {
    for (const error of plan.errors) {
      const column = error.column === undefined ? '' : `, column ${error.column}`;
      reporter.error(`${shown}: line ${error.line}${column}: ${error.message}`);
    }
    const lines = new Set(plan.errors.map((error) => error.line)).size;
    reporter.error(`${lines} row(s) with errors in ${shown}; nothing was sent. Fix them and run again.`);
    return EXIT_FAILED;
  }
  const { households } = plan;
  const applicants = households.reduce((sum, household) => sum + household.lines.length, 0);
  if (values['dry-run']) {
    await printPlan(io, households);
    reporter.note(
      `Dry run: ${households.length} household(s), ${applicants} applicant(s) in ${shown} are valid; nothing was sent.`,
    );
    return EXIT_OK;
  }

  // 2-4. Look up, create what is missing, log.
  const logPath =
    values.log === undefined
      ? defaultLogPath(csvPath)
      : values.log === '-'
        ? '-'
        : resolve(io.cwd, values.log);
  // A log that cannot be written must be found out before 300 people are invited, not after.
  if (logPath !== '-') await checkWritableDir(dirname(logPath), '--log');
  const startedAt = new Date();
  const client = connect(values, io, reporter);
  let outcome: BatchOutcome;
  try {
    outcome = await createHouseholds(client, households, { concurrency, io, reporter });
  } finally {
    await client.close();
  }
  const { results, fatalError } = outcome;
  const summary = summarize(results);
  try {
    await writeResultLog(
      logPath,
      results,
      { csv: csvPath, batch: namespace, startedAt, finishedAt: new Date() },
      io,
    );
  } catch (error) {
    reporter.error(`Could not write the results log ${logPath}: ${describeError(error)}`);
    return EXIT_FAILED;
  }
  const failures = results.filter((result) => result.status === 'failed').sort((a, b) => a.line - b.line);
  if (fatalError !== undefined) {
    // One cause for every row: say it once.
    reporter.error(`Stopped: ${describeError(fatalError)}. Nothing was created; check the credentials.`);
  }
  for (const failure of fatalError === undefined ? failures.slice(0, SHOWN_FAILURES) : []) {
    reporter.error(`${shown}: line ${failure.line} (household ${failure.household_key}): ${failure.error}`);
  }
  if (fatalError === undefined && failures.length > SHOWN_FAILURES) {
    reporter.error(`... and ${failures.length - SHOWN_FAILURES} more failures; see the log.`);
  }
  const stopped = summary.interrupted + summary.not_attempted;
  const logShown = logPath === '-' ? 'stdout' : displayPath(io.cwd, logPath);
  reporter.note(
    `${summary.created} created, ${summary.skipped_existing} already existed, ${summary.failed} failed${stopped > 0 ? `, ${stopped} not done (stopped)` : ''}, of ${households.length} household(s). Log: ${logShown}`,
  );
  if (summary.failed > 0 || stopped > 0) {
    reporter.note(
      'Run the same command again to finish: existing groups are skipped, nobody is invited twice.',
    );
    return EXIT_FAILED;
  }
  return EXIT_OK;
}
