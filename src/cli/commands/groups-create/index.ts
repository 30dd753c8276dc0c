/**
 * `groups create --csv FILE`: one applicant group per household of a spreadsheet, resumable.
 *
 * 1. Every row is checked; if any is bad, all problems are listed (line, column) and nothing is
 *    sent, unless `--skip-invalid` leaves the bad households out.
 * 2. The create gate is opened (the state directory's coordination, or Redis: see
 *    `shared/gate.ts`) and the batch's lock is taken.
 * 3. The journal of earlier runs is read; every household is resolved by lookup (which also
 *    proves the credentials: with wrong ones nothing at all is written); the missing ones are
 *    created through the gate (`createOnce`), each journaled before and after (see
 *    `run-batch.ts`).
 * 4. A new results log gets one entry per household: its group id, or its error.
 */
import { constants, createReadStream } from 'node:fs';
import { access, open } from 'node:fs/promises';
import { dirname, parse as parsePath, resolve } from 'node:path';
import { ConfigurationError, type Coordination, type VerificationClient } from 'applicant-verification';
import {
  type CheckedHouseholds,
  type CheckHouseholdsOptions,
  type ColumnSpec,
  checkHouseholds,
  HOUSEHOLD_COLUMNS,
  type Household,
  type HouseholdSummary,
  type HouseholdsSource,
} from 'applicant-verification/households';
import { isRentUnit } from 'applicant-verification/schemas';
import { stateNameForCode, UNRESOLVED_RECHECK_MS } from '../../../internal.js';
import {
  AUTH_FAILED_MESSAGE,
  describeError,
  EXIT_AUTH,
  EXIT_CONFLICT,
  EXIT_FAILED,
  EXIT_OK,
  EXIT_STATE,
  EXIT_USAGE,
  isAuthFailure,
  UsageError,
} from '../../errors.js';
import { COMMON_HELP, expectPositionals, numberOption, parseCommand } from '../../shared/args.js';
import { clientOf, cliLogger, connectionProblem, resolveConnection } from '../../shared/connection.js';
import { displayPath } from '../../shared/files.js';
import { gateTargetOf, openGate } from '../../shared/gate.js';
import { type CliIO, write } from '../../shared/io.js';
import { progressMode, Reporter } from '../../shared/progress.js';
import { readManifest, recordUse, serverOf } from '../../shared/state-manifest.js';
import { safeCell } from '../../shared/terminal.js';
import { batchFiles, defaultLogPath } from './batch-files.js';
import { expiredNote } from './expiry.js';
import { Journal, readJournal } from './journal.js';
import { BatchLock } from './lock.js';
import { describeProblems, problemLine } from './problems.js';
import { type HouseholdResult, ResultLog } from './result-log.js';
import { ResultTally } from './result-tally.js';
import { type BatchOutcome, conflictLine, runBatch } from './run-batch.js';

const HEADER_LINE = HOUSEHOLD_COLUMNS.map((column) => column.name).join(',');

// A column the header may lack but whose blank is an error without its option reads "required*".
function columnsHelp(): string {
  return HOUSEHOLD_COLUMNS.map((column: ColumnSpec) => {
    const label = column.required ? 'required' : column.requiredUnless ? 'required*' : 'optional';
    return `  ${column.name.padEnd(19)}${label.padEnd(10)}${column.level.padEnd(10)}${column.description}`;
  }).join('\n');
}

/** Help of `groups create`. */
export const GROUPS_CREATE_HELP = `Usage: applicant-verification groups create --csv FILE [options]

Creates one applicant group per household of a CSV file and invites its applicants. Safe to
rerun and safe to kill: after a crash, a kill or failed rows, run the same command again; it
creates only what is missing and never invites anyone twice.

Options:
  --csv FILE             the households file (header below; one row per applicant)
  --concurrency N        groups created at once (default 8, at most 64)
  --dry-run              check the file and print the plan; send nothing
  --skip-invalid         create the valid households and report the invalid ones (exit 1)
                         instead of sending nothing while any row is bad
  --no-invitations       create the groups without emailing or texting anyone
  --reinvite-expired     households whose groups have all expired (14 days without
                         completion) get a new group, inviting them again (reinvitation_of in
                         the log); without it they are reported as expired and left alone
  --api-rent-unit UNIT   how the API reads monthly_rent: dollars (default) or cents (env
                         VERIFICATION_API_RENT_UNIT); the CSV's monthly_rent stays in dollars
  --decision-maker NAME  decision maker for rows with a blank decision_maker column
  --default-country CC   country of phone numbers written without "+" and a country code
                         (ISO code, e.g. US: "(415) 555-0123" becomes +14155550123); without
                         it such numbers are refused, never guessed
  --pad-zip-codes        read a ZIP code of 3 or 4 digits (2134: a spreadsheet dropped the
                         leading zero) as 5 digits (02134), saying so for each; without it such
                         a ZIP is a problem naming the likely fix
  --batch-id NAME        part of every correlation id: a new name starts a new round for
                         the same households (default: none)
  --grace SECONDS        how long a create sent by a killed run may take to show up before it
                         is sent again (default 30)
  --log FILE             results log (default FILE.results.<time>.csv beside the input; .json
                         for JSON; - for CSV on stdout). An existing file is never replaced.
  --state-dir DIR        the machine's create gate: DIR/coordination (env
                         VERIFICATION_STATE_DIR; default $XDG_STATE_HOME/applicant-verification,
                         ~/.local/state/applicant-verification when XDG_STATE_HOME is unset)
  --coordination URL     a Redis (redis://[user:password@]host[:port][/db] or rediss://) as
                         the gate instead, shared by every machine (env VERIFICATION_COORDINATION,
                         better for a URL with a password; needs: npm install ioredis)

Beside FILE, per account (client id): FILE.<client id>.journal.jsonl (write-ahead journal,
appended by every run of that account) and FILE.<client id>.lock (held while a run works; a
second run of the same account on the same file exits with code 4). Two accounts (two
--profile) may create from one file at once: they share no journal, lock or lease.

The gate: every household is created through one lease per (client id, correlation id), which
every run using the same state directory (or Redis) takes, whatever folder its file is in, as
do scripts whose client has coordination: commandLineCoordination() (the same folder, resolved
by the same function) and the same client id. A run that finds a household created meanwhile
counts it as already existing, and warns when the gate had no record of it (a writer off the
gate) or when a household has more than one group (created twice).

Correlation ids: "cli-" + 16 hex digits of SHA-256 over --batch-id, household_key, the
applicants' emails (lower-cased, sorted) and monthly_rent, the same as parseHouseholds gives
scripts (applicant-verification/households). A group found under a household's id (or under
the id it had before an edit) whose emails or rent differ is a conflict.

CSV columns (header names are case-insensitive; unknown columns are ignored with a warning):
${columnsHelp()}
  * the column may be left out, or a cell blank, only with --decision-maker NAME

Rows with the same household_key form one group (one row per applicant). Household columns
may be left blank on a household's later rows; if repeated they must agree (text ignoring
case: "ma" is "MA"). Every problem of the file is listed in one pass, households with a bad
row checked as households too, with a count of each kind; a household with any problem is
never sent.

${HEADER_LINE}

Exit codes: 0 every household created or already there; 1 bad rows, or some households failed
or are unresolved (rerun); 2 usage; 3 conflicts; 4 another run holds the lock;
5 authentication failed; 6 local state cannot be trusted (a damaged journal line, or households
the gate refused for a damaged line of its state: the message names the file, the line and the
repair; nothing was sent for them); 130/143 stopped by SIGINT/SIGTERM.

${COMMON_HELP}`;

const OPTIONS = {
  csv: { type: 'string' },
  concurrency: { type: 'string' },
  'dry-run': { type: 'boolean' },
  'skip-invalid': { type: 'boolean' },
  'no-invitations': { type: 'boolean' },
  'reinvite-expired': { type: 'boolean' },
  'api-rent-unit': { type: 'string' },
  'decision-maker': { type: 'string' },
  'default-country': { type: 'string' },
  'pad-zip-codes': { type: 'boolean' },
  'batch-id': { type: 'string' },
  grace: { type: 'string' },
  log: { type: 'string' },
  'state-dir': { type: 'string' },
  coordination: { type: 'string' },
} as const;

const SHOWN_FAILURES = 20;

/**
 * The file as the households reader reads it: streamed from its start on each reading (it is read
 * twice to check it, and once more for the bodies to create), never held whole. Checked readable
 * first: a missing file is a usage error.
 */
async function sourceOf(csvPath: string, shownPath: string): Promise<HouseholdsSource> {
  try {
    // Reading a byte finds a directory (EISDIR) as well as a missing or unreadable file.
    const handle = await open(csvPath, 'r');
    try {
      await handle.read(Buffer.alloc(1), 0, 1, 0);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : describeError(error);
    throw new UsageError(`cannot read --csv ${shownPath}: ${reason}`);
  }
  return () => createReadStream(csvPath);
}

// The library's option names, as the flags a person typed.
async function checkWithFlags(
  source: HouseholdsSource,
  options: CheckHouseholdsOptions,
): Promise<CheckedHouseholds> {
  try {
    return await checkHouseholds(source, options);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new UsageError(
      error.message
        .replace(/\bdefaultCountry\b/g, '--default-country')
        .replace(/\bdecisionMaker\b/g, '--decision-maker')
        .replace(/\.$/, ''),
    );
  }
}

/** Lines of the plan written at once: the plan of 100,000 households is never one string. */
const PLAN_CHUNK = 1_000;

async function printPlan(io: CliIO, households: readonly HouseholdSummary[]): Promise<void> {
  let lines = ['LINE   HOUSEHOLD             APPL  CORRELATION ID        UNIT      RENT'];
  for (const household of households) {
    lines.push(
      [
        String(household.line).padEnd(5),
        safeCell(household.key).padEnd(20).slice(0, 20),
        String(household.lines.length).padEnd(4),
        household.correlationId.padEnd(20),
        safeCell(household.match.property.unit ?? '')
          .padEnd(8)
          .slice(0, 8),
        String(household.match.monthly_rent),
      ].join('  '),
    );
    if (lines.length >= PLAN_CHUNK) {
      await write(io.stdout, `${lines.join('\n')}\n`);
      lines = [];
    }
  }
  if (lines.length > 0) await write(io.stdout, `${lines.join('\n')}\n`);
}

async function checkWritableDir(dir: string, option: string): Promise<void> {
  try {
    await access(dir, constants.W_OK);
  } catch {
    throw new UsageError(`${option}: cannot write to the directory ${dir}`);
  }
}

// Applicant groups take "TX"; screening groups want "Texas". Said once, before it bites: the
// note for the first household (in the order the check completes them) with a two-letter state.
function stateHint(household: Household): string | undefined {
  const state = household.body.property.state.trim();
  const name = /^[A-Za-z]{2}$/.test(state) ? stateNameForCode(state.toUpperCase()) : undefined;
  if (name === undefined) return undefined;
  return `note: state "${state}" is fine for applicant groups; screening groups need the state spelled out ("${name}")`;
}

// The households left out by --skip-invalid, one result each.
function invalidResults(plan: CheckedHouseholds): HouseholdResult[] {
  return plan.invalid.map(({ key, lines }) => ({
    line: lines[0] ?? 0,
    household_key: key,
    correlation_id: '',
    status: 'invalid',
    group_id: '',
    applicants: lines.length,
    error: plan.problems
      .filter((problem) => problem.householdKey === key || lines.includes(problem.line))
      .map(problemLine)
      .join('; '),
    retry_after: '',
    reinvitation_of: '',
    possible_duplicate: '',
  }));
}

// A header the file cannot be read with is a usage error (exit 2), as a missing option is.
function headerProblems(plan: CheckedHouseholds, shown: string, decisionMakerGiven: boolean): string[] {
  const { missing, duplicated, found } = plan.columns;
  if (missing.length > 0 || duplicated.length > 0) {
    const problems = [
      missing.length > 0 && `lacks the column(s) ${missing.join(', ')}`,
      duplicated.length > 0 && `names ${[...new Set(duplicated)].join(', ')} twice`,
    ].filter((item) => typeof item === 'string');
    return [`the header of ${shown} ${problems.join(' and ')}; expected:\n  ${HEADER_LINE}`];
  }
  if (found.length > 0 && !found.includes('decision_maker') && !decisionMakerGiven) {
    return [`${shown} has no decision_maker column: pass --decision-maker NAME`];
  }
  return [];
}

/**
 * Sets `retry_after` on each unresolved result whose create the gate recorded unresolved: the gate
 * holds it back until UNRESOLVED_RECHECK_MS after that record (a group committed late still shows).
 */
async function setHoldTimes(
  results: HouseholdResult[],
  coordination: Coordination,
  clientId: string,
): Promise<void> {
  for (const result of results) {
    if (result.status !== 'unresolved' || result.correlation_id === '') continue;
    const record = await coordination
      .readCreateOutcome(clientId, result.correlation_id)
      .catch(() => undefined);
    if (record?.state !== 'unresolved') continue;
    result.retry_after = new Date(record.recordedAt + UNRESOLVED_RECHECK_MS).toISOString();
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
  const graceSeconds = numberOption('grace', values.grace, 30, { min: 0, max: 3600, integer: false });
  const csvPath = resolve(io.cwd, values.csv);
  const shown = values.csv;
  const batchId = values['batch-id'] ?? '';
  // Checked now, opened only when something is to be sent: a dry run touches no state.
  const gateTarget = gateTargetOf(values, io);
  const reporter = new Reporter(io.stderr, { mode: progressMode(io.stderr, values.quiet ?? false) });

  const apiRentUnit = values['api-rent-unit'] ?? (io.env.VERIFICATION_API_RENT_UNIT || 'dollars');
  if (!isRentUnit(apiRentUnit)) {
    throw new UsageError(`--api-rent-unit must be dollars or cents, got "${apiRentUnit}"`);
  }
  const dryRun = values['dry-run'] ?? false;

  // 1. Check everything before sending anything, and say all of it in one pass: the connection
  // settings' presence and form first (no network), then every problem of the file.
  const connection = await resolveConnection(values, io);
  const settings = await connectionProblem(connection, values, io, reporter);
  let hint: string | undefined;
  const plan = await checkWithFlags(await sourceOf(csvPath, shown), {
    onHousehold: (household) => {
      hint ??= stateHint(household);
    },
    apiRentUnit,
    batchId,
    decisionMaker: values['decision-maker'],
    defaultCountry: values['default-country'],
    invitations: !values['no-invitations'],
    padZipCodes: values['pad-zip-codes'] ?? false,
  });
  for (const fix of plan.fixes) {
    reporter.note(
      `${shown}: line ${fix.line}, column ${fix.column}: "${safeCell(fix.from)}" read as "${fix.to}" (--pad-zip-codes)`,
    );
  }
  const usage = [
    ...(settings === undefined || dryRun ? [] : [settings]),
    ...headerProblems(plan, shown, values['decision-maker'] !== undefined),
  ];
  // Without the column (and the option) every household lacks a decision maker: the usage line says it once.
  const noDecisionMaker = !plan.columns.found.includes('decision_maker');
  const rowProblems = plan.problems.filter(
    (problem) =>
      problem.kind !== 'header' &&
      !(noDecisionMaker && problem.kind === 'missing_household_value' && problem.column === 'decision_maker'),
  );
  if (usage.length > 0 && rowProblems.length === 0) throw new UsageError(usage.join('\n'));
  if (settings !== undefined && dryRun) reporter.note(`note: a real run would stop here: ${settings}`);
  for (const line of usage) reporter.error(line);
  if (plan.columns.unknown.length > 0) {
    reporter.error(`warning: ${shown}: ignoring unknown column(s) ${plan.columns.unknown.join(', ')}`);
  }
  const failed = usage.length > 0 ? EXIT_USAGE : EXIT_FAILED;
  const syntax = rowProblems.find((problem) => problem.kind === 'csv_syntax');
  if (syntax) {
    reporter.error(`${shown}: line ${syntax.line}: ${syntax.message}`);
    reporter.error('The file is not valid CSV; nothing was sent.');
    return failed;
  }
  const skipInvalid = values['skip-invalid'] ?? false;
  if (rowProblems.length > 0) {
    for (const problem of rowProblems) reporter.error(`${shown}: ${problemLine(problem)}`);
    const summary = describeProblems(rowProblems, shown);
    if (!skipInvalid || plan.households.length === 0 || usage.length > 0) {
      reporter.error(
        `${summary}; nothing was sent. Fix them and run again${skipInvalid ? '' : ', or pass --skip-invalid to create the valid households'}.`,
      );
      return failed;
    }
    reporter.error(
      `${summary}: --skip-invalid leaves out ${plan.invalid.length} household(s) (${plan.invalid.map((household) => household.key).join(', ')}) and creates the other ${plan.households.length}.`,
    );
  }
  const { households } = plan;
  const invalid = invalidResults(plan);
  if (hint !== undefined) reporter.note(hint);
  const applicants = households.reduce((sum, household) => sum + household.lines.length, 0);
  if (dryRun) {
    await printPlan(io, households);
    reporter.note(
      `Dry run: ${households.length} household(s), ${applicants} applicant(s) in ${shown} are valid; nothing was sent.`,
    );
    return invalid.length > 0 ? EXIT_FAILED : EXIT_OK;
  }

  // 2. Lock; 3. resolve (which proves the credentials), journal and create; 4. log.
  const startedAt = new Date();
  const { dir } = parsePath(csvPath);
  // Set: the settings were checked above. Each account keeps its own journal, lock and log.
  const clientId = connection.clientId ?? '';
  const files = batchFiles(csvPath, clientId);
  const journalPath = files.journal;
  const lockPath = files.lock;
  const logPath =
    values.log === undefined
      ? defaultLogPath(csvPath, clientId, startedAt)
      : values.log === '-'
        ? '-'
        : resolve(io.cwd, values.log);
  // A log that cannot be written must be found out before 300 people are invited, not after.
  await checkWritableDir(dir, '--csv (journal and lock go beside it)');
  if (logPath !== '-') await checkWritableDir(dirname(logPath), '--log');
  const gate = await openGate(gateTarget, io, cliLogger(values, io, reporter));
  for (const warning of gate.warnings) reporter.error(warning);
  // The state folder's manifest: the servers and client ids its records were made with.
  const stateDir = gateTarget.kind === 'file' ? gateTarget.stateDir : undefined;
  const server = serverOf(connection.baseURL ?? '');
  const manifest = stateDir ? await readManifest(stateDir.path) : undefined;
  let client: VerificationClient;
  try {
    // A create this run sends and loses track of is looked for as long as a killed run's would be.
    client = clientOf(connection, values, io, reporter, {
      createGraceWindow: Math.round(graceSeconds * 1000),
      apiRentUnit,
      coordination: gate.coordination,
    });
  } catch (error) {
    await gate.close();
    throw error;
  }
  let outcome: BatchOutcome;
  let journal: Journal | undefined;
  const log = new ResultLog(logPath, startedAt);
  // Counts and the rows the end prints: every row itself is in the log (on disk for a CSV log).
  const tally = new ResultTally(SHOWN_FAILURES);
  const settle = (result: HouseholdResult) => {
    log.append(result);
    tally.add(result);
  };
  try {
    const lock = await BatchLock.acquire(lockPath, (message) => reporter.error(message));
    try {
      // The account's own journal has the last word over the shared one of earlier versions. A
      // damaged line stops the run here, before any lookup or create (JournalDamagedError).
      const shared = await readJournal(files.sharedJournal);
      const own = await readJournal(journalPath);
      for (const [path, read] of [
        [files.sharedJournal, shared],
        [journalPath, own],
      ] as const) {
        if (read.tornLine === undefined) continue;
        reporter.note(
          `note: ${displayPath(io.cwd, path)}: line ${read.tornLine} was cut off (a run was killed while writing it); ignored: the create it announced was never sent`,
        );
      }
      // Only the account's own journal is written: the shared one says its torn line each run.
      await Journal.acknowledgeTorn(journalPath, own, startedAt);
      const previous = new Map([...shared.states, ...own.states]);
      outcome = await runBatch(client, households, {
        bodies: (wanted) => plan.bodies(wanted),
        concurrency,
        graceMs: Math.round(graceSeconds * 1000),
        batchId,
        io,
        reporter,
        previous,
        reinviteExpired: values['reinvite-expired'] ?? false,
        gateRecord: (correlationId) => gate.coordination.readCreateOutcome(clientId, correlationId),
        gateWhere: gate.where,
        onResult: (result) => {
          // The households --skip-invalid left out go in first, with the first settled row.
          for (const skipped of invalid.splice(0)) settle(skipped);
          settle(result);
        },
        openJournal: async () => {
          journal = await Journal.open(journalPath);
          await journal.append({
            type: 'run',
            at: startedAt.toISOString(),
            pid: process.pid,
            csv: csvPath,
            batch_id: batchId,
          });
          return journal;
        },
      });
      // Households the gate still holds back: when each can go (in the log and the summary).
      await setHoldTimes(tally.unresolved, gate.coordination, clientId);
      // A run that sent something (its journal opened) records its server in the manifest.
      if (stateDir && journal !== undefined) {
        await recordUse(stateDir.path, { server, clientId, journal: journalPath, at: startedAt }).catch(
          (error: unknown) =>
            reporter.error(
              `warning: could not record this run in ${stateDir.path}/state.json: ${describeError(error)}`,
            ),
        );
      }
    } finally {
      await journal?.close();
      await lock.release();
    }
  } finally {
    // The log's file is kept open while rows settle: closed here whatever stopped the run.
    await log.close();
    await client.close();
    await gate.close();
  }
  if (isAuthFailure(outcome.fatalError) && journal === undefined) {
    await log.discard();
    reporter.error(`${AUTH_FAILED_MESSAGE}. Nothing was sent; no results or journal were written.`);
    return EXIT_AUTH;
  }
  const { fatalError, conflicts } = outcome;
  // The households --skip-invalid left out, when no row settled to bring them in.
  for (const skipped of invalid.splice(0)) settle(skipped);
  const { summary } = tally;
  let logWritten: string;
  try {
    // The unresolved rows got their hold times after they were appended.
    logWritten = await log.finish(
      tally.unresolved,
      { csv: csvPath, batchId, startedAt, finishedAt: new Date() },
      io,
    );
  } catch (error) {
    reporter.error(`Could not write the results log ${logPath}: ${describeError(error)}`);
    return EXIT_FAILED;
  }
  if (fatalError !== undefined) {
    // One cause for every row: say it once.
    reporter.error(
      isAuthFailure(fatalError)
        ? `Stopped: ${AUTH_FAILED_MESSAGE}.`
        : `Stopped: ${describeError(fatalError)}. Check the credentials' permissions.`,
    );
  }
  if (outcome.readError !== undefined) {
    // The file was changed (or could not be read) after it was checked: what it holds now was not.
    reporter.error(
      `Stopped: ${shown} could not be read again for the creates: ${describeError(outcome.readError)}. The households not started were not sent; run the same command again to check the file as it is now.`,
    );
  }
  if (outcome.foundAtCreate > 0) {
    reporter.note(
      `${outcome.foundAtCreate} household(s) were created by another run or script while this run worked (same gate: ${gate.where}); they were found, not created again.`,
    );
  }
  if (outcome.foundOffGate.length > 0) {
    const keys = outcome.foundOffGate.slice(0, 5).map(safeCell).join(', ');
    reporter.error(
      `warning: ${outcome.foundOffGate.length} household(s) (${keys}${outcome.foundOffGate.length > 5 ? ', ...' : ''}) were created while this run worked by a writer NOT on its gate (${gate.where} had no record of them): they were found, not created again, but two writers on different gates can both create a household when they send at the same moment. Give scripts commandLineCoordination() (or the same --state-dir / VERIFICATION_STATE_DIR) and the same client id.`,
    );
  }
  if (outcome.recordedNotThere.length > 0) {
    const keys = outcome.recordedNotThere.slice(0, 5).map(({ household }) => safeCell(household.key));
    const others = (manifest?.uses ?? [])
      .filter((use) => use.server !== server || use.clientId !== clientId)
      .map((use) => `${use.server} (client id ${use.clientId})`);
    const next = stateDir
      ? `See what it holds: applicant-verification state show --state-dir ${stateDir.path}; clear it once nothing is in flight: applicant-verification state clear --state-dir ${stateDir.path}`
      : `Clear this client id's records in that Redis once nothing is in flight (docs/cli.md, "The state command")`;
    reporter.error(
      `warning: ${outcome.recordedNotThere.length} household(s) (${keys.join(', ')}${outcome.recordedNotThere.length > 5 ? ', ...' : ''}) are recorded as created in the gate (${gate.where}), but ${server} has none of their groups; nothing was sent for them. The state may belong to another server (a mock that was reset, or one client id on sandbox and production${others.length > 0 ? `; this folder was also used with ${others.join(', ')}` : ''}). ${next}`,
    );
  }
  for (const { household, groups } of outcome.twice) {
    reporter.error(
      `warning: ${shown}: line ${household.line} (household ${safeCell(household.key)}): ${groups.length} groups under its correlation id ${household.correlationId} (${groups.map((group) => group.id).join(', ')}): it was created, and its applicants invited, more than once, by writers that did not share a gate`,
    );
  }
  const twiceKeys = new Set(outcome.twice.map(({ household }) => household.key));
  for (const result of tally.duplicates) {
    if (result.possible_duplicate === '' || twiceKeys.has(result.household_key)) continue;
    reporter.error(
      `warning: ${shown}: line ${result.line} (household ${safeCell(result.household_key)}): possible duplicate: group ${result.group_id} and ${result.possible_duplicate} are live under its correlation id ${result.correlation_id} (see docs/fault-model.md, "A duplicate was reported")`,
    );
  }
  for (const { household, conflict } of conflicts)
    reporter.error(`${shown}: ${conflictLine(household, conflict)}`);
  // The households recorded elsewhere were said in one line above.
  const saidAbove = new Set(outcome.recordedNotThere.map(({ household }) => household.line));
  const failures = tally.failures(saidAbove);
  for (const failure of fatalError === undefined ? failures.shown : []) {
    reporter.error(`${shown}: line ${failure.line} (household ${failure.household_key}): ${failure.error}`);
  }
  if (fatalError === undefined && failures.total > SHOWN_FAILURES) {
    reporter.error(`... and ${failures.total - SHOWN_FAILURES} more failures; see the log.`);
  }
  const stopped = summary.interrupted + summary.not_attempted;
  const logShown = logWritten === '-' ? 'stdout' : displayPath(io.cwd, logWritten);
  const { reinvited } = tally;
  const duplicated = tally.duplicates.length;
  const counts = [
    `${summary.created} created${reinvited > 0 ? ` (${reinvited} re-invitation(s) of expired groups)` : ''}`,
    `${summary.skipped_existing} already existed`,
    summary.expired > 0 && `${summary.expired} expired`,
    duplicated > 0 && `${duplicated} possible duplicate(s)`,
    summary.conflict > 0 && `${summary.conflict} conflict(s)`,
    summary.invalid > 0 && `${summary.invalid} invalid`,
    `${summary.failed} failed`,
    summary.unresolved > 0 && `${summary.unresolved} unresolved`,
    stopped > 0 && `${stopped} not done (stopped)`,
  ].filter((item) => typeof item === 'string');
  reporter.note(
    `${counts.join(', ')}, of ${households.length + plan.invalid.length} household(s). Log: ${logShown}`,
  );
  if (summary.expired > 0) reporter.note(expiredNote(summary.expired));
  if (fatalError !== undefined && isAuthFailure(fatalError)) return EXIT_AUTH;
  const held = tally.unresolved
    .map((result) => result.retry_after)
    .filter((time) => time !== '')
    .sort();
  if (held.length > 0) {
    const last = held.at(-1) ?? '';
    reporter.note(
      `${held.length} unresolved household(s) are held by the gate until ${held[0]}${held.length > 1 && held[0] !== last ? ` to ${last}` : ''} (${UNRESOLVED_RECHECK_MS / 60_000} minutes after their create may have reached the server, in case its group still appears); a rerun before then only looks them up. Each one's time is in the log's retry_after column.`,
    );
  }
  const { damagedState } = tally;
  if (damagedState > 0) {
    reporter.note(
      `${damagedState} household(s) were refused by the gate (${gate.where}): its state is damaged (CoordinationStateError above: the file, the line and the repair), so nothing was sent for them. Repair it, then run the same command again.`,
    );
  }
  const rerunFinishes = summary.failed + summary.unresolved + stopped > damagedState;
  if (rerunFinishes && fatalError === undefined) {
    reporter.note(
      held.length > 0
        ? `Run the same command again after ${held.at(-1)} to finish them: existing groups are found, nobody is invited twice.`
        : 'Run the same command again to finish: existing groups are found, nobody is invited twice.',
    );
  }
  if (summary.conflict > 0) return EXIT_CONFLICT;
  if (damagedState > 0) return EXIT_STATE;
  if (summary.failed + summary.unresolved + summary.invalid + stopped > 0) return EXIT_FAILED;
  return EXIT_OK;
}
